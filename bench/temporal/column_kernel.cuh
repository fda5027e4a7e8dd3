// The column design of temporal blocking (a variant for bench/temporal/): the lab's kernel before
// the strips (kernels/temporal.cuh's first design), kept as the baseline the strips are measured
// against. A T x T block, each thread one (x, y) column: per plane and level, publish level t-1's
// centre plane in shared memory, barrier, compute level t (K barriers a plane).
#pragma once
#include "kernels/stencil_coefficients.cuh"
#include "kernels/temporal.cuh"  // temporal_planes

namespace bench {

using namespace stencil;  // XM .. ZP

// The star stencil at this thread's column, from level t-1: z-neighbours from the column's queue,
// x / y neighbours from the shared plane. The naive kernel's order of terms (see above).
template <typename real, int TILE_DIM, int R, typename Plane>
__device__ inline real column_star(const real (&queue)[2 * R + 1], Plane& plane_s, int ty, int tx) {
    real sum = coefficient<real>(0) * queue[R];
#pragma unroll
    for (int d = 1; d <= R; ++d) {
        sum += coefficient<real>(coefficient_index(d, XM)) * plane_s[ty][tx - d];
        sum += coefficient<real>(coefficient_index(d, XP)) * plane_s[ty][tx + d];
        sum += coefficient<real>(coefficient_index(d, YM)) * plane_s[ty - d][tx];
        sum += coefficient<real>(coefficient_index(d, YP)) * plane_s[ty + d][tx];
        sum += coefficient<real>(coefficient_index(d, ZM)) * queue[R - d];
        sum += coefficient<real>(coefficient_index(d, ZP)) * queue[R + d];
    }
    return sum;
}

// inPrev = inCurr, inCurr = inNext, ...: the queue moves up one plane and `newest` joins it.
template <typename real, int R>
__device__ inline void column_push(real (&queue)[2 * R + 1], real newest) {
#pragma unroll
    for (int q = 0; q < 2 * R; ++q) queue[q] = queue[q + 1];
    queue[2 * R] = newest;
}

template <typename real, int IN_TILE_DIM, int R, int K>
__global__ void __launch_bounds__(IN_TILE_DIM * IN_TILE_DIM)
column_kernel(const real* in, real* out, int nx, int ny, int nz) {
    constexpr int HALO = R * K;  // R cells per fused step on every side
    constexpr int OUT_TILE_DIM = IN_TILE_DIM - 2 * HALO;
    static_assert(K >= 1 && OUT_TILE_DIM >= 1, "the tile must be wider than its K halos");
    // level_s[t][ty][tx]: level t at the plane level t + 1 computes in this step.
    __shared__ real level_s[K][IN_TILE_DIM][IN_TILE_DIM];
    // queue[t][R + dz]: level t of this column at (the plane level t + 1 computes) + dz. Level K
    // needs no queue: it is written out as soon as it is computed. Zeros, so that the pipeline's
    // first steps (planes before the march) compute with defined values that no output uses.
    real queue[K][2 * R + 1];
#pragma unroll
    for (int t = 0; t < K; ++t)
#pragma unroll
        for (int q = 0; q <= 2 * R; ++q) queue[t][q] = real(0);

    // The textbook's names: i walks z, j walks y, k walks x.
    const int ty = threadIdx.y, tx = threadIdx.x;
    const int j = (int)blockIdx.y * OUT_TILE_DIM - HALO + ty;
    const int k = (int)blockIdx.x * OUT_TILE_DIM - HALO + tx;
    const bool inside_xy = j >= 0 && j < ny && k >= 0 && k < nx;
    const bool interior_xy = j >= R && j < ny - R && k >= R && k < nx - R;
    const int sy = nx, sz = nx * ny;  // 32-bit offsets: see naive.cuh
    const int c_xy = j * sy + k;
    // The band where level t is valid in this block: R cells narrower per level. A thread computes
    // level t only inside it (its neighbours at level t-1 are then inside level t-1's band).
    auto in_band = [&](int t) {
        return ty >= t * R && ty < IN_TILE_DIM - t * R && tx >= t * R && tx < IN_TILE_DIM - t * R;
    };

    // This block's output planes [iBegin, iEnd) and the input planes it marches [pBegin, pEnd). A
    // block with no output returns at once (the whole block alike: no barrier is skipped by only
    // some threads).
    const TemporalPlanes planes = temporal_planes(nz, R, HALO);
    const int iBegin = planes.iBegin, iEnd = planes.iEnd, pBegin = planes.pBegin, pEnd = planes.pEnd;
    if (iBegin >= iEnd) return;

    // The next plane's value, loaded one step ahead so that its latency overlaps a step's work.
    real next = inside_xy ? in[pBegin * sz + c_xy] : real(0);
    for (int p = pBegin; p < pEnd; ++p) {
        column_push<real, R>(queue[0], next);
        next = real(0);
        if (inside_xy && p + 1 < nz && p + 1 < pEnd) next = in[(p + 1) * sz + c_xy];

#pragma unroll
        for (int t = 1; t <= K; ++t) {
            const int i = p - t * R;  // the plane level t computes in this step
            // Publish level t-1 at plane i for the x / y neighbours. Level t-1's band is enough:
            // level t reads only within R of its own band.
            if (in_band(t - 1)) level_s[t - 1][ty][tx] = queue[t - 1][R];
            __syncthreads();  // level t-1's plane i is complete in shared memory

            // A boundary cell (or a plane outside the grid) keeps the previous level's value.
            real v = queue[t - 1][R];
            if (in_band(t) && interior_xy && i >= R && i < nz - R)
                v = column_star<real, IN_TILE_DIM, R>(queue[t - 1], level_s[t - 1], ty, tx);
            if (t < K) {
                column_push<real, R>(queue[t], v);
            } else if (in_band(K) && interior_xy && i >= iBegin && i < iEnd) {
                out[i * sz + c_xy] = v;
            }
        }
        // level_s[t-1] is read in phase t and written again in phase t of the next step: the
        // K - 1 barriers of the other phases lie between. With K = 1 there are none: add one.
        if (K == 1) __syncthreads();
    }
}

}  // namespace bench
