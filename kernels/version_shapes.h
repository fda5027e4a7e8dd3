// The star3d versions' names and shapes: the part of a version's row the compilers need. A
// version's shape (how its block is laid out, what its T counts, what it keeps in shared memory,
// which template parameters its kernel takes) decides the launch geometry, the tile rules, the
// instantiations each backend builds, the traffic model's case and the stepper's pictures. Its
// run-time row (names, words, default tiles, colour) sits in kernels/version_rows.cpp, behind
// functions, so that editing it recompiles one file; this header changes only when a version is
// added or reshaped.
#pragma once
#include <array>

#include "kernels/stencil_shape.h"

namespace stencil {

enum class KernelId { naive, tiled, coarsened, register_tiled, streaming, conv27, temporal };

// Hardware limits the tile checks use. Defaults are every CUDA GPU since Volta; a backend that
// knows its device fills in the device's own figures.
struct DeviceLimits {
    int max_threads_per_block = 1024;
    long long max_static_smem_per_block = 48 * 1024;  // static __shared__ arrays stop at 48 KiB
    // Dynamic shared memory a block may opt into (cudaFuncAttributeMaxDynamicSharedMemorySize):
    // 96 KiB on Volta, more since (227 KiB on Hopper).
    long long max_dynamic_smem_per_block = 96 * 1024;
    int max_grid_yz = 65535;
};

enum class ThreadShape {
    cube,       // T x T x T threads: one output (or one input cell) per thread
    plane,      // T x T x 1 threads marching along z: OUT_TILE_DIM output planes per block
    warp_rows,  // 32 x T x 1 threads marching along z, a warp per row, each thread one 16-byte
                // vector of its row (kRowVectorBytes / sizeof(real) cells): 32 V x T outputs
    warp_strips,  // 32 x T / 4 x 1 threads marching along z over a tile 32 V cells wide (a warp per
                  // row, V = temporal_lane_cells: 2 floats or 1 double a lane) and T rows tall, each
                  // thread a strip of kTemporalStripRows = 4 rows of its V columns; T counts the
                  // halo along both axes (32 V - 2r x T - 2r outputs)
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
                     // K x T / 4 strips x 2r rows x 32 V (temporal blocking): 256 B a row
    row_tile,        // the block's rows with r halo rows on each side, 32 vectors each, double-
                     // buffered: 2 (T + 2r) x 32 x 16 bytes, whatever the precision
};
// The weights a version reads: the star's 6r + 1 (coefficient<real>(n) of
// kernels/stencil_coefficients.cuh), or the dense (2r+1)^3 cube of a convolution, zero off the
// axes, in a constant array of the kernel's own that the backends fill from the same 6r + 1.
enum class WeightLayout { star, dense_cube };

// How a version is shaped. The kernel's template parameters follow from it:
// <real, R> when T is not a template parameter, <real, IN_TILE_DIM, R> when it is, and
// <real, IN_TILE_DIM, R, K> when it fuses K time steps a launch.
struct VersionShape {
    KernelId id;
    const char* kernel;         // the __global__ function template in its source file
    const char* source_file;    // path below the repository root (NVRTC compiles it, nvcc too)
    ThreadShape threads;
    bool halo_in_tile;          // T counts the 2r halo: OUT_TILE_DIM = T - 2r outputs per block
                                // edge (else T outputs: the block is only a block of outputs)
    SharedTile shared;
    bool tile_is_template;      // T is a compile-time IN_TILE_DIM (else it is only the block edge)
    WeightLayout weights = WeightLayout::star;  // what it multiplies: see WeightLayout
    // Time steps one launch may apply (temporal blocking: K, a template parameter of the kernel);
    // each fused step widens the halo by r: OUT_TILE_DIM = T - 2rK. The rows of one step: 1.
    int max_fused_steps = 1;
};

inline constexpr std::array<VersionShape, 7> kVersionShapes{{
    {KernelId::naive, "stencil_naive_kernel", "kernels/naive.cuh", ThreadShape::cube, false, SharedTile::none,
     false},
    {KernelId::tiled, "stencil_tiled_kernel", "kernels/tiled.cuh", ThreadShape::cube, true,
     SharedTile::whole_tile, true},
    {KernelId::coarsened, "stencil_coarsened_kernel", "kernels/coarsened.cuh", ThreadShape::plane, true,
     SharedTile::stencil_planes, true},
    {KernelId::register_tiled, "stencil_register_tiled_kernel", "kernels/register_tiled.cuh",
     ThreadShape::plane, true, SharedTile::one_plane, true},
    {KernelId::streaming, "stencil_streaming_kernel", "kernels/streaming.cuh", ThreadShape::warp_rows, false,
     SharedTile::row_tile, true},
    {KernelId::conv27, "stencil_conv27_kernel", "kernels/conv27.cuh", ThreadShape::cube, false,
     SharedTile::none, false, WeightLayout::dense_cube},
    {KernelId::temporal, "stencil_temporal_kernel", "kernels/temporal.cuh", ThreadShape::warp_strips, true,
     SharedTile::strip_edges, true, WeightLayout::star, 4},
}};

constexpr const VersionShape& shape_of(KernelId k) { return kVersionShapes[static_cast<int>(k)]; }

constexpr bool shapes_follow_their_ids() {
    for (int i = 0; i < (int)kVersionShapes.size(); ++i)
        if (static_cast<int>(kVersionShapes[i].id) != i) return false;
    return true;
}
static_assert(shapes_follow_their_ids(), "kVersionShapes lists the versions in KernelId's order");

}  // namespace stencil
