// `stencil-lab baseline`: the project rule "no kernel may be slower than the textbook listing at
// the same configuration", measured. For each row of the seed table (../shared/seed-figures.md:
// naive 8x8x8 and 32x4x2, tiled T = 4/6/8/10, coarsened 16/32, register-tiled 16/32), on one N^3
// fp32 grid with one input and one set of weights:
//
//   1. check both kernels, the textbook's listing (bench/textbook/) and the lab's (kernels/*.cuh),
//      against the fp64 reference, each launched on a poisoned output (NaN inside, the input on
//      the boundary), so a listing that writes the boundary or skips a cell fails;
//   2. time them interleaved, launch by launch: warm-up, then per rep textbook, lab, each after
//      an L2 flush (a memset of 2x the L2, untimed), each between its own pair of CUDA events;
//   3. report per configuration min / median / max ms, effective GB/s (2 x N^3 x 4 B / median),
//      each one's ratio to the device-to-device copy bandwidth measured in the same run, and
//      lab/textbook = median textbook time / median lab time (> 1: the lab is faster), with the
//      spread of the per-rep paired ratios.
//
// Plain C++ over the CUDA runtime API; the textbook's kernels are launched by bench/textbook/, the
// lab's through backends/cuda/lab_kernel.h (the CUDA backend's own instantiations).
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/compare.h"
#include "core/stats.h"
#include "kernels/versions.h"

namespace stencil::experiments {

// The rule, with no tolerance: a lab kernel is "at least as fast" when its median time is at most
// the textbook's (ratio >= 1). Below that, the rounds decide: the two kernels run interleaved, one
// pair per round, so a lab kernel that is faster in at least one round is only "within noise", and
// one that loses every round is "slower".

// One row of the textbook's table.
struct BaselineConfig {
    const char* label;   // "naive 8x8x8", "tiled T=4", ...
    KernelId kernel;
    int tile;            // IN_TILE_DIM of both; naive: the lab's T (its block is T^3)
    Dim3 naive_block;    // naive: the textbook's block (the listing takes any)
    bool has_lab;        // false: the lab has no such configuration
};
std::span<const BaselineConfig> baseline_configs();
// The launch of the lab's side of a row on an n^3 grid (naive: on the textbook's block).
LaunchGeometry lab_launch_geometry(const BaselineConfig& c, int n);

enum class Side { textbook, lab };

struct SideResult {
    bool ran = false;         // false: no such kernel on this side (no lab counterpart)
    CompareResult check;
    Dim3 grid, block;         // the launch
    int registers = -1;       // per thread, from cudaFuncGetAttributes
    std::vector<double> samples_ms;
    Stats ms;                 // min / median / max per launch
    double gbps = 0;          // effective: minimum_bytes / median time
    double copy_ratio = 0;    // gbps / copy GB/s of the same run
};

struct BaselineRow {
    BaselineConfig config;
    SideResult textbook, lab;
    bool timed = false;              // both checks passed (and timing was asked for)
    double lab_over_textbook = 0;    // median textbook ms / median lab ms (> 1: lab faster)
    Stats paired;                    // textbook_ms[i] / lab_ms[i] over the reps

    bool checks_ok() const { return textbook.check.ok && (!lab.ran || lab.check.ok); }
    bool compared() const { return timed && lab.ran; }
    bool at_least_as_fast() const { return compared() && lab_over_textbook >= 1.0; }
    bool within_noise() const { return compared() && lab_over_textbook < 1.0 && paired.max >= 1.0; }
    bool slower() const { return compared() && lab_over_textbook < 1.0 && paired.max < 1.0; }
};

struct BaselineOptions {
    int size = 512;          // N: the grid is N^3
    int reps = 20;           // timed launches of each kernel (and copies)
    int warmup = 3;          // untimed launches of each kernel first
    std::uint64_t seed = 1;  // input and weights
    bool time = true;        // false: the checks only
    // Called before each configuration and once at the end (done == total).
    std::function<void(int done, int total, const std::string& what)> progress;
};

struct BaselineReport {
    std::string device;
    int cc_major = 0, cc_minor = 0;
    BaselineOptions options;
    double bytes = 0;        // per launch, counted: 2 x N^3 x 4 B
    Stats copy_gbps;         // device-to-device cudaMemcpy of one array, read + write
    std::vector<BaselineRow> rows;

    bool all_checks_ok() const;
    int compared() const;                  // rows with both sides timed
    int at_least_as_fast() const;          // of those, lab median time <= textbook's
    std::vector<std::string> within_noise() const;  // "tiled T=4 (0.999)": slower median, won a round
    std::vector<std::string> slower() const;        // "tiled T=4 (0.93)": lost every round
    std::string verdict_line() const;      // the final line
    std::string text() const;              // the table for people
    nlohmann::json to_json() const;
};

// Why these options cannot run, in one sentence (checked before the GPU is looked at).
std::optional<std::string> options_error(const BaselineOptions& o);

// Throws UserError: "no GPU: <why>" where there is none, or the sentence of options_error, or a
// CUDA failure. Failed checks are not exceptions: see rows[i].textbook.check / lab.check.
BaselineReport run_baseline(const BaselineOptions& o);

// One kernel of one configuration on a random N^3 grid (seed), launched on a poisoned output and
// compared with the fp64 reference: what the GPU test asserts for N = 64 and 67.
CompareResult check_one(Side side, const BaselineConfig& config, int n, std::uint64_t seed);

}  // namespace stencil::experiments
