// The textbook's four 3D seven-point listings (seed 000) as printed, compiled for the GPU: the
// baseline that `stencil-lab baseline` holds the lab's kernels against. fp32, radius 1, an N^3
// cube, `unsigned int N`, c0..c6 in constant memory: the listings' own contract, not the lab's.
//
// The listings live in naive.cuh, tiled.cuh, coarsened.cuh and register_tiled.cuh beside this
// file; textbook.cu includes each once per IN_TILE_DIM inside its own namespace. Plain C++ here
// (no CUDA headers): the front ends and the tests call these without nvcc.
#pragma once
#include <span>

#include "core/weights.h"
#include "kernels/versions.h"

namespace stencil::textbook {

// The instantiated IN_TILE_DIM of each listing (the seed table's): tiled 4, 6, 8, 10; coarsened
// and register-tiled 16, 32. The naive listing has no tile: its block is chosen at launch.
std::span<const int> built_tiles(KernelId k);
bool is_built(KernelId k, int tile);

// How the textbook launches a listing on an N^3 grid: naive: `naive_block`, ceil(N / block) per
// axis; tiled: T^3 threads; coarsened / register-tiled: T x T x 1; the last three with
// ceil(N / OUT_TILE_DIM) blocks per axis, OUT_TILE_DIM = T - 2.
struct Launch {
    Dim3 grid, block;
};
Launch launch_shape(KernelId k, int tile, Dim3 naive_block, unsigned int n);

// Largest N the listings index correctly: they compute i*N*N + j*N + k in 32-bit unsigned
// arithmetic, so N^3 must stay below 2^32.
inline constexpr unsigned int kMaxN = 1625;

// Copies the weights (radius 1, rounded to fp32) into the listings' c0..c6. Synchronous; throws
// UserError on a CUDA error.
void upload_weights(const StencilWeights& weights);

// Launches listing (k, tile) on the default stream, asynchronously; `in` and `out` are device
// pointers to N^3 floats. Throws UserError when the launch itself fails (a bad configuration);
// what the kernel does shows up at the next synchronisation.
void launch(KernelId k, int tile, Dim3 naive_block, const float* in, float* out, unsigned int n);

// The kernel's handle (for cudaFuncGetAttributes); nullptr when (k, tile) is not built.
const void* function(KernelId k, int tile);

}  // namespace stencil::textbook
