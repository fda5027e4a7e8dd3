// ---------------------------------------------------------------------------------------------
// Temporal blocking: K time steps of the 3D star stencil fused into one pass over the grid.
//
// Why. A PDE's time loop applies the stencil S times, each output the next step's input. One
// launch per step reads and writes the whole grid S times, so however good the kernel it cannot
// pass the copy's rate: one update per cell read and written. Here a block keeps the intermediate
// time levels on the chip and writes only level K: one read and one write of the grid per K
// updates, so the rate in updates per second may pass the copy's (the figures: docs/results/,
// `stencil-lab run --steps`).
//
// The price is the halo: level t at a cell needs level t-1 within R of it, so to write level K on
// an OUT_WIDTH x OUT_TILE_DIM patch a block starts from a tile of level 0 that is R cells wider
// per level on every side (the tile counts its halo, as in the textbook's tiled kernels), and the
// band where a level is valid shrinks by R per level. The cells outside the band are computed by
// the neighbouring blocks too (redundant work, the model's "halo re-read share").
//
// The tile: 32 V cells along x by IN_TILE_DIM rows along y, V = temporal_lane_cells(sizeof(real))
// consecutive cells a lane (2 floats or 1 double: 256 bytes a warp row in either precision). A warp
// is a row of lanes; each thread owns a strip of ROWS = kTemporalStripRows = 4 rows of its V
// columns (kernels/stencil_shape.h). Level t at plane i needs level t-1 at
//   - planes i - R .. i + R of its own cells: the strip's register queue (queue[t-1], 2R + 1
//     planes deep: the textbook's inPrev / inCurr / inNext);
//   - x-neighbours: its own V cells, or the neighbouring lanes' (warp shuffles, no shared memory);
//   - y-neighbours: the strip's own registers, except the R rows beyond each end of the strip,
//     which the strips above and below publish in shared memory (edge_s: their R first and R last
//     rows).
// Why strips (bench/temporal/, docs/results/h100-temporal-*.txt): the design before them gave each
// thread one column (T x T threads), and paid per cell and level a shared store, 4R shared loads
// and a barrier's share; fp32 stayed below the copy whatever K. A strip reads most y-neighbours
// from its own registers and the x-neighbours by shuffles, and shares one plane's two barriers
// among 4 V K cells. Why 4 rows and V cells: a thread's queues hold K (2R + 1) x 4 V values, few
// enough for 8 to 16 warps an SM, and a tile 64 cells wide in fp32 loses 2RK of 64 columns to the
// halo instead of 2RK of 32.
// Shared memory: the edges of K levels pass the 48 KiB of a static array on the larger tiles
// (T = 64, r = 3, K = 4: 96 KiB), so they are dynamic; every GPU since Volta gives a block 96 KiB.

// The march (pipelined over levels). The block marches along z, loading input plane p in step p:
//   level 0 (the input) gets plane p; level 1 computes plane p - R, level 2 plane p - 2R, ...,
//   level K plane p - KR, which is written out.
// The newest plane in queue[t-1] is the one level t-1 computed in this very step; the rows a step
// publishes (level t-1 at the plane level t computes) were computed R steps earlier, so all K
// levels' edges go to shared memory at the step's start, between two barriers.
//
// Boundary (the kernels' contract, README "The stencil and its conventions"): cells within R of a
// face keep their input value at every step, so level t there is level t-1's value, which the
// strip carries in its own queue. That also makes the fused steps equal S launches of a one-step
// kernel, cell for cell. Cells outside the valid band are computed all the same (every lane must
// take part in the shuffles); no output reads them.
//
// Order of summation: the naive kernel's (centre, then x-d, x+d, y-d, y+d, z-d, z+d for d = 1..R),
// one term at a time into one accumulator, from values of the kernel's own precision: K fused steps
// give the same bits as K launches of the naive kernel (tests/cpu/test_temporal_cpu.cpp holds this).
//
// Which planes a block covers: gridDim.z chunks of zChunk = ceil(nz / gridDim.z) output planes, as
// the streaming kernel; the march starts KR planes before the chunk (its pipeline fills) and runs
// KR planes past it, never loading a plane outside the grid.
//
// Launch: blocks of (32, IN_TILE_DIM / 4, 1), ceil(nx / OUT_WIDTH) x ceil(ny / OUT_TILE_DIM) x
// ceil(nz / z_chunk) blocks, OUT_WIDTH = 32 V - 2RK, OUT_TILE_DIM = IN_TILE_DIM - 2RK. Dynamic
// shared memory: K x (IN_TILE_DIM / 4) strips x 2R rows x 32 V values (kernels/version_rules.h: shared_cells).
// Registers: K queues of 2R + 1 planes x 4 rows x V cells.
// ---------------------------------------------------------------------------------------------
#pragma once
#include "kernels/stencil_coefficients.cuh"

namespace stencil {

// The planes of one block of a z-chunked launch fusing steps with halo = rK: it outputs
// [iBegin, iEnd), the interior part of its chunk of ceil(nz / gridDim.z) planes, and marches the
// input planes [pBegin, pEnd). Level K reaches plane iBegin at step iBegin + halo, so the first plane
// it needs is iBegin - halo; planes at or past nz are not loaded (the levels computed from them are
// never used: an interior cell reads only planes inside the grid). Empty when iBegin >= iEnd.
struct TemporalPlanes {
    int iBegin, iEnd, pBegin, pEnd;
};
__device__ inline TemporalPlanes temporal_planes(int nz, int R, int halo) {
    const int zChunk = (nz + (int)gridDim.z - 1) / (int)gridDim.z;
    const int zFirst = (int)blockIdx.z * zChunk;
    TemporalPlanes z;
    z.iBegin = zFirst > R ? zFirst : R;
    z.iEnd = zFirst + zChunk < nz - R ? zFirst + zChunk : nz - R;
    z.pBegin = z.iBegin - halo > 0 ? z.iBegin - halo : 0;
    z.pEnd = z.iEnd + halo;
    return z;
}

// inPrev = inCurr, inCurr = inNext, ...: each cell's queue moves up one plane and `newest` joins.
template <typename real, int R, int ROWS, int V>
__device__ inline void temporal_push(real (&queue)[2 * R + 1][ROWS][V], const real (&newest)[ROWS][V]) {
#pragma unroll
    for (int q = 0; q < 2 * R; ++q)
#pragma unroll
        for (int c = 0; c < ROWS; ++c)
#pragma unroll
            for (int e = 0; e < V; ++e) queue[q][c][e] = queue[q + 1][c][e];
#pragma unroll
    for (int c = 0; c < ROWS; ++c)
#pragma unroll
        for (int e = 0; e < V; ++e) queue[2 * R][c][e] = newest[c][e];
}

// Level t-1's value `d` cells west (d < 0) or east (d > 0) of cell e of this lane's row: one of the
// lane's own V cells, or a neighbouring lane's (a shuffle: a lane at the row's end gets a value of
// its own, a halo cell outside the band). After unrolling, the lane offset and cell are constants.
template <typename real, int V>
__device__ inline real temporal_x_neighbour(const real (&row)[V], int e, int d) {
    const int at = e + d;
    const int lanes = at >= 0 ? at / V : -((-at + V - 1) / V);  // floor(at / V)
    const real v = row[at - lanes * V];
    if (lanes < 0) return __shfl_up_sync(0xffffffffu, v, -lanes);
    if (lanes > 0) return __shfl_down_sync(0xffffffffu, v, lanes);
    return v;
}

// Long because the march is one pipeline over the levels, read in order (the comment above).
template <typename real, int IN_TILE_DIM, int R, int K>
__global__ void __launch_bounds__(32 * (IN_TILE_DIM / kTemporalStripRows))
stencil_temporal_kernel(const real* in, real* out, int nx, int ny, int nz) {
    constexpr int ROWS = kTemporalStripRows, STRIPS = IN_TILE_DIM / ROWS;
    constexpr int V = temporal_lane_cells(sizeof(real)), WIDTH = 32 * V;  // cells a lane, a row
    constexpr int HALO = R * K;  // R cells per fused step on every side
    constexpr int OUT_WIDTH = WIDTH - 2 * HALO, OUT_TILE_DIM = IN_TILE_DIM - 2 * HALO;
    static_assert(IN_TILE_DIM % ROWS == 0 && R <= ROWS, "whole strips, each at least R rows");
    static_assert(K >= 1 && OUT_WIDTH >= 1 && OUT_TILE_DIM >= 1, "the tile must be wider than its K halos");
    // edge_s[t][strip][slot][e][tx]: cell e of level t's row `slot` (slot < R) and row
    // ROWS - R + (slot - R) (slot >= R) of each strip, at the plane level t + 1 computes in this
    // step; the launch gives it smem_bytes (kernels/versions.h) of dynamic shared memory.
    extern __shared__ __align__(16) unsigned char temporal_smem[];
    auto& edge_s = *reinterpret_cast<real(*)[K][STRIPS][2 * R][V][32]>(temporal_smem);
    // queue[t][R + dz][c][e]: level t of row c, cell e of this strip at (the plane level t + 1
    // computes) + dz. Level K needs no queue: it is written out as soon as it is computed. Zeros, so
    // that the pipeline's first steps (planes before the march) compute with defined values no
    // output uses.
    real queue[K][2 * R + 1][ROWS][V];
#pragma unroll
    for (int t = 0; t < K; ++t)
#pragma unroll
        for (int q = 0; q <= 2 * R; ++q)
#pragma unroll
            for (int c = 0; c < ROWS; ++c)
#pragma unroll
                for (int e = 0; e < V; ++e) queue[t][q][c][e] = real(0);

    // The textbook's names: i walks z, j walks y, k walks x. This thread: columns kFirst ..
    // kFirst + V - 1, rows jFirst .. jFirst + ROWS - 1.
    const int tx = threadIdx.x, strip = threadIdx.y;
    const int kFirst = (int)blockIdx.x * OUT_WIDTH - HALO + tx * V;
    const int jFirst = (int)blockIdx.y * OUT_TILE_DIM - HALO + strip * ROWS;
    const int above = strip > 0 ? strip - 1 : 0, below = strip < STRIPS - 1 ? strip + 1 : STRIPS - 1;
    const int sy = nx, sz = nx * ny;  // 32-bit offsets: see naive.cuh
    const int c_xy = jFirst * sy + kFirst;  // row c, cell e: c_xy + c * sy + e
    auto inside = [&](int c, int e) {
        return kFirst + e >= 0 && kFirst + e < nx && jFirst + c >= 0 && jFirst + c < ny;
    };
    auto interior = [&](int c, int e) {
        return kFirst + e >= R && kFirst + e < nx - R && jFirst + c >= R && jFirst + c < ny - R;
    };
    auto writes = [&](int c, int e) {  // level K's band, inside the grid's interior
        const int row = strip * ROWS + c, col = tx * V + e;
        return col >= HALO && col < WIDTH - HALO && row >= HALO && row < IN_TILE_DIM - HALO && interior(c, e);
    };

    // This block's output planes [iBegin, iEnd) and the input planes it marches [pBegin, pEnd). A
    // block with no output returns at once (the whole block alike: no barrier is skipped by only
    // some threads).
    const TemporalPlanes planes = temporal_planes(nz, R, HALO);
    const int iBegin = planes.iBegin, iEnd = planes.iEnd, pBegin = planes.pBegin, pEnd = planes.pEnd;
    if (iBegin >= iEnd) return;

    // The next plane's cells, loaded one step ahead so that their latency overlaps a step's work.
    real next[ROWS][V];
#pragma unroll
    for (int c = 0; c < ROWS; ++c)
#pragma unroll
        for (int e = 0; e < V; ++e) next[c][e] = inside(c, e) ? in[pBegin * sz + c_xy + c * sy + e] : real(0);
    for (int p = pBegin; p < pEnd; ++p) {
        __syncthreads();  // every strip has read the previous step's edges
        // Publish every level's edge rows: level t at the plane level t + 1 computes in this step
        // is queue[t][R + 1] before this step's pushes.
#pragma unroll
        for (int t = 0; t < K; ++t)
#pragma unroll
            for (int row = 0; row < R; ++row)
#pragma unroll
                for (int e = 0; e < V; ++e) {
                    edge_s[t][strip][row][e][tx] = queue[t][R + 1][row][e];
                    edge_s[t][strip][R + row][e][tx] = queue[t][R + 1][ROWS - R + row][e];
                }
        __syncthreads();  // the edges are complete

        temporal_push<real, R, ROWS, V>(queue[0], next);
        const bool more = p + 1 < nz && p + 1 < pEnd;
#pragma unroll
        for (int c = 0; c < ROWS; ++c)
#pragma unroll
            for (int e = 0; e < V; ++e)
                next[c][e] = more && inside(c, e) ? in[(p + 1) * sz + c_xy + c * sy + e] : real(0);

#pragma unroll
        for (int t = 1; t <= K; ++t) {
            const int i = p - t * R;  // the plane level t computes in this step
            const bool interior_i = i >= R && i < nz - R;
            const real(&prev)[2 * R + 1][ROWS][V] = queue[t - 1];  // level t-1 around plane i
            real level[ROWS][V];
#pragma unroll
            for (int c = 0; c < ROWS; ++c)
#pragma unroll
                for (int e = 0; e < V; ++e) {
                    real sum = coefficient<real>(0) * prev[R][c][e];
#pragma unroll
                    for (int d = 1; d <= R; ++d) {
                        // x: this row's cells e -+ d (temporal_x_neighbour). y: this strip's rows, or
                        // the edge rows of the strip above (row c - d < 0) or below (c + d >= ROWS).
                        const real west = temporal_x_neighbour<real, V>(prev[R][c], e, -d);
                        const real east = temporal_x_neighbour<real, V>(prev[R][c], e, d);
                        const real south = c - d >= 0 ? prev[R][c - d >= 0 ? c - d : 0][e]
                                                      : edge_s[t - 1][above][2 * R + c - d][e][tx];
                        const real north = c + d < ROWS ? prev[R][c + d < ROWS ? c + d : 0][e]
                                                        : edge_s[t - 1][below][c + d - ROWS][e][tx];
                        sum += coefficient<real>(coefficient_index(d, XM)) * west;
                        sum += coefficient<real>(coefficient_index(d, XP)) * east;
                        sum += coefficient<real>(coefficient_index(d, YM)) * south;
                        sum += coefficient<real>(coefficient_index(d, YP)) * north;
                        sum += coefficient<real>(coefficient_index(d, ZM)) * prev[R - d][c][e];
                        sum += coefficient<real>(coefficient_index(d, ZP)) * prev[R + d][c][e];
                    }
                    // A boundary cell (or a plane outside the grid) keeps the previous level's value.
                    level[c][e] = interior_i && interior(c, e) ? sum : prev[R][c][e];
                }
            if (t < K) {
                temporal_push<real, R, ROWS, V>(queue[t], level);
            } else if (i >= iBegin && i < iEnd) {
#pragma unroll
                for (int c = 0; c < ROWS; ++c)
#pragma unroll
                    for (int e = 0; e < V; ++e)
                        if (writes(c, e)) out[i * sz + c_xy + c * sy + e] = level[c][e];
            }
        }
    }
}

}  // namespace stencil
