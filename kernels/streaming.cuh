// ---------------------------------------------------------------------------------------------
// Streaming (2.5D) 3D star stencil: a block of warp-wide rows marches along z, each thread owning
// one 16-byte vector of a row.
//
// What changes against register-tiled, and why (each idea measured on its own on an H100 by
// bench/zmarch/, docs/results/h100-zmarch-variants-512.txt):
//   - every thread owns outputs (T counts output rows, not the halo): no thread only loads;
//   - a thread owns V = 16 / sizeof(real) consecutive cells of its row (4 floats, 2 doubles), so
//     every load and store of its own column is one 16-byte access and a warp's row is 512
//     contiguous bytes: the fewest instructions per byte moved, whole sectors, whole lines;
//   - the 2r + 1 z-values of the column live in registers (the textbook's inPrev / inCurr / inNext
//     queue), the x-neighbours come from the neighbouring lanes (warp shuffles: a warp is one row),
//     only the lanes at a row's two ends load theirs (from L1 / L2: the neighbouring blocks'
//     cells); the y-neighbours come from a shared tile of T + 2r rows, double-buffered, so a plane
//     costs one barrier, not two;
//   - a block marches a short z-chunk (16 planes): enough blocks to fill the GPU several times
//     over, and the 2r planes before each chunk are mostly L2 hits (the chunk below reads them).
// Per output plane a block loads its 32 V x T cells once (plane i + 1 + r, one step ahead), the
// 2r halo rows of plane i + 1 (threads ty < r, also one step ahead) and, at each row's two ends,
// the r cells beyond it (one value at a time); it writes 32 V x T outputs. DRAM traffic tends to the copy's: one read and one write.
//
// The block: 32 x T threads (x fastest); thread (tx, ty) owns cells x0 .. x0 + V - 1 of row j,
// x0 = (blockIdx.x * 32 + tx) V. Any grid: a row whose length is not a multiple of V (or a vector
// that crosses the grid's edge) is loaded and stored value by value instead.
//
// Which planes a block covers: the launch gives gridDim.z chunks; a block takes
// zChunk = ceil(nz / gridDim.z) planes from blockIdx.z * zChunk and computes the ones that are
// interior (r <= i < nz - r), never loading a plane outside the grid.
//
// Launch: blocks of (32, T, 1), ceil(nx / 32V) x ceil(ny / T) x ceil(nz / z_chunk) blocks; T >= r
// (the halo rows are loaded by the first r rows of threads).
// Boundary: cells within r of a face are never written (README, "The stencil and its conventions").
// Order of summation: the naive kernel's, so that the outputs are naive's bit for bit.
// ---------------------------------------------------------------------------------------------
#pragma once
#include "kernels/stencil_coefficients.cuh"

namespace stencil {

// V consecutive values of a row, one 16-byte load or store.
template <typename real>
struct alignas(16) RowVector {
    static constexpr int V = 16 / sizeof(real);
    real v[V];
};

// The V cells of row `row` (the row's first cell's index) from x0: one vector load when the whole
// vector is inside the row and rows start on a vector (nx % V == 0: `aligned`), else value by
// value, cells outside the row read as 0 (no interior output uses them).
template <typename real>
__device__ inline RowVector<real> load_row_vector(const real* in, int row, int x0, int nx, bool aligned) {
    constexpr int V = RowVector<real>::V;
    RowVector<real> p;
    if (aligned && x0 >= 0 && x0 + V <= nx) return *reinterpret_cast<const RowVector<real>*>(&in[row + x0]);
#pragma unroll
    for (int e = 0; e < V; ++e) p.v[e] = x0 + e >= 0 && x0 + e < nx ? in[row + x0 + e] : real(0);
    return p;
}

template <typename real>
__device__ inline RowVector<real> zero_row_vector() {
    RowVector<real> p;
#pragma unroll
    for (int e = 0; e < RowVector<real>::V; ++e) p.v[e] = real(0);
    return p;
}

// Long because the march reads best as one body, in order. __launch_bounds__: 32 T threads and
// streaming_min_blocks an SM, a thread's registers held to streaming_register_budget
// (kernels/stencil_shape.h, with the measurements); MIN_BLOCKS lets bench/zmarch/ compare others.
// MARCH_UNROLL: planes of the march unrolled into one loop body, so that the queue's shifts become
// register renamings (bench/zmarch/ measures it).
template <typename real, int ROWS, int R, int MIN_BLOCKS = streaming_min_blocks(32 * ROWS, R), int MARCH_UNROLL = 1>
__global__ void __launch_bounds__(32 * ROWS, MIN_BLOCKS)
stencil_streaming_kernel(const real* in, real* out, int nx, int ny, int nz) {
    using Vec = RowVector<real>;
    constexpr int V = Vec::V;
    constexpr int Q = (R + V - 1) / V;  // vectors on each side that hold a cell's x-neighbours
    static_assert(ROWS >= R, "the first R rows of threads load the halo rows");
    // inCurr_s[buf][R + ty][tx]: this thread's vector of the current plane; rows 0..R-1 and
    // R + ROWS .. are the halo rows. Two buffers: plane i + 1 is written while plane i is read.
    __shared__ Vec inCurr_s[2][ROWS + 2 * R][32];
    // z_reg[R + dz]: this thread's vector at plane i + dz (as in register_tiled.cuh).
    Vec z_reg[2 * R + 1];

    // The textbook's names: i walks z, j walks y, k (here x0, a vector's first cell) walks x.
    const int ty = threadIdx.y, tx = threadIdx.x;
    const int j0 = (int)blockIdx.y * ROWS, j = j0 + ty;
    const int x0 = ((int)blockIdx.x * 32 + tx) * V;
    const int sy = nx, sz = nx * ny;  // 32-bit offsets: see naive.cuh
    const bool aligned = nx % V == 0;
    const bool inside = j < ny && x0 < nx;
    const bool interior_row = j >= R && j < ny - R;
    const int c_row = j * sy;  // row j's first cell within a plane

    // This block's planes: [iBegin, iEnd), the interior part of its chunk. Blocks whose chunk has
    // no interior plane return at once (the whole block alike: no barrier is skipped by a few).
    const int zChunk = (nz + (int)gridDim.z - 1) / (int)gridDim.z;
    const int zFirst = (int)blockIdx.z * zChunk;
    const int iBegin = zFirst > R ? zFirst : R;
    const int iEnd = zFirst + zChunk < nz - R ? zFirst + zChunk : nz - R;
    if (iBegin >= iEnd) return;

    // The halo rows: thread row ty < R carries row j0 - R + ty (south) and j0 + ROWS + ty (north)
    // of each plane, loaded one step ahead like the queue's top.
    const int jSouth = j0 - R + ty, jNorth = j0 + ROWS + ty;
    const bool carriesSouth = ty < R && jSouth >= 0, carriesNorth = ty < R && jNorth < ny;
    Vec south = zero_row_vector<real>(), north = zero_row_vector<real>();

    // Prologue: the queue, planes iBegin - R .. iBegin + R (all inside the grid), and the first
    // plane's halo rows.
#pragma unroll
    for (int p = 0; p <= 2 * R; ++p)
        z_reg[p] = inside ? load_row_vector<real>(in, (iBegin - R + p) * sz + c_row, x0, nx, aligned)
                          : zero_row_vector<real>();
    if (carriesSouth) south = load_row_vector<real>(in, iBegin * sz + jSouth * sy, x0, nx, aligned);
    if (carriesNorth) north = load_row_vector<real>(in, iBegin * sz + jNorth * sy, x0, nx, aligned);

#pragma unroll MARCH_UNROLL
    for (int i = iBegin; i < iEnd; ++i) {
        const int buf = (i - iBegin) & 1;
        // Publish the current plane's rows: this thread's own vector and its halo rows.
        inCurr_s[buf][R + ty][tx] = z_reg[R];
        if (ty < R) {
            inCurr_s[buf][ty][tx] = south;
            inCurr_s[buf][R + ROWS + ty][tx] = north;
        }
        // The next step's loads, issued now so that they travel while this plane is computed.
        Vec top = zero_row_vector<real>();
        if (i + 1 < iEnd) {
            if (inside) top = load_row_vector<real>(in, (i + 1 + R) * sz + c_row, x0, nx, aligned);
            if (carriesSouth) south = load_row_vector<real>(in, (i + 1) * sz + jSouth * sy, x0, nx, aligned);
            if (carriesNorth) north = load_row_vector<real>(in, (i + 1) * sz + jNorth * sy, x0, nx, aligned);
        }
        __syncthreads();  // the plane's rows are in shared memory; the other buffer is free

        // row_x[Q V + e]: cell x0 + e of this row in plane i, for e = -Q V .. (Q + 1) V - 1. The
        // vectors beside this thread's are the neighbouring lanes' own (shuffles; every lane takes
        // part), except at the row's two ends, whose lanes load the cells they read: those within
        // R of their own vector, one value at a time (a whole vector would move values no one
        // reads, and the compiler would shrink the load: the source would no longer say the bytes).
        real row_x[(2 * Q + 1) * V];
#pragma unroll
        for (int e = 0; e < V; ++e) row_x[Q * V + e] = z_reg[R].v[e];
        const int plane = i * sz;
#pragma unroll
        for (int q = 1; q <= Q; ++q) {
#pragma unroll
            for (int e = 0; e < V; ++e) {
                real west = __shfl_up_sync(0xffffffffu, z_reg[R].v[e], q);
                real east = __shfl_down_sync(0xffffffffu, z_reg[R].v[e], q);
                // Cell x0 - qV + e is read when it lies within R of x0; x0 + qV + e when within R
                // of x0 + V - 1 (both known at compile time for each q and e).
                const int xw = x0 - q * V + e, xe = x0 + q * V + e;
                if (tx < q) west = inside && e >= q * V - R && xw >= 0 ? in[plane + c_row + xw] : real(0);
                if (tx >= 32 - q) east = inside && e < R - (q - 1) * V && xe < nx ? in[plane + c_row + xe] : real(0);
                row_x[(Q - q) * V + e] = west;
                row_x[(Q + q) * V + e] = east;
            }
        }

        if (inside && interior_row) {
            real sum[V];
#pragma unroll
            for (int e = 0; e < V; ++e) sum[e] = coefficient<real>(0) * z_reg[R].v[e];
#pragma unroll
            for (int d = 1; d <= R; ++d) {
                const Vec ym = inCurr_s[buf][R + ty - d][tx], yp = inCurr_s[buf][R + ty + d][tx];
#pragma unroll
                for (int e = 0; e < V; ++e) {
                    sum[e] += coefficient<real>(coefficient_index(d, XM)) * row_x[Q * V + e - d];
                    sum[e] += coefficient<real>(coefficient_index(d, XP)) * row_x[Q * V + e + d];
                    sum[e] += coefficient<real>(coefficient_index(d, YM)) * ym.v[e];
                    sum[e] += coefficient<real>(coefficient_index(d, YP)) * yp.v[e];
                    sum[e] += coefficient<real>(coefficient_index(d, ZM)) * z_reg[R - d].v[e];
                    sum[e] += coefficient<real>(coefficient_index(d, ZP)) * z_reg[R + d].v[e];
                }
            }
            // One vector store when all V cells are interior, else the interior ones alone.
            const int o = plane + c_row + x0;
            if (aligned && x0 >= R && x0 + V <= nx - R) {
                Vec w;
#pragma unroll
                for (int e = 0; e < V; ++e) w.v[e] = sum[e];
                *reinterpret_cast<Vec*>(&out[o]) = w;
            } else {
#pragma unroll
                for (int e = 0; e < V; ++e)
                    if (x0 + e >= R && x0 + e < nx - R) out[o + e] = sum[e];
            }
        }

        // Shift the queue: inPrev = inCurr, inCurr = inNext, and the prefetched top joins it.
#pragma unroll
        for (int p = 0; p < 2 * R; ++p) z_reg[p] = z_reg[p + 1];
        z_reg[2 * R] = top;
    }
}

}  // namespace stencil
