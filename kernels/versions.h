// The one table of kernel versions. CLI, tests, model, checker, viewer and both backends read it;
// adding a version is one kernel file, one row here and one launcher per backend. Everything else
// about a version (threads per block, OUT_TILE_DIM, shared memory, valid tiles, launch geometry,
// the tile rules in words) follows from its row by the functions below.
#pragma once
#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/stencil_shape.h"

namespace stencil {

enum class KernelId { naive, tiled, coarsened, register_tiled, streaming, conv27, temporal };
enum class Precision { f32, f64 };

constexpr int bytes_of(Precision p) { return p == Precision::f32 ? 4 : 8; }
std::string_view to_string(Precision p);
std::optional<Precision> parse_precision(std::string_view s);  // "f32" | "f64"

struct Dim3 {
    int x = 1, y = 1, z = 1;
    long long count() const { return (long long)x * y * z; }
    bool operator==(const Dim3&) const = default;
};

// Grid sizes in cells; x varies fastest in memory, then y, then z.
struct GridDims {
    int nx = 0, ny = 0, nz = 0;
    long long cells() const { return (long long)nx * ny * nz; }
    bool operator==(const GridDims&) const = default;
};

// How a version is launched for a given tile T and radius r.
struct LaunchGeometry {
    Dim3 grid;                 // blocks per axis
    Dim3 block;                // threads per block
    int out_tile = 0;          // OUT_TILE_DIM (output cells per block along y, and x but below)
    int out_width = 0;         // output cells per block along x (out_tile but for warp_rows)
    int out_planes = 0;        // output planes per block along z
    long long smem_bytes = 0;  // static shared memory per block
};

// Hardware limits the tile checks use. Defaults are every CUDA GPU since Volta; a backend that
// knows its device fills in the device's own figures.
struct DeviceLimits {
    int max_threads_per_block = 1024;
    long long max_static_smem_per_block = 48 * 1024;  // static __shared__ arrays stop at 48 KiB
    int max_grid_yz = 65535;
};

// How a version's block is shaped and what its T means. These few facts decide the launch
// geometry, the tile rules, the traffic model's case and the stepper's pictures; they are written
// here, in the table, and nowhere else (tests/kernels/test_versions.cpp greps the tree for copies).
enum class ThreadShape {
    cube,       // T x T x T threads: one output (or one input cell) per thread
    plane,      // T x T x 1 threads marching along z: OUT_TILE_DIM output planes per block
    warp_rows,  // 32 x T x 1 threads marching along z, a warp per row, each thread one 16-byte
                // vector of its row (kRowVectorBytes / sizeof(real) cells): 32 V x T outputs
    warp_strips,  // 32 x T / 8 x 1 threads marching along z over a tile 32 cells wide (a warp per
                  // row) and T rows tall, each thread a strip of kTemporalStripRows = 8 rows of its
                  // column; T counts the halo along both axes (32 - 2r x T - 2r outputs)
};
// The bytes a warp_rows thread owns of its row: one 16-byte load or store (4 floats, 2 doubles).
inline constexpr int kRowVectorBytes = 16;
enum class SharedTile {
    none,            // no shared memory
    whole_tile,      // the T^3 input tile
    stencil_planes,  // the 2r + 1 planes a z-march needs: (2r + 1) T^2
    one_plane,       // only the current plane: T^2 (z-neighbours in registers)
    halo_plane,      // the current plane with its halo ring: (T + 2r)^2 (T counts outputs)
    strip_edges,     // per fused time level, each strip's r first and r last rows of the plane:
                     // K x T / 8 strips x 2r rows x 32 (temporal blocking)
    row_tile,        // the block's rows with r halo rows on each side, 32 vectors each, double-
                     // buffered: 2 (T + 2r) x 32 x 16 bytes, whatever the precision
};
// The weights a version reads: the star's 6r + 1 (coefficient<real>(n) of
// kernels/stencil_coefficients.cuh), or the dense (2r+1)^3 cube of a convolution, zero off the
// axes, in a constant array of the kernel's own that the backends fill from the same 6r + 1.
enum class WeightLayout { star, dense_cube };
// The problems the lab teaches: the chapter's 3D star stencil (this table), text 002's 2D cardiac
// simulation and text 004's derivative pencils (tables of their own, kernels/cardiac2d/ and
// kernels/derivative/: their kernels have other shapes). kernels/catalog.h lists all of them.
enum class Problem { star3d, cardiac2d, derivative };
inline constexpr Problem kProblems[] = {Problem::star3d, Problem::cardiac2d, Problem::derivative};
std::string_view to_string(Problem p);
std::optional<Problem> parse_problem(std::string_view s);
std::string problem_names();  // "star3d, cardiac2d, derivative"

// One row of the star3d table (the chapter's kernels).
struct KernelVersion {
    Problem problem;
    KernelId id;
    const char* name;           // CLI spelling: naive, tiled, coarsened, register-tiled
    const char* title;          // for people: "Shared-memory tiled"
    const char* idea;           // the idea in one line
    const char* source_file;    // path below the repository root, shown by the viewer
    const char* textbook_file;  // the listing as printed (bench/textbook/), shown beside it
    ThreadShape threads;
    bool halo_in_tile;          // T counts the 2r halo: OUT_TILE_DIM = T - 2r outputs per block
                                // edge (else T outputs: the block is only a block of outputs)
    SharedTile shared;
    bool tile_is_template;      // T is a compile-time IN_TILE_DIM (else it is only the block edge)
    int default_tile;           // the exercises' and the reports' T
    int small_tile;             // a small T that still shows the idea (tests, the stepper)
    std::array<int, 8> sweep;   // tiles a sweep tries by default (0: unused slot); those that
                                // cannot run for (r, precision) are dropped
    int z_chunk = 0;            // planes a z-marching block covers; 0: OUT_TILE_DIM (the
                                // textbook's kernels). The kernel reads it back from gridDim.z.
    WeightLayout weights = WeightLayout::star;  // what it multiplies: see WeightLayout
    bool takes_block = false;   // its kernel reads blockDim and nothing else of T, so any block
                                // shape runs it: `run --block BXxBYxBZ` (the textbook's 32x4x2)
    // Time steps one pass applies (temporal blocking: K, a template parameter of the kernel). A
    // launch of `run --steps S` fuses min(K, steps left); K = `--fuse` (1..max_fused_steps), else
    // fused_steps. The rows of one step per launch have 1 and 1. Each fused step widens the halo
    // by r: OUT_TILE_DIM = T - 2rK (out_tile).
    int fused_steps = 1;
    int max_fused_steps = 1;
};

inline constexpr std::array<KernelVersion, 7> kVersionTable{{
    {Problem::star3d, KernelId::naive, "naive", "Naive",
     "one thread per output; all 6r+1 neighbours straight from global memory",
     "kernels/naive.cuh", "bench/textbook/naive.cuh", ThreadShape::cube, false, SharedTile::none,
     false, 8, 4, {8}, 0, WeightLayout::star, true},
    {Problem::star3d, KernelId::tiled, "tiled", "Shared-memory tiled",
     "a block loads a T^3 input tile into shared memory; (T-2r)^3 inner threads compute",
     "kernels/tiled.cuh", "bench/textbook/tiled.cuh", ThreadShape::cube, true,
     SharedTile::whole_tile, true, 8, 6, {3, 4, 5, 6, 7, 8, 9, 10}},
    {Problem::star3d, KernelId::coarsened, "coarsened", "Thread-coarsened",
     "a T^2 block marches along z, keeping 2r+1 planes in shared memory",
     "kernels/coarsened.cuh", "bench/textbook/coarsened.cuh", ThreadShape::plane, true,
     SharedTile::stencil_planes, true, 32, 8, {8, 16, 32}},
    {Problem::star3d, KernelId::register_tiled, "register-tiled", "Register-tiled",
     "as coarsened, but only the current plane is shared; z-neighbours stay in registers",
     "kernels/register_tiled.cuh", "bench/textbook/register_tiled.cuh", ThreadShape::plane, true,
     SharedTile::one_plane, true, 32, 8, {8, 16, 32}},
    // T = 8 rows by default: 32 x 8 = 256 threads, so an SM holds eight blocks, each owning a
    // 128 x 8 (fp32) or 64 x 8 (fp64) patch of outputs. A z-chunk of 16 planes makes 8192 blocks at
    // 512^3 (fp32): the best of the shapes and chunks bench/zmarch/ measured on an H100.
    {Problem::star3d, KernelId::streaming, "streaming", "Streaming (2.5D)",
     "a warp per row marches a short z-chunk, a 16-byte vector per thread: z-values in registers, "
     "x from the neighbouring lanes, y from a shared tile of rows",
     // No printed listing: shown beside the one it departs from (register tiling).
     "kernels/streaming.cuh", "bench/textbook/register_tiled.cuh", ThreadShape::warp_rows, false, SharedTile::row_tile,
     true, 8, 4, {4, 8, 16}, 16},
    // Text 000's "stencils as convolutions": naive's shape and bytes, every offset of the cube
    // multiplied (the off-axis weights are zero), so only the arithmetic differs from naive.
    {Problem::star3d, KernelId::conv27, "conv27", "Dense 3x3x3 convolution",
     "the 7-point stencil computed as a 27-point convolution with zeros: same bytes, 27 vs 7 "
     "multiply-adds",
     // No printed listing: shown beside the one it computes the same values as (naive).
     "kernels/conv27.cuh", "bench/textbook/naive.cuh", ThreadShape::cube, false, SharedTile::none,
     false, 8, 4, {8}, 0, WeightLayout::dense_cube},
    // Issue 13's temporal blocking: a 32 x 64 tile, K = 3 and a z-chunk of 64 planes by default,
    // the best of bench/temporal/ on an H100 (1.75x the copy's updates per second at 7-point fp32,
    // docs/results/h100-temporal-variants-512-b.txt). Every radius runs at T = 64 with K = 3:
    // r = 4 leaves 32 - 24 = 8 outputs across the warp (K = 4 needs 2rK < 32: r <= 3).
    {Problem::star3d, KernelId::temporal, "temporal", "Temporal blocking (2.5D)",
     "K time steps per pass: a warp-wide tile of T rows marches z, each thread a strip of 8 rows "
     "with a register queue per level, x-neighbours by shuffles, the strips' edge rows shared, the "
     "halo r wider per level; one read + one write of the grid per K updates",
     // No printed listing: shown beside the one its levels each resemble (register tiling).
     "kernels/temporal.cuh", "bench/textbook/register_tiled.cuh", ThreadShape::warp_strips, true,
     SharedTile::strip_edges, true, 64, 16, {16, 32, 64}, 64, WeightLayout::star, false, 3, 4},
}};

std::span<const KernelVersion> kernel_versions();
constexpr const KernelVersion& version(KernelId id) { return kVersionTable[static_cast<int>(id)]; }
const KernelVersion* find_version(std::string_view name);
std::string version_names();  // "naive, tiled, coarsened, register-tiled"

// ---- facts that follow from a row --------------------------------------------------------------

// The tile sizes the backends instantiate for the templated kernels. Every valid T from 3 to 10
// (all the tiled kernel can have), then a spread up to 32 for the z-marching kernels, and 64 (only
// temporal's strips fit a block at 64): compile time grows with every instantiation, on two backends.
inline constexpr int kBuiltTiles[] = {3, 4, 5, 6, 7, 8, 9, 10, 12, 16, 20, 24, 28, 32, 64};

constexpr bool marches_in_z(KernelId k) { return version(k).threads != ThreadShape::cube; }

// Points each output multiplies, and the FLOPs that costs: the star's 6r + 1 (12r + 1 FLOPs), or
// the dense cube's (2r+1)^3 (2 (2r+1)^3 - 1). The useful work is always the star's.
constexpr int executed_points(KernelId k, int radius) {
    return version(k).weights == WeightLayout::dense_cube ? dense_point_count(radius) : point_count(radius);
}
constexpr int executed_flops_per_point(KernelId k, int radius) { return 2 * executed_points(k, radius) - 1; }

// Time steps a launch of version k applies when asked to fuse `fused` (1 for the rows of one step).
constexpr int steps_per_launch(KernelId k, int fused) {
    return version(k).max_fused_steps > 1 && fused > 1 ? fused : 1;
}

// Output cells per block edge: OUT_TILE_DIM = T - 2r when the tile holds its halo (T - 2rK for a
// launch that fuses K steps), else T. A warp_rows or warp_strips block has out_tile rows of
// out_width cells (below).
constexpr int out_tile(KernelId k, int T, int radius, int fused = 1) {
    return version(k).halo_in_tile ? T - 2 * radius * steps_per_launch(k, fused) : T;
}

// Cells a thread owns along x: a warp_rows thread's vector, else 1.
constexpr int cells_per_thread(KernelId k, int bytes) {
    return version(k).threads == ThreadShape::warp_rows ? kRowVectorBytes / bytes : 1;
}

// Output cells per block along x: 32 V for a warp_rows block, 32 - 2rK for a warp_strips tile (a
// warp wide, its halo inside), else out_tile.
constexpr int out_width(KernelId k, int T, int radius, int bytes, int fused = 1) {
    switch (version(k).threads) {
        case ThreadShape::warp_rows: return 32 * cells_per_thread(k, bytes);
        case ThreadShape::warp_strips: return 32 - 2 * radius * steps_per_launch(k, fused);
        default: return out_tile(k, T, radius, fused);
    }
}

// Threads a block has along x and y (z: 1 unless cube).
constexpr int block_side_x(KernelId k, int T) {
    const ThreadShape s = version(k).threads;
    return s == ThreadShape::warp_rows || s == ThreadShape::warp_strips ? 32 : T;
}
constexpr int block_side_y(KernelId k, int T) {
    return version(k).threads == ThreadShape::warp_strips ? T / kTemporalStripRows : T;
}
// The rows of its column one thread owns: a warp_strips thread's strip, else 1.
constexpr int rows_per_thread(KernelId k) {
    return version(k).threads == ThreadShape::warp_strips ? kTemporalStripRows : 1;
}

constexpr long long threads_per_block(KernelId k, int T) {
    switch (version(k).threads) {
        case ThreadShape::cube: return (long long)T * T * T;
        case ThreadShape::plane: return (long long)T * T;
        case ThreadShape::warp_rows: return 32LL * T;
        case ThreadShape::warp_strips: return 32LL * (T / kTemporalStripRows);
    }
    return 0;
}

// Values in shared memory per block (a launch fusing `fused` steps) of `bytes` each.
constexpr long long shared_cells(KernelId k, int T, int radius, int bytes, int fused = 1) {
    const long long plane = (long long)T * T;
    switch (version(k).shared) {
        case SharedTile::none: return 0;
        case SharedTile::whole_tile: return T * plane;
        case SharedTile::stencil_planes: return (2 * radius + 1) * plane;
        case SharedTile::one_plane: return plane;
        case SharedTile::halo_plane: return (long long)(T + 2 * radius) * (T + 2 * radius);
        case SharedTile::strip_edges:
            return (long long)steps_per_launch(k, fused) * (T / kTemporalStripRows) * 2 * radius * 32;
        case SharedTile::row_tile: return 2LL * (T + 2 * radius) * 32 * cells_per_thread(k, bytes);
    }
    return 0;
}

constexpr long long smem_bytes(KernelId k, int T, int radius, int bytes, int fused = 1) {
    return shared_cells(k, T, radius, bytes, fused) * bytes;
}

// Planes a z-marching block covers on a grid of nz planes launched as `blocks_z` blocks along z:
// ceil(nz / blocks_z) (the kernels with no z-chunk: OUT_TILE_DIM, and blocks_z follows from it).
constexpr int z_planes_per_block(int nz, int blocks_z) { return (nz + blocks_z - 1) / blocks_z; }

// The same rules as words, for explanations: "T^3" / "T^2" threads; "T^3", "(2r+1) T^2" = "3 T^2"...
std::string threads_formula(KernelId k);
std::string smem_formula(KernelId k, int radius);  // "" when the version uses no shared memory

// True when (k, T, r, precision) obeys every hardware rule (with the default limits), for a launch
// of one step. A launch fusing K steps needs more: fuse_error.
constexpr bool tile_fits(KernelId k, int T, int radius, int bytes, DeviceLimits lim = {}) {
    if (T < 1 || radius < 1 || radius > kMaxRadius) return false;
    if (version(k).halo_in_tile && T <= 2 * radius) return false;
    if (version(k).threads == ThreadShape::warp_rows && T < radius) return false;  // halo rows
    if (version(k).threads == ThreadShape::warp_strips && T % kTemporalStripRows != 0) return false;
    if (threads_per_block(k, T) > lim.max_threads_per_block) return false;
    return smem_bytes(k, T, radius, bytes) <= lim.max_static_smem_per_block;
}

constexpr bool tile_is_built(KernelId k, int T) {
    if (!version(k).tile_is_template) return true;
    for (int t : kBuiltTiles)
        if (t == T) return true;
    return false;
}

// Why (k, T, r, precision) cannot run, in one sentence; nullopt when it can.
std::optional<std::string> tile_error(KernelId k, int T, int radius, Precision p,
                                      DeviceLimits lim = {});
// True when version k with tile T can fuse `fused` steps per launch at radius r: fusing is
// temporal's alone (1..max_fused_steps), and the tile must exceed the K halos, T > 2rK (and the
// warp's 32 cells too, for warp_strips). Shared memory never limits it: the edge rows stop at
// 2rK <= 24 rows x T / 8 strips x 32 values, 48 KiB at T = 64 in fp64 (the largest built tile).
constexpr bool fuse_fits(KernelId k, int T, int radius, int fused) {
    const auto& v = version(k);
    if (v.max_fused_steps <= 1) return fused == 1;
    if (fused < 1 || fused > v.max_fused_steps) return false;
    return out_tile(k, T, radius, fused) >= 1 && out_width(k, T, radius, 4, fused) >= 1;
}
// Why fuse_fits is false, in one sentence; nullopt when it is true.
std::optional<std::string> fuse_error(KernelId k, int T, int radius, int fused);

// The T that can run for (k, r, precision): valid and built.
std::vector<int> runnable_tiles(KernelId k, int radius, Precision p, DeviceLimits lim = {});
// The row's sweep tiles that can run for (r, precision): what `sweep` and the viewer try.
std::vector<int> sweep_tiles(KernelId k, int radius, Precision p, DeviceLimits lim = {});

// `block`: a shape of the user's instead of the row's T^3 (only a row that takes_block; see
// block_error). One block per block-sized box of outputs; out_tile is then block.x and
// out_planes block.z.
// `fused`: the time steps this launch applies (temporal's K; see out_tile).
// `z_chunk`: planes a block marches, for a row with a z-chunk (0: the row's; z_chunk_error).
LaunchGeometry launch_geometry(KernelId k, int T, int radius, Precision p, GridDims g,
                               std::optional<Dim3> block = std::nullopt, int fused = 1, int z_chunk = 0);

// Why version k cannot march z-chunks of `z_chunk` planes, in one sentence; nullopt when it can:
// only the rows with a z-chunk take one (the kernel reads it back from gridDim.z), 1..4096 planes.
std::optional<std::string> z_chunk_error(KernelId k, int z_chunk);

// "32x4x2" -> {32, 4, 2}; nullopt unless three positive integers joined by 'x'.
std::optional<Dim3> parse_block(std::string_view s);
// Why version k cannot run on blocks of this shape, in one sentence; nullopt when it can: the row
// must take a block, every side at least 1, x and y at most 1024 and z at most 64 (CUDA's block
// dimensions), and no more threads than a block may have.
std::optional<std::string> block_error(KernelId k, Dim3 block, DeviceLimits lim = {});

// Why a grid cannot be used with radius r (every side must be at least 2r + 1); nullopt if fine.
std::optional<std::string> grid_error(GridDims g, int radius);

}  // namespace stencil
