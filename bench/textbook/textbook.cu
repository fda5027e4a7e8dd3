// ---------------------------------------------------------------------------------------------
// The textbook's listings (seed 000), instantiated for the seed table's tile sizes.
//
// Each listing is a plain `__global__ void stencil_kernel(float *in, float *out, unsigned int N)`
// that reads IN_TILE_DIM / OUT_TILE_DIM as macros and c0..c6 as __constant__ floats. To get one
// kernel per IN_TILE_DIM without editing the listing text, the file is included several times,
// each time inside its own namespace and with the macros defined around the include (so the
// kernels are textbook::tiled_T4::stencil_kernel, ...). All of them share this TU's c0..c6.
//
// Compiled by nvcc with the same flags as the lab's kernels (bench/CMakeLists.txt).
// ---------------------------------------------------------------------------------------------
#include <cuda_runtime.h>

#include <array>
#include <string>

#include "backends/cuda/cuda_util.h"
#include "bench/textbook/textbook.h"
#include "core/error.h"

namespace stencil::textbook {

// The listings' weights: c0 centre, c1 x-1, c2 x+1, c3 y-1, c4 y+1, c5 z-1, c6 z+1 (the layout of
// kernels/stencil_shape.h for r = 1).
__constant__ float c0, c1, c2, c3, c4, c5, c6;

// ---- the listings ----------------------------------------------------------------------------
namespace naive {
#include "bench/textbook/naive.cuh"
}

#define OUT_TILE_DIM (IN_TILE_DIM - 2)

#define IN_TILE_DIM 4
namespace tiled_T4 {
#include "bench/textbook/tiled.cuh"
}
#undef IN_TILE_DIM
#define IN_TILE_DIM 6
namespace tiled_T6 {
#include "bench/textbook/tiled.cuh"
}
#undef IN_TILE_DIM
#define IN_TILE_DIM 8
namespace tiled_T8 {
#include "bench/textbook/tiled.cuh"
}
#undef IN_TILE_DIM
#define IN_TILE_DIM 10
namespace tiled_T10 {
#include "bench/textbook/tiled.cuh"
}
#undef IN_TILE_DIM

#define IN_TILE_DIM 16
namespace coarsened_T16 {
#include "bench/textbook/coarsened.cuh"
}
namespace register_tiled_T16 {
#include "bench/textbook/register_tiled.cuh"
}
#undef IN_TILE_DIM
#define IN_TILE_DIM 32
namespace coarsened_T32 {
#include "bench/textbook/coarsened.cuh"
}
namespace register_tiled_T32 {
#include "bench/textbook/register_tiled.cuh"
}
#undef IN_TILE_DIM

#undef OUT_TILE_DIM

// ---- the table -------------------------------------------------------------------------------
namespace {

using Kernel = void (*)(float*, float*, unsigned int);

constexpr int kTiledTiles[] = {4, 6, 8, 10};
constexpr int kPlaneTiles[] = {16, 32};

Kernel kernel_for(KernelId k, int tile) {
    switch (k) {
        case KernelId::naive: return naive::stencil_kernel;
        case KernelId::tiled:
            switch (tile) {
                case 4: return tiled_T4::stencil_kernel;
                case 6: return tiled_T6::stencil_kernel;
                case 8: return tiled_T8::stencil_kernel;
                case 10: return tiled_T10::stencil_kernel;
            }
            return nullptr;
        case KernelId::coarsened:
            if (tile == 16) return coarsened_T16::stencil_kernel;
            if (tile == 32) return coarsened_T32::stencil_kernel;
            return nullptr;
        case KernelId::register_tiled:
            if (tile == 16) return register_tiled_T16::stencil_kernel;
            if (tile == 32) return register_tiled_T32::stencil_kernel;
            return nullptr;
        default: return nullptr;  // a version the textbook does not print (streaming, ...)
    }
    return nullptr;
}

unsigned int ceil_div(unsigned int a, unsigned int b) { return (a + b - 1) / b; }

using cuda_detail::check;

}  // namespace

std::span<const int> built_tiles(KernelId k) {
    switch (k) {
        case KernelId::naive: return {};
        case KernelId::tiled: return kTiledTiles;
        case KernelId::coarsened:
        case KernelId::register_tiled: return kPlaneTiles;
        default: return {};  // a version the textbook does not print
    }
    return {};
}

bool is_built(KernelId k, int tile) { return kernel_for(k, tile) != nullptr; }

const void* function(KernelId k, int tile) { return reinterpret_cast<const void*>(kernel_for(k, tile)); }

Launch launch_shape(KernelId k, int tile, Dim3 naive_block, unsigned int n) {
    Launch l;
    if (k == KernelId::naive) {
        l.block = naive_block;
        l.grid = {(int)ceil_div(n, naive_block.x), (int)ceil_div(n, naive_block.y), (int)ceil_div(n, naive_block.z)};
        return l;
    }
    const unsigned int out = tile - 2;  // OUT_TILE_DIM
    l.block = k == KernelId::tiled ? Dim3{tile, tile, tile} : Dim3{tile, tile, 1};
    l.grid = {(int)ceil_div(n, out), (int)ceil_div(n, out), (int)ceil_div(n, out)};
    return l;
}

void upload_weights(const StencilWeights& weights) {
    if (weights.radius != 1) throw UserError("the textbook's listings are the 7-point stencil: radius 1 only");
    const StencilWeights w = weights.rounded_to(Precision::f32);
    const float c[7] = {(float)w.c[0], (float)w.c[1], (float)w.c[2], (float)w.c[3],
                        (float)w.c[4], (float)w.c[5], (float)w.c[6]};
    check(cudaMemcpyToSymbol(c0, &c[0], sizeof(float)), "cudaMemcpyToSymbol (textbook c0)");
    check(cudaMemcpyToSymbol(c1, &c[1], sizeof(float)), "cudaMemcpyToSymbol (textbook c1)");
    check(cudaMemcpyToSymbol(c2, &c[2], sizeof(float)), "cudaMemcpyToSymbol (textbook c2)");
    check(cudaMemcpyToSymbol(c3, &c[3], sizeof(float)), "cudaMemcpyToSymbol (textbook c3)");
    check(cudaMemcpyToSymbol(c4, &c[4], sizeof(float)), "cudaMemcpyToSymbol (textbook c4)");
    check(cudaMemcpyToSymbol(c5, &c[5], sizeof(float)), "cudaMemcpyToSymbol (textbook c5)");
    check(cudaMemcpyToSymbol(c6, &c[6], sizeof(float)), "cudaMemcpyToSymbol (textbook c6)");
}

void launch(KernelId k, int tile, Dim3 naive_block, const float* in, float* out, unsigned int n) {
    const Kernel f = kernel_for(k, tile);
    if (!f) throw UserError("the textbook listing " + std::string(version(k).name) + " is not built for IN_TILE_DIM " +
                            std::to_string(tile));
    const Launch l = launch_shape(k, tile, naive_block, n);
    // The listings take `float *in` (as printed); they never write through it.
    f<<<dim3(l.grid.x, l.grid.y, l.grid.z), dim3(l.block.x, l.block.y, l.block.z)>>>(const_cast<float*>(in), out, n);
    check(cudaGetLastError(), "the launch of the textbook's " + std::string(version(k).name) + " listing");
}

}  // namespace stencil::textbook
