// The table of text 004's derivative kernels (kernels/derivative/*.cuh): one row per kernel, and
// the facts that follow from a row (block, grid, shared memory, which grids it runs on). The CLI
// (`run --problem derivative`), both backends, the model's tile table
// (analysis/derivative_tiles.h), the tests and `stencil-lab versions` (kernels/catalog.cpp) read
// it; a shape is written here and in kernels/derivative/pencils.h, nowhere else.
//
// Every kernel is `template <typename real, int N> __global__ void FUNCTION(const real* f,
// real* df, int mx, int my, int mz)`: N is the grid's extent along the derivative's axis (it sizes
// the shared tile, as mx does in the post), built for the sizes of kDerivativeExtents.
#pragma once
#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/catalog.h"
#include "kernels/derivative/pencils.h"
#include "kernels/versions.h"

namespace stencil {

enum class Axis { x, y, z };
std::string_view to_string(Axis a);

enum class DerivativeKernelId { x_tile, x_small, x_large, y_small, y_large, z_small, z_large };

struct DerivativeVersion {
    DerivativeKernelId id;
    const char* name;         // the CLI's spelling: "x-spencils"
    const char* title;        // for people
    const char* idea;         // the idea in one line
    const char* source_file;  // below the repository root
    const char* function;     // the kernel's name (the post's, where it has one)
    Axis axis;                // the derivative's direction
    int tile_across;          // the shared tile's extent across the axis: its pencils (sPencils,
                              // lPencils), or the square tile's TILE_DIM
    int tile_along;           // its extent along the axis: 0 = the whole grid extent N (a pencil),
                              // else TILE_DIM (the square tile, which loads its halos)
    int threads_across;       // threads across the axis (x-lPencils: sPencils threads walk
                              // lPencils rows)
    int cells_per_thread;     // cells each thread covers along the axis (y/z lPencils:
                              // lPencils / sPencils, so the block keeps N x sPencils threads)
};

// In the post's order: the square tile it starts from, then its pencils.
inline constexpr std::array<DerivativeVersion, 7> kDerivativeTable{{
    {DerivativeKernelId::x_tile, "x-tile16x16", "x, 16x16 tile",
     "the post's starting point: a 16x16 tile whose 4-wide x halos come from global memory again "
     "(half the values loaded twice, two 64-byte pieces per warp)",
     "kernels/derivative/x_tile.cuh", "derivative_x_tile", Axis::x, TILE_DIM, TILE_DIM, TILE_DIM, 1},
    {DerivativeKernelId::x_small, "x-spencils", "x, small pencils",
     "sPencils = 4 whole x rows per block in shared memory, their halos copied from their own far "
     "ends: every value loaded once, warps read whole lines",
     "kernels/derivative/x_pencils.cuh", "derivative_x", Axis::x, sPencils, 0, sPencils, 1},
    {DerivativeKernelId::x_large, "x-lpencils", "x, large pencils",
     "lPencils = 32 x rows per block, the same N x sPencils threads each walking 8 rows",
     "kernels/derivative/x_pencils.cuh", "derivative_x_lPencils", Axis::x, lPencils, 0, sPencils, 1},
    {DerivativeKernelId::y_small, "y-spencils", "y, small pencils",
     "4 whole y columns side by side per block: a warp reads 4 consecutive x values per row "
     "(poorly coalesced)",
     "kernels/derivative/y_pencils.cuh", "derivative_y", Axis::y, sPencils, 0, sPencils, 1},
    {DerivativeKernelId::y_large, "y-lpencils", "y, large pencils",
     "32 y columns side by side: a warp reads 32 consecutive x values; each thread walks its "
     "column in steps of N/8",
     "kernels/derivative/y_pencils.cuh", "derivative_y_lPencils", Axis::y, lPencils, 0, lPencils,
     lPencils / sPencils},
    {DerivativeKernelId::z_small, "z-spencils", "z, small pencils",
     "4 whole z columns side by side per block (cells a plane apart): 4 consecutive x values per "
     "row of a warp",
     "kernels/derivative/z_pencils.cuh", "derivative_z", Axis::z, sPencils, 0, sPencils, 1},
    {DerivativeKernelId::z_large, "z-lpencils", "z, large pencils",
     "32 z columns side by side: a warp reads 32 consecutive x values; each thread walks its "
     "column in steps of N/8",
     "kernels/derivative/z_pencils.cuh", "derivative_z_lPencils", Axis::z, lPencils, 0, lPencils,
     lPencils / sPencils},
}};

constexpr bool derivative_rows_in_id_order() {
    for (std::size_t i = 0; i < kDerivativeTable.size(); ++i)
        if (static_cast<std::size_t>(kDerivativeTable[i].id) != i) return false;
    return true;
}
static_assert(derivative_rows_in_id_order(), "kDerivativeTable's rows must follow DerivativeKernelId");

std::span<const DerivativeVersion> derivative_versions();
constexpr const DerivativeVersion& derivative_version(DerivativeKernelId id) {
    return kDerivativeTable[static_cast<int>(id)];
}
const DerivativeVersion* find_derivative_version(std::string_view name);
std::string derivative_version_names();  // "x-spencils, x-lpencils, ..."

// The post's grid: 64^3.
inline constexpr int kPostExtent = 64;

// The extents N along the axis that the backends instantiate (the shared tile is sized by N).
// 16..128 in powers of two make the convergence series; 96, 192 and 256 are grids the GPU times.
inline constexpr int kDerivativeExtents[] = {16, 32, 64, 96, 128, 192, 256};

// ---- the 8th-order scheme -------------------------------------------------------------------

// The post's weights before division by the spacing: a = 4/5, b = -1/5, c = 4/105, d = -1/280
// (analysis/finite_difference.h solves for them; a test holds the two equal).
inline constexpr std::array<double, 4> kEighthOrderWeights{4.0 / 5.0, -1.0 / 5.0, 4.0 / 105.0, -1.0 / 280.0};

// The grid covers the unit periodic box [0, 1)^3: N points along an axis, spacing 1 / N.
constexpr double grid_spacing(int extent) { return 1.0 / extent; }

// The twelve constant-memory weights in the kernels' order (ax, bx, cx, dx, ay, ..., dz): each
// weight divided by its axis's spacing.
std::array<double, 12> derivative_coefficient_values(GridDims g);

// ---- facts that follow from a row -------------------------------------------------------------

inline int axis_extent(GridDims g, Axis a) { return a == Axis::x ? g.nx : a == Axis::y ? g.ny : g.nz; }

// The shared tile's extent along the axis: N for a pencil, TILE_DIM for the square tile.
constexpr int tile_along(DerivativeKernelId k, int n) {
    const auto& v = derivative_version(k);
    return v.tile_along ? v.tile_along : n;
}
// Values in one block's shared tile, halos included: tile_across x (along + 2 x 4).
constexpr long long derivative_shared_cells(DerivativeKernelId k, int n) {
    return (long long)derivative_version(k).tile_across * (tile_along(k, n) + 2 * kDerivativeHalo);
}
constexpr long long derivative_smem_bytes(DerivativeKernelId k, int n, Precision p) {
    return derivative_shared_cells(k, n) * bytes_of(p);
}
// Threads along the axis and per block (the y/z lPencils blocks keep N x sPencils threads).
constexpr int derivative_threads_along(DerivativeKernelId k, int n) {
    return tile_along(k, n) / derivative_version(k).cells_per_thread;
}
constexpr long long derivative_threads_per_block(DerivativeKernelId k, int n) {
    return (long long)derivative_threads_along(k, n) * derivative_version(k).threads_across;
}

// Whether the backends instantiate kernel k for extent n in precision p: a built extent whose block
// fits the default limits (1024 threads, 48 KiB of static shared memory).
constexpr bool derivative_instantiated(DerivativeKernelId k, int n, Precision p) {
    bool built = false;
    for (int e : kDerivativeExtents) built = built || e == n;
    const DeviceLimits lim{};
    return built && n % derivative_version(k).cells_per_thread == 0 &&
           derivative_threads_per_block(k, n) <= lim.max_threads_per_block &&
           derivative_smem_bytes(k, n, p) <= lim.max_static_smem_per_block;
}

// The launch: for x, threadIdx.x runs along the axis; for y and z it runs across it (along x,
// so that a warp reads consecutive x values).
struct DerivativeLaunch {
    Dim3 grid, block;
    long long smem_bytes = 0;
};
DerivativeLaunch derivative_launch(DerivativeKernelId k, GridDims g, Precision p);

// Why kernel k cannot run on grid g in precision p (an extent along the axis that is not built,
// a side the tile does not divide, a block over 1024 threads or 48 KiB of shared memory), in one
// sentence; nullopt when it can.
std::optional<std::string> derivative_grid_error(DerivativeKernelId k, GridDims g, Precision p,
                                                 DeviceLimits lim = {});
// The built extents N for which kernel k runs in precision p on an N^3 grid.
std::vector<int> derivative_cubic_sizes(DerivativeKernelId k, Precision p, DeviceLimits lim = {});

// The shared tile of outputs in words, x by the other axis, at extent n: "64x4", "16x16", "32x64".
std::string derivative_tile_name(DerivativeKernelId k, int n);
// The block in words at extent n: "64x4", "32x8".
std::string derivative_block_name(DerivativeKernelId k, int n);

// The rows as `stencil-lab versions` lists them (kernels/catalog.h): the block at the post's 64^3
// grid, and as tiles the shared tile of outputs on each N^3 grid that runs in precision p.
std::vector<CatalogEntry> derivative_catalog(Precision p);

}  // namespace stencil
