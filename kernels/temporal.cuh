// ---------------------------------------------------------------------------------------------
// Temporal blocking: K time steps of the 3D star stencil fused into one pass over the grid.
//
// Why. A PDE's time loop applies the stencil S times, each output the next step's input. One
// launch per step reads and writes the whole grid S times, so however good the kernel it cannot
// pass the copy's rate: one update per cell read and written. Here a block keeps the intermediate
// time levels on the chip and writes only level K: one read and one write of the grid per K
// updates, so the rate in updates per second may pass the copy's (issue 13: 1.5x at 7-point
// fp32 on an H100).
//
// The price is the halo: level t at a cell needs level t-1 within R of it, so to write a T_out
// square of level K a block starts from a tile of level 0 that is R cells wider per level on every
// side: TILE_DIM = OUT_TILE_DIM + 2RK (TILE_DIM counts the halo, as in the textbook's tiled
// kernels), and the band a level is valid on shrinks by R per level. The cells outside the band are
// computed by the neighbouring blocks too (redundant work, the "halo re-read share" of the model).
//
// How (a 2.5D z-march, pipelined over levels). A TILE_DIM x TILE_DIM block marches along z, one
// input plane p per step, each thread owning one (x, y) column. In the step that loads plane p:
//   level 0 (the input) gets plane p; level 1 computes plane p - R, level 2 plane p - 2R, ...,
//   level K plane p - KR, which is written out.
// Level t at plane i needs level t-1 at planes i - R .. i + R of its own column, which it holds
// in a register queue (queue[t-1], the textbook's inPrev / inCurr / inNext, 2R + 1 deep: its newest
// value is the plane level t-1 computed in this very step), and level t-1's plane i at the x / y
// neighbours, which the block shares through one shared plane per level (level_s[t-1]). So a step
// is K phases: publish level t-1's centre plane, barrier, compute level t.
//
// Boundary (the kernels' contract, README "The stencil and its conventions"): cells within R of a
// face keep their input value at every step, so level t there is level t-1's value, which the
// column carries in its own queue. That also makes the fused steps equal S launches of a one-step
// kernel, cell for cell.
//
// Order of summation: the naive kernel's (centre, then x-d, x+d, y-d, y+d, z-d, z+d for d = 1..R),
// one term at a time into one accumulator, from values of the kernel's own precision: K fused steps
// give the same bits as K launches of the naive kernel (tests/cpu/test_temporal_cpu.cpp holds this).
//
// Which planes a block covers: gridDim.z chunks of zChunk = ceil(nz / gridDim.z) output planes, as
// the streaming kernel; the march starts KR planes before the chunk (its pipeline fills) and runs
// KR planes past it, never loading a plane outside the grid.
//
// Launch: blocks of (T, T, 1), ceil(nx / OUT) x ceil(ny / OUT) x ceil(nz / z_chunk) blocks,
// OUT = T - 2RK. Shared memory: K T^2 values. Registers: K queues of 2R + 1.
// ---------------------------------------------------------------------------------------------
#pragma once
#include "kernels/stencil_coefficients.cuh"

namespace stencil {

// The star stencil at this thread's column, from level t-1: z-neighbours from the column's queue,
// x / y neighbours from the shared plane. The naive kernel's order of terms (see above).
template <typename real, int TILE_DIM, int R, typename Plane>
__device__ inline real temporal_star(const real (&queue)[2 * R + 1], Plane& plane_s, int ty, int tx) {
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
__device__ inline void temporal_push(real (&queue)[2 * R + 1], real newest) {
#pragma unroll
    for (int q = 0; q < 2 * R; ++q) queue[q] = queue[q + 1];
    queue[2 * R] = newest;
}

template <typename real, int IN_TILE_DIM, int R, int K, typename In, typename Out>
__global__ void __launch_bounds__(IN_TILE_DIM * IN_TILE_DIM)
stencil_temporal_kernel(In in, Out out, int nx, int ny, int nz) {
    constexpr int HALO = R * K;  // R cells per fused step on every side
    constexpr int OUT_TILE_DIM = IN_TILE_DIM - 2 * HALO;
    static_assert(K >= 1 && OUT_TILE_DIM >= 1, "the tile must be wider than its K halos");
    // level_s[t][ty][tx]: level t at the plane level t + 1 computes in this step.
    __shared__ Shared<real> level_s[K][IN_TILE_DIM][IN_TILE_DIM];
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

    // This block's output planes: [iBegin, iEnd), the interior part of its chunk. A block with
    // none returns at once (the whole block alike: no barrier is skipped by only some threads).
    const int zChunk = (nz + (int)gridDim.z - 1) / (int)gridDim.z;
    const int zFirst = (int)blockIdx.z * zChunk;
    const int iBegin = zFirst > R ? zFirst : R;
    const int iEnd = zFirst + zChunk < nz - R ? zFirst + zChunk : nz - R;
    if (iBegin >= iEnd) return;
    // The march: input planes [pBegin, pEnd). Level K reaches plane iBegin at step iBegin + HALO,
    // the first plane it needs is iBegin - HALO; planes at or past nz are not loaded (the levels
    // computed from them are never used: an interior cell reads only planes inside the grid).
    const int pBegin = iBegin - HALO > 0 ? iBegin - HALO : 0;
    const int pEnd = iEnd + HALO;

    // The next plane's value, loaded one step ahead so that its latency overlaps a step's work.
    real next = inside_xy ? in[pBegin * sz + c_xy] : real(0);
    for (int p = pBegin; p < pEnd; ++p) {
        temporal_push<real, R>(queue[0], next);
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
                v = temporal_star<real, IN_TILE_DIM, R>(queue[t - 1], level_s[t - 1], ty, tx);
            if (t < K) {
                temporal_push<real, R>(queue[t], v);
            } else if (in_band(K) && interior_xy && i >= iBegin && i < iEnd) {
                out[i * sz + c_xy] = v;
            }
        }
        // level_s[t-1] is read in phase t and written again in phase t of the next step: the
        // K - 1 barriers of the other phases lie between. With K = 1 there are none: add one.
        if (K == 1) __syncthreads();
    }
}

}  // namespace stencil
