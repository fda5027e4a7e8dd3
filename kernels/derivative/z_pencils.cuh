// ---------------------------------------------------------------------------------------------
// The z-derivative with pencils (text 004, part 2): 8th order, periodic in z.
//
// As the y kernels (y_pencils.cuh) with z in place of y: a pencil is a whole column of the grid
// along z, consecutive cells of it a plane (mx * my values) apart; the tile holds `pencils` columns
// side by side in x, which is what a warp's global access sees:
//
//   derivative_z          sPencils = 4 columns, blocks of (sPencils, N): poorly coalesced
//   derivative_z_lPencils lPencils = 32 columns, blocks of (lPencils, N sPencils / lPencils),
//                         each thread walking the column in steps of blockDim.y: coalesced
//
// N is the grid's z extent (mz in the post). Launch: grid (mx / pencils, my).
// ---------------------------------------------------------------------------------------------
#pragma once
#include "kernels/derivative/coefficients.cuh"
#include "kernels/derivative/pencils.h"

namespace stencil {

template <typename real, int N>
__global__ void derivative_z(const real* f, real* df, int mx, int my, int mz) {
    __shared__ real s_f[N + 8][sPencils];  // 4-wide halo

    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int j = blockIdx.y;
    const int k = threadIdx.y;
    const int si = threadIdx.x;
    const int sk = k + 4;

    const int globalIdx = k * mx * my + j * mx + i;

    s_f[sk][si] = f[globalIdx];

    __syncthreads();

    // Periodic images, copied within shared memory (see derivative_x).
    if (k < 4) {
        s_f[sk - 4][si] = s_f[sk + N - 4][si];
        s_f[sk + N][si] = s_f[sk][si];
    }

    __syncthreads();

    const DerivativeCoefficients<real>& c = derivative_coefficients<real>();
    df[globalIdx] = (c.az * (s_f[sk + 1][si] - s_f[sk - 1][si])
                   + c.bz * (s_f[sk + 2][si] - s_f[sk - 2][si])
                   + c.cz * (s_f[sk + 3][si] - s_f[sk - 3][si])
                   + c.dz * (s_f[sk + 4][si] - s_f[sk - 4][si]));
}

template <typename real, int N>
__global__ void derivative_z_lPencils(const real* f, real* df, int mx, int my, int mz) {
    __shared__ real s_f[N + 8][lPencils];  // 4-wide halo

    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int j = blockIdx.y;
    const int si = threadIdx.x;

    for (int k = threadIdx.y; k < N; k += blockDim.y) {
        const int globalIdx = k * mx * my + j * mx + i;
        const int sk = k + 4;
        s_f[sk][si] = f[globalIdx];
    }

    __syncthreads();

    // A loop, not the post's `if (sk < 8)`: with N < 32 a block has fewer than 4 rows of threads.
    for (int k = threadIdx.y; k < 4; k += blockDim.y) {
        const int sk = k + 4;
        s_f[sk - 4][si] = s_f[sk + N - 4][si];
        s_f[sk + N][si] = s_f[sk][si];
    }

    __syncthreads();

    const DerivativeCoefficients<real>& c = derivative_coefficients<real>();
    for (int k = threadIdx.y; k < N; k += blockDim.y) {
        const int globalIdx = k * mx * my + j * mx + i;
        const int sk = k + 4;
        df[globalIdx] = (c.az * (s_f[sk + 1][si] - s_f[sk - 1][si])
                       + c.bz * (s_f[sk + 2][si] - s_f[sk - 2][si])
                       + c.cz * (s_f[sk + 3][si] - s_f[sk - 3][si])
                       + c.dz * (s_f[sk + 4][si] - s_f[sk - 4][si]));
    }
}

}  // namespace stencil
