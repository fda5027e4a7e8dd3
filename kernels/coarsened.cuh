// ---------------------------------------------------------------------------------------------
// Thread-coarsened 3D star stencil (the textbook's "Thread coarsening" listing, radius r).
//
// The block is a T x T plane of threads instead of a T^3 cube, and it marches along z through
// OUT_TILE_DIM output planes. The 2r + 1 input planes the stencil needs (for r = 1 the textbook's
// inPrev_s, inCurr_s, inNext_s) sit in shared memory; after each output plane they shift down
// by one and the next plane is loaded. Threads per block: T^2, so T = 32 is possible; shared
// memory: (2r + 1) T^2 values instead of T^3; OP/B at T = 32 is 13 * 30^3 / (4 * 32^3) = 2.68,
// "almost double" the tiled kernel's 1.37 at T = 8.
//
// Launch: blocks of (T, T, 1), ceil(n / OUT_TILE_DIM) blocks per axis (z included: each block
// produces OUT_TILE_DIM planes).
// ---------------------------------------------------------------------------------------------
#pragma once
#include "kernels/phase_marks.cuh"
#include "kernels/stencil_coefficients.cuh"

namespace stencil {

template <typename real, int IN_TILE_DIM, int R>
__global__ void stencil_coarsened_kernel(const real* in, real* out, int nx, int ny, int nz) {
    constexpr int OUT_TILE_DIM = IN_TILE_DIM - 2 * R;
    static_assert(OUT_TILE_DIM >= 1, "the tile must be wider than its two halos");
    // plane_s[R + dz] holds input plane i + dz. For r = 1: plane_s[0] is the textbook's inPrev_s,
    // plane_s[1] its inCurr_s, plane_s[2] its inNext_s.
    __shared__ real plane_s[2 * R + 1][IN_TILE_DIM][IN_TILE_DIM];
    phase_mark(kPhaseStart);  // phase marks: nothing here, the GPU timeline's stamps (phase_marks.cuh)

    const int ty = threadIdx.y, tx = threadIdx.x;
    const int iStart = (int)blockIdx.z * OUT_TILE_DIM;
    const int j = (int)blockIdx.y * OUT_TILE_DIM + ty - R;
    const int k = (int)blockIdx.x * OUT_TILE_DIM + tx - R;
    const bool inside_xy = j >= 0 && j < ny && k >= 0 && k < nx;
    const int sy = nx, sz = nx * ny;  // 32-bit offsets: see naive.cuh
    const int c_xy = j * sy + k;

    // Before the march: the r planes below iStart and the planes iStart .. iStart + r - 1.
    // Cells outside the grid get 0 rather than nothing (the textbook leaves them unwritten): the
    // shift below copies every cell, and a copy of never-written shared memory is exactly what
    // the CPU backend reports as a bug. No output ever uses these zeros.
    for (int p = 0; p < 2 * R; ++p) {
        const int i = iStart - R + p;
        plane_s[p][ty][tx] = (i >= 0 && i < nz && inside_xy) ? (real)in[i * sz + c_xy] : real(0);
    }

    for (int i = iStart; i < iStart + OUT_TILE_DIM; i++) {
        phase_mark(kPhasePlaneStart, i - iStart);
        // The plane r above the output plane enters at the top of the queue.
        plane_s[2 * R][ty][tx] =
            (i + R >= 0 && i + R < nz && inside_xy) ? (real)in[(i + R) * sz + c_xy] : real(0);
        phase_mark(kPhaseLoaded, i - iStart);
        __syncthreads();  // all 2r + 1 planes are complete before anyone reads a neighbour
        phase_mark(kPhaseReleased, i - iStart);

        if (i >= R && i < nz - R && j >= R && j < ny - R && k >= R && k < nx - R) {
            if (ty >= R && ty < IN_TILE_DIM - R && tx >= R && tx < IN_TILE_DIM - R) {
                real sum = coefficient<real>(0) * plane_s[R][ty][tx];
#pragma unroll
                for (int d = 1; d <= R; ++d) {
                    sum += coefficient<real>(coefficient_index(d, XM)) * plane_s[R][ty][tx - d];
                    sum += coefficient<real>(coefficient_index(d, XP)) * plane_s[R][ty][tx + d];
                    sum += coefficient<real>(coefficient_index(d, YM)) * plane_s[R][ty - d][tx];
                    sum += coefficient<real>(coefficient_index(d, YP)) * plane_s[R][ty + d][tx];
                    sum += coefficient<real>(coefficient_index(d, ZM)) * plane_s[R - d][ty][tx];
                    sum += coefficient<real>(coefficient_index(d, ZP)) * plane_s[R + d][ty][tx];
                }
                phase_mark(kPhaseComputed, i - iStart);
                out[i * sz + c_xy] = sum;
            }
        }
        phase_mark(kPhaseStored, i - iStart);
        __syncthreads();  // nobody may overwrite a plane that a neighbour is still reading

        // Shift the queue down by one plane (the textbook: inPrev_s = inCurr_s, inCurr_s = inNext_s).
        // Each thread moves only its own cell, so no barrier is needed between these copies.
#pragma unroll
        for (int p = 0; p < 2 * R; ++p) {
            plane_s[p][ty][tx] = plane_s[p + 1][ty][tx];
        }
    }
}

}  // namespace stencil
