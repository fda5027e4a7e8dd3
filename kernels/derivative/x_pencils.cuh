// ---------------------------------------------------------------------------------------------
// The x-derivative with pencils (text 004, "X-Derivative Implementation"): 8th order, periodic.
//
// A block holds whole rows of the grid along x (pencils) in shared memory, so no value is loaded
// from global memory twice: the 4-wide halos of a pencil are its own far ends (the grid is
// periodic), copied inside shared memory. Every warp reads 32 consecutive x values: coalesced.
//
//   derivative_x          sPencils rows per block, one thread per cell: blocks of (N, sPencils)
//   derivative_x_lPencils lPencils rows per block with the same N x sPencils threads, each thread
//                         walking lPencils / sPencils rows
//
// N is the grid's x extent (mx in the post, a compile-time size there too, since it sizes the
// shared tile). The post's grid stores x = 0 and x = 1, the same point of the period, so its code
// wraps with mx - 1 (`s_f[sj][si+mx-5]`) and divides by mx - 1; this grid stores N distinct points
// x_i = i / N, so the images wrap with N and the spacing is 1 / N. Same scheme, one copy fewer.
//
// Launch (kernels/derivative/versions.h): derivative_x blocks (N, sPencils), grid (my / sPencils,
// mz); derivative_x_lPencils blocks (N, sPencils), grid (my / lPencils, mz).
// ---------------------------------------------------------------------------------------------
#pragma once
#include "kernels/derivative/coefficients.cuh"
#include "kernels/derivative/pencils.h"

namespace stencil {

template <typename real, int N>
__global__ void derivative_x(const real* f, real* df, int mx, int my, int mz) {
    __shared__ real s_f[sPencils][N + 8];  // 4-wide halo

    const int i = threadIdx.x;
    const int j = blockIdx.x * blockDim.y + threadIdx.y;
    const int k = blockIdx.y;
    const int si = i + 4;        // local i for shared memory access + halo offset
    const int sj = threadIdx.y;  // local j for shared memory access

    const int globalIdx = k * mx * my + j * mx + i;

    s_f[sj][si] = f[globalIdx];

    __syncthreads();

    // Periodic images in shared memory: the 4 cells before x = 0 are the row's last 4, the 4 after
    // x = N - 1 its first 4. Read from shared memory (another thread's value: hence the barrier
    // above), never again from global memory.
    if (i < 4) {
        s_f[sj][si - 4] = s_f[sj][si + N - 4];
        s_f[sj][si + N] = s_f[sj][si];
    }

    __syncthreads();

    const DerivativeCoefficients<real>& c = derivative_coefficients<real>();
    df[globalIdx] = (c.ax * (s_f[sj][si + 1] - s_f[sj][si - 1])
                   + c.bx * (s_f[sj][si + 2] - s_f[sj][si - 2])
                   + c.cx * (s_f[sj][si + 3] - s_f[sj][si - 3])
                   + c.dx * (s_f[sj][si + 4] - s_f[sj][si - 4]));
}

template <typename real, int N>
__global__ void derivative_x_lPencils(const real* f, real* df, int mx, int my, int mz) {
    __shared__ real s_f[lPencils][N + 8];  // 4-wide halo

    const int i = threadIdx.x;
    const int jBase = blockIdx.x * lPencils;
    const int k = blockIdx.y;
    const int si = i + 4;  // local i for shared memory access + halo offset

    // blockDim.y = sPencils threads cover the lPencils rows, a row every sPencils.
    for (int sj = threadIdx.y; sj < lPencils; sj += blockDim.y) {
        const int globalIdx = k * mx * my + (jBase + sj) * mx + i;
        s_f[sj][si] = f[globalIdx];
    }

    __syncthreads();

    if (i < 4) {
        for (int sj = threadIdx.y; sj < lPencils; sj += blockDim.y) {
            s_f[sj][si - 4] = s_f[sj][si + N - 4];
            s_f[sj][si + N] = s_f[sj][si];
        }
    }

    __syncthreads();

    const DerivativeCoefficients<real>& c = derivative_coefficients<real>();
    for (int sj = threadIdx.y; sj < lPencils; sj += blockDim.y) {
        const int globalIdx = k * mx * my + (jBase + sj) * mx + i;
        df[globalIdx] = (c.ax * (s_f[sj][si + 1] - s_f[sj][si - 1])
                       + c.bx * (s_f[sj][si + 2] - s_f[sj][si - 2])
                       + c.cx * (s_f[sj][si + 3] - s_f[sj][si - 3])
                       + c.dx * (s_f[sj][si + 4] - s_f[sj][si - 4]));
    }
}

}  // namespace stencil
