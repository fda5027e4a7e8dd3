// ---------------------------------------------------------------------------------------------
// Shared-memory tiled 3D star stencil (the textbook's Fig. 8.8, radius r instead of 1).
//
// One block per input tile of IN_TILE_DIM^3 cells, one thread per input cell. All threads load
// the tile collaboratively into shared memory; after the barrier only the threads of the inner
// OUT_TILE_DIM^3 = (IN_TILE_DIM - 2r)^3 cells compute, the halo threads idle.
//
// Each block loads T^3 values for (T - 2r)^3 outputs: OP/B = 13 (T-2)^3 / (4 T^3) for r = 1,
// 1.37 at T = 8, tending to 13/4 = 3.25. The catch: the block is the tile, so T^3 <= 1024 threads
// (T <= 10), and a warp of an 8-wide tile touches 4 separate rows: poor coalescing.
//
// Launch: blocks of (T, T, T), ceil(n / OUT_TILE_DIM) blocks per axis.
// ---------------------------------------------------------------------------------------------
#pragma once
#include "kernels/phase_marks.cuh"
#include "kernels/stencil_coefficients.cuh"

namespace stencil {

template <typename real, int IN_TILE_DIM, int R>
__global__ void stencil_tiled_kernel(const real* in, real* out, int nx, int ny, int nz) {
    constexpr int OUT_TILE_DIM = IN_TILE_DIM - 2 * R;
    static_assert(OUT_TILE_DIM >= 1, "the tile must be wider than its two halos");
    __shared__ real in_s[IN_TILE_DIM][IN_TILE_DIM][IN_TILE_DIM];
    phase_mark(kPhaseStart);  // phase marks: nothing here, the GPU timeline's stamps (phase_marks.cuh)

    const int tz = threadIdx.z, ty = threadIdx.y, tx = threadIdx.x;
    // The input cell this thread loads: tiles overlap by the halo, hence "- R".
    const int i = (int)blockIdx.z * OUT_TILE_DIM + tz - R;
    const int j = (int)blockIdx.y * OUT_TILE_DIM + ty - R;
    const int k = (int)blockIdx.x * OUT_TILE_DIM + tx - R;
    const int sy = nx, sz = nx * ny;  // 32-bit offsets: see naive.cuh
    const int c = i * sz + j * sy + k;

    // (1) Collaborative load. Cells outside the grid are not loaded: no thread that could read
    //     them will compute (they lie beyond the fixed boundary).
    if (i >= 0 && i < nz && j >= 0 && j < ny && k >= 0 && k < nx) {
        in_s[tz][ty][tx] = in[c];
    }
    phase_mark(kPhaseLoaded);
    __syncthreads();  // every neighbour a thread reads was stored by another thread
    phase_mark(kPhaseReleased);

    // (2) Fixed boundary cells are not updated; (3) halo threads only loaded, they do not compute.
    if (i >= R && i < nz - R && j >= R && j < ny - R && k >= R && k < nx - R) {
        if (tz >= R && tz < IN_TILE_DIM - R && ty >= R && ty < IN_TILE_DIM - R &&
            tx >= R && tx < IN_TILE_DIM - R) {
            real sum = coefficient<real>(0) * in_s[tz][ty][tx];
#pragma unroll
            for (int d = 1; d <= R; ++d) {
                sum += coefficient<real>(coefficient_index(d, XM)) * in_s[tz][ty][tx - d];
                sum += coefficient<real>(coefficient_index(d, XP)) * in_s[tz][ty][tx + d];
                sum += coefficient<real>(coefficient_index(d, YM)) * in_s[tz][ty - d][tx];
                sum += coefficient<real>(coefficient_index(d, YP)) * in_s[tz][ty + d][tx];
                sum += coefficient<real>(coefficient_index(d, ZM)) * in_s[tz - d][ty][tx];
                sum += coefficient<real>(coefficient_index(d, ZP)) * in_s[tz + d][ty][tx];
            }
            phase_mark(kPhaseComputed);
            out[c] = sum;
        }
    }
    phase_mark(kPhaseStored);
}

}  // namespace stencil
