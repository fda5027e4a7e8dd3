// ---------------------------------------------------------------------------------------------
// Naive 3D star stencil: one thread per output cell, every neighbour loaded from global memory.
//
// This is the textbook's first listing (stencil chapter, "Parallel stencil: a basic algorithm"),
// widened from the 7-point stencil (r = 1) to radius r and from an N^3 cube to nx x ny x nz.
// Each output does 6r + 1 multiplies and 6r adds (13 FLOP for r = 1) and loads 6r + 1 values of
// 4 B (fp32): OP/B = 13 / 28 = 0.46 for r = 1. The caches make the real DRAM traffic far smaller:
// that gap is what `stencil-lab sweep` measures.
//
// Launch: blocks of (T, T, T) threads (the exercises' contract), ceil(n / T) blocks per axis.
// Boundary: cells within r of a face are never written; they keep the input's values.
// ---------------------------------------------------------------------------------------------
#pragma once
#include "kernels/stencil_coefficients.cuh"

namespace stencil {

template <typename real, int R>
__global__ void stencil_naive_kernel(const real* in, real* out, int nx, int ny, int nz) {
    // The textbook's names: i walks z (slowest), j walks y, k walks x (fastest, contiguous).
    const int i = blockIdx.z * blockDim.z + threadIdx.z;
    const int j = blockIdx.y * blockDim.y + threadIdx.y;
    const int k = blockIdx.x * blockDim.x + threadIdx.x;

    // Only interior cells are updated: the r cells next to each face are fixed boundary values.
    if (i >= R && i < nz - R && j >= R && j < ny - R && k >= R && k < nx - R) {
        // 32-bit offsets, as in the textbook: grid_error() caps grids at 2^31 - 1 cells, and
        // 64-bit address arithmetic was slower than the printed listings (docs/results/).
        const int sy = nx, sz = nx * ny;
        const int c = i * sz + j * sy + k;

        // Accumulated one term at a time in the textbook's order (c0 centre, c1 x-1, c2 x+1,
        // c3 y-1, c4 y+1, c5 z-1, c6 z+1, then the same six at distance 2, ...), so that for
        // r = 1 the rounding is the listing's rounding.
        real sum = coefficient<real>(0) * in[c];
#pragma unroll
        for (int d = 1; d <= R; ++d) {
            sum += coefficient<real>(coefficient_index(d, XM)) * in[c - d];
            sum += coefficient<real>(coefficient_index(d, XP)) * in[c + d];
            sum += coefficient<real>(coefficient_index(d, YM)) * in[c - d * sy];
            sum += coefficient<real>(coefficient_index(d, YP)) * in[c + d * sy];
            sum += coefficient<real>(coefficient_index(d, ZM)) * in[c - d * sz];
            sum += coefficient<real>(coefficient_index(d, ZP)) * in[c + d * sz];
        }
        out[c] = sum;
    }
}

}  // namespace stencil
