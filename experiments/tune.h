// `stencil-lab tune`: the best configuration of one version for one grid. Every configuration the
// version exposes (its tile T, over the tiles the backends build and the hardware allows, and for a
// version that takes any block shape, KernelVersion::takes_block, a set of block shapes: the
// textbook's 32x4x2 and its neighbours; the z-chunk of a version that marches one; the steps K a
// launch fuses, for temporal) is checked against the fp64 reference through core/run.h; on a GPU
// each one that passes is then timed (warm-up, min / median / max) and the fastest median per step
// wins: a launch that fuses K steps is K updates of every cell. On the CPU backend no time
// means anything (the emulator's speed is not a GPU's), so the ranking is the model's and the
// trace's traffic: fewest requested bytes per output, then fewest sectors per warp request; the
// result says no time was measured.
//
// Results are cached in a JSON file, one entry per (backend, device, kernel, r, precision, N,
// configuration),
// written after every configuration: an interrupted tune resumes where it stopped, and a second
// run of the same tune measures nothing again unless asked to (`fresh`).
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/backend.h"
#include "core/run.h"

namespace stencil::experiments {

struct TuneOptions {
    KernelId kernel = KernelId::tiled;
    int radius = 1;
    Precision precision = Precision::f32;
    int size = 256;                 // an N^3 grid
    int reps = 10, warmup = 3;      // GPU: timed and untimed launches per configuration
    std::uint64_t seed = 1;
    std::string cache_file;         // empty: no cache
    bool fresh = false;             // measure again even what the cache holds
    // Called before each configuration and once at the end (done == total).
    std::function<void(int done, int total, const std::string& what)> progress;
};

// One point of the search: a tile, or (a version that takes one) a block shape of the user's kind,
// or (a version with a z-chunk) the planes a block marches, or (a version that fuses steps) K.
struct TuneConfig {
    int tile = 0;
    std::optional<Dim3> block;      // set: `run --block` of this shape (tile then unused)
    int z_chunk = 0;                // set: `run --z-chunk` (0: the row's)
    int fuse = 0;                   // set: `run --fuse K --steps K` (0: the row's K)
    std::string label() const;      // "T=8", "block 32x4x2", "T=8 z-chunk 32", "T=64 z-chunk 32 K=2"
    bool operator==(const TuneConfig&) const = default;
};

struct TuneTrial {
    int tile = 0;
    std::optional<Dim3> block;       // as TuneConfig
    int z_chunk = 0;                 // as TuneConfig
    int fuse = 0;                    // as TuneConfig
    int steps = 1;                   // the steps the timed launch applies (K for temporal)
    std::string label() const;
    std::string skipped;             // why it cannot run (then nothing below is set)
    bool ok = false;                 // the check against the reference passed
    std::string check;               // the check's line
    bool timed = false;
    double ms_min = 0, ms_median = 0, ms_max = 0;  // of one launch, its `steps` steps
    double gbps = 0, copy_ratio = 0;  // a launch of K steps counts K updates: the copy-equivalent rate
    double requested_bytes_per_output = 0;  // the model's exact whole-grid count, per step
    double sectors_per_request = 0;         // the model's warp pattern over the grid
    bool from_cache = false;
    nlohmann::json to_json() const;
    static TuneTrial from_json(const nlohmann::json& j);
};

struct TuneResult {
    std::string backend, device;
    KernelId kernel = KernelId::tiled;
    int radius = 1;
    Precision precision = Precision::f32;
    int size = 0;
    bool timed = false;              // ranked by time (GPU) or by the model's traffic (CPU)
    std::string ranking;             // the rule, in words
    std::vector<TuneTrial> tried;
    std::optional<size_t> best;      // index into tried; none when nothing passed
    nlohmann::json to_json() const;  // {"best": {...} | null, "tried": [...], ...}
};

// The tiles tune tries for `kernel`: the built tiles the kernel's rules allow at (r, precision).
std::vector<int> tune_tiles(KernelId kernel, int radius, Precision p, const DeviceLimits& lim = {});
// The first stage of a search: the tiles, then, for a version that takes a block shape, the
// shapes of kTuneBlocks that block_error allows. No version exposes an unrolling factor (the
// kernels' loops over r are unrolled by the compiler). A version that fuses steps runs every
// stage at the row's K; the third stage varies K.
std::vector<TuneConfig> tune_configs(KernelId kernel, int radius, Precision p, const DeviceLimits& lim = {});
// The second stage, for a version with a z-chunk: the chunks of kTuneZChunks but the row's own (the
// tile's entry of the first stage ran it) at `tile`, the first stage's best (one axis at a time:
// tiles x chunks would be 5 times the runs). Empty for other versions or a tile that does not fit.
std::vector<TuneConfig> tune_chunk_configs(KernelId kernel, int tile, int radius, Precision p,
                                           const DeviceLimits& lim = {});
// The third stage, for a version that fuses steps (temporal): K = 1 .. max_fused_steps but the
// row's own, at the tile and chunk of the stages before (a K whose halos the tile cannot hold is
// a trial that says why it was skipped). Empty for the versions of one step a launch.
std::vector<TuneConfig> tune_fuse_configs(KernelId kernel, int tile, int z_chunk);
// Block shapes tried for such a version: the textbook's 32x4x2 and shapes around it (wider rows,
// more rows, more planes), each a multiple of a warp.
inline constexpr Dim3 kTuneBlocks[] = {{32, 4, 2}, {32, 8, 1}, {32, 4, 4}, {32, 8, 2}, {64, 4, 1},
                                       {64, 2, 2}, {64, 4, 2}, {128, 2, 1}, {128, 2, 2}, {16, 8, 2},
                                       {32, 2, 4}, {32, 16, 1}};
// Z-chunks tried for a version with one: short chunks make more blocks (occupancy, the tail), long
// ones re-read fewer of the 2r planes beside each chunk.
inline constexpr int kTuneZChunks[] = {8, 16, 32, 64, 128};

// DIR/tune.json (to_json), and the plot of the search: DIR/tune.dat, tune.gp and, where gnuplot
// runs, tune.png and tune.svg (time against T with min/max bars on a GPU; requested bytes per
// output against T on the CPU). Returns the files written and, when a figure was not drawn, why.
struct TuneOutputs {
    std::vector<std::string> files;
    std::string plot_note;
};
TuneOutputs write_tune_outputs(const TuneResult& result, const std::string& dir);

// Throws UserError for bad options (a grid the rules refuse, no tile to try, a cache file that
// cannot be read as a tune cache) before running anything.
TuneResult run_tune(Backend& backend, const TuneOptions& options);

}  // namespace stencil::experiments
