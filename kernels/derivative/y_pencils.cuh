// ---------------------------------------------------------------------------------------------
// The y-derivative with pencils (text 004, part 2): 8th order, periodic in y.
//
// A pencil is a whole column of the grid along y; the block's shared tile holds `pencils` of them
// side by side in x, so a warp's global access is `pencils` consecutive x values per row:
//
//   derivative_y          sPencils = 4 columns, one thread per cell: blocks of (sPencils, N).
//                         A warp touches 8 rows of 4 values: 16- or 32-byte pieces, poorly
//                         coalesced.
//   derivative_y_lPencils lPencils = 32 columns: a warp reads 32 consecutive x values (whole
//                         lines). Same thread count as above, (lPencils, N sPencils / lPencils),
//                         so each thread walks the column in steps of blockDim.y.
//
// N is the grid's y extent (my in the post). The periodic images wrap with N (the post's code with
// my - 1: see x_pencils.cuh).
//
// Launch (kernels/derivative/versions.h): grid (mx / pencils, mz).
// ---------------------------------------------------------------------------------------------
#pragma once
#include "kernels/derivative/coefficients.cuh"
#include "kernels/derivative/pencils.h"

namespace stencil {

template <typename real, int N>
__global__ void derivative_y(const real* f, real* df, int mx, int my, int mz) {
    __shared__ real s_f[N + 8][sPencils];  // 4-wide halo

    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int j = threadIdx.y;
    const int k = blockIdx.y;
    const int si = threadIdx.x;
    const int sj = j + 4;

    const int globalIdx = k * mx * my + j * mx + i;

    s_f[sj][si] = f[globalIdx];

    __syncthreads();

    // Periodic images, copied within shared memory (see derivative_x).
    if (j < 4) {
        s_f[sj - 4][si] = s_f[sj + N - 4][si];
        s_f[sj + N][si] = s_f[sj][si];
    }

    __syncthreads();

    const DerivativeCoefficients<real>& c = derivative_coefficients<real>();
    df[globalIdx] = (c.ay * (s_f[sj + 1][si] - s_f[sj - 1][si])
                   + c.by * (s_f[sj + 2][si] - s_f[sj - 2][si])
                   + c.cy * (s_f[sj + 3][si] - s_f[sj - 3][si])
                   + c.dy * (s_f[sj + 4][si] - s_f[sj - 4][si]));
}

template <typename real, int N>
__global__ void derivative_y_lPencils(const real* f, real* df, int mx, int my, int mz) {
    __shared__ real s_f[N + 8][lPencils];  // 4-wide halo

    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int k = blockIdx.y;
    const int si = threadIdx.x;

    for (int j = threadIdx.y; j < N; j += blockDim.y) {
        const int globalIdx = k * mx * my + j * mx + i;
        const int sj = j + 4;
        s_f[sj][si] = f[globalIdx];
    }

    __syncthreads();

    // A loop, not the post's `if (sj < 8)`: with N < 32 a block has fewer than 4 rows of threads.
    for (int j = threadIdx.y; j < 4; j += blockDim.y) {
        const int sj = j + 4;
        s_f[sj - 4][si] = s_f[sj + N - 4][si];
        s_f[sj + N][si] = s_f[sj][si];
    }

    __syncthreads();

    const DerivativeCoefficients<real>& c = derivative_coefficients<real>();
    for (int j = threadIdx.y; j < N; j += blockDim.y) {
        const int globalIdx = k * mx * my + j * mx + i;
        const int sj = j + 4;
        df[globalIdx] = (c.ay * (s_f[sj + 1][si] - s_f[sj - 1][si])
                       + c.by * (s_f[sj + 2][si] - s_f[sj - 2][si])
                       + c.cy * (s_f[sj + 3][si] - s_f[sj - 3][si])
                       + c.dy * (s_f[sj + 4][si] - s_f[sj - 4][si]));
    }
}

}  // namespace stencil
