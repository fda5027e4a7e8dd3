// ---------------------------------------------------------------------------------------------
// The x-derivative on a square tile with 4-wide halos: the tile the post starts from and leaves
// (text 004, "Data Reuse and Shared Memory"), for comparison with the pencils of x_pencils.cuh.
//
// A block of TILE_DIM x TILE_DIM threads computes a 16 x 16 (x by y) tile of one z plane. Its
// shared tile also needs the 4 cells on either side in x, which belong to the neighbouring tiles:
// they are loaded again from global memory, so of every 16 x 16 outputs 8 x 16 values are loaded
// twice (reload share 0.5: analysis/derivative_tiles.h), and a warp (two rows of 16) reads two
// 64-byte pieces instead of one line. The periodic wrap is in the global index here.
//
// Launch (kernels/derivative/versions.h): blocks (TILE_DIM, TILE_DIM), grid (mx / TILE_DIM,
// my / TILE_DIM, mz). N is the grid's x extent.
// ---------------------------------------------------------------------------------------------
#pragma once
#include "kernels/derivative/coefficients.cuh"
#include "kernels/derivative/pencils.h"

namespace stencil {

template <typename real, int N>
__global__ void derivative_x_tile(const real* f, real* df, int mx, int my, int mz) {
    __shared__ real s_f[TILE_DIM][TILE_DIM + 8];  // 4-wide halo on both x sides

    const int i = blockIdx.x * TILE_DIM + threadIdx.x;
    const int j = blockIdx.y * TILE_DIM + threadIdx.y;
    const int k = blockIdx.z;
    const int si = threadIdx.x + 4;  // local i for shared memory access + halo offset
    const int sj = threadIdx.y;
    const int rowStart = k * mx * my + j * mx;

    s_f[sj][si] = f[rowStart + i];
    // The halos: the neighbouring tiles' cells, from global memory a second time (this is the
    // reload the pencils avoid). Periodic: x - 4 and x + TILE_DIM wrap around the row.
    if (threadIdx.x < 4) {
        s_f[sj][si - 4] = f[rowStart + (i - 4 + N) % N];
        s_f[sj][si + TILE_DIM] = f[rowStart + (i + TILE_DIM) % N];
    }

    __syncthreads();

    const DerivativeCoefficients<real>& c = derivative_coefficients<real>();
    df[rowStart + i] = (c.ax * (s_f[sj][si + 1] - s_f[sj][si - 1])
                      + c.bx * (s_f[sj][si + 2] - s_f[sj][si - 2])
                      + c.cx * (s_f[sj][si + 3] - s_f[sj][si - 3])
                      + c.dx * (s_f[sj][si + 4] - s_f[sj][si - 4]));
}

}  // namespace stencil
