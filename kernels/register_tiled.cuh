// ---------------------------------------------------------------------------------------------
// Register-tiled 3D star stencil (the textbook's "Register tiling" listing, radius r).
//
// Like the coarsened kernel the block is a T x T plane marching along z, but only the current
// plane lives in shared memory: its x and y neighbours are other threads' values. The z
// neighbours are only ever read by the thread that owns that (x, y) column, so they stay in that
// thread's registers (a queue of 2r + 1 values, as in the FDTD3d sample). Shared memory: T^2
// values, a third of the coarsened kernel's 3 T^2 for r = 1; registers: 2r + 1 per thread for the
// queue (3 for the 7-point stencil).
//
// The textbook listing copies from `inNext_s`, which it never declares (it declares only
// inCurr_s); the value to store is the register inNext. This kernel does that.
//
// Launch: blocks of (T, T, 1), ceil(n / OUT_TILE_DIM) blocks per axis.
// ---------------------------------------------------------------------------------------------
#pragma once
#include "kernels/stencil_coefficients.cuh"

namespace stencil {

template <typename real, int IN_TILE_DIM, int R>
__global__ void stencil_register_tiled_kernel(const real* in, real* out, int nx, int ny, int nz) {
    constexpr int OUT_TILE_DIM = IN_TILE_DIM - 2 * R;
    static_assert(OUT_TILE_DIM >= 1, "the tile must be wider than its two halos");
    __shared__ real inCurr_s[IN_TILE_DIM][IN_TILE_DIM];
    // z_reg[R + dz] holds this thread's input at plane i + dz. For r = 1: z_reg[0] is the
    // textbook's inPrev, z_reg[1] its inCurr, z_reg[2] its inNext. Fully unrolled loops keep the
    // array in registers. Zero-filled so that cells beyond the grid hold a defined value.
    real z_reg[2 * R + 1];
#pragma unroll
    for (int p = 0; p <= 2 * R; ++p) z_reg[p] = real(0);

    const int ty = threadIdx.y, tx = threadIdx.x;
    const int iStart = (int)blockIdx.z * OUT_TILE_DIM;
    const int j = (int)blockIdx.y * OUT_TILE_DIM + ty - R;
    const int k = (int)blockIdx.x * OUT_TILE_DIM + tx - R;
    const bool inside_xy = j >= 0 && j < ny && k >= 0 && k < nx;
    const int sy = nx, sz = nx * ny;  // 32-bit offsets: see naive.cuh
    const int c_xy = j * sy + k;

#pragma unroll
    for (int p = 0; p < 2 * R; ++p) {
        const int i = iStart - R + p;
        if (i >= 0 && i < nz && inside_xy) z_reg[p] = in[i * sz + c_xy];
    }
    inCurr_s[ty][tx] = z_reg[R];

    for (int i = iStart; i < iStart + OUT_TILE_DIM; i++) {
        if (i + R >= 0 && i + R < nz && inside_xy) z_reg[2 * R] = in[(i + R) * sz + c_xy];
        __syncthreads();  // the current plane is complete in shared memory

        if (i >= R && i < nz - R && j >= R && j < ny - R && k >= R && k < nx - R) {
            if (ty >= R && ty < IN_TILE_DIM - R && tx >= R && tx < IN_TILE_DIM - R) {
                real sum = coefficient<real>(0) * z_reg[R];
#pragma unroll
                for (int d = 1; d <= R; ++d) {
                    sum += coefficient<real>(coefficient_index(d, XM)) * inCurr_s[ty][tx - d];
                    sum += coefficient<real>(coefficient_index(d, XP)) * inCurr_s[ty][tx + d];
                    sum += coefficient<real>(coefficient_index(d, YM)) * inCurr_s[ty - d][tx];
                    sum += coefficient<real>(coefficient_index(d, YP)) * inCurr_s[ty + d][tx];
                    sum += coefficient<real>(coefficient_index(d, ZM)) * z_reg[R - d];
                    sum += coefficient<real>(coefficient_index(d, ZP)) * z_reg[R + d];
                }
                out[i * sz + c_xy] = sum;
            }
        }
        __syncthreads();  // neighbours are done reading the current plane before it is replaced

        // Shift the register queue (inPrev = inCurr; inCurr = inNext) and publish the new
        // current plane to the block.
#pragma unroll
        for (int p = 0; p < 2 * R; ++p) z_reg[p] = z_reg[p + 1];
        inCurr_s[ty][tx] = z_reg[R];
    }
}

}  // namespace stencil
