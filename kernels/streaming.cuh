// ---------------------------------------------------------------------------------------------
// Streaming (2.5D) 3D star stencil: a T x T block of output columns marches along z.
//
// What changes against register-tiled, and why. The textbook's z-marching kernels spend their
// tile on the halo: a T x T block computes only (T - 2r)^2 columns, so at T = 32, r = 4 a third of
// the threads load and never compute, and each block marches only OUT_TILE_DIM = T - 2r planes, so
// the 2r halo planes in z are re-read for every OUT planes. Here:
//   - every thread owns an output column (T counts outputs, not the halo): the in-plane halo is a
//     ring of 4rT cells around the block, loaded by the threads at the block's edges;
//   - a block marches a long chunk of planes (the z-chunk of the versions table, about 128): the
//     2r planes before the chunk are loaded once per chunk, not once per OUT planes;
//   - the 2r + 1 z-values of the column live in registers (the textbook's inPrev / inCurr /
//     inNext queue); the x/y neighbours come from one shared plane of (T + 2r)^2 cells.
// Per output plane a block loads T^2 new values (plane i + 1 + r into the queue, one step ahead)
// and the 4rT ring of plane i + 1 (mostly L2 hits: the interior of the neighbouring blocks), and
// writes T^2 outputs. DRAM traffic tends to one read and one write per cell: the copy's.
//
// The block: T x T threads, x fastest. With T = 16 a warp is two 64-byte rows (fp32) on
// whole 32-byte sectors when nx is a multiple of 8: fully used sectors, no vector loads needed.
// float2/float4 loads would make each thread own 2-4 columns; they pay where a warp's row would
// otherwise be narrower than a sector, which it is not here (left to the tuner to try).
//
// Which planes a block covers: the launch gives gridDim.z chunks; a block takes
// zChunk = ceil(nz / gridDim.z) planes from blockIdx.z * zChunk and computes the ones that are
// interior (r <= i < nz - r). It never loads a plane outside the grid: the march starts at an
// interior plane, so the queue's lowest plane is >= 0, and stops before nz - r, so the highest
// plane it loads is < nz.
//
// Launch: blocks of (T, T, 1), ceil(nx / T) x ceil(ny / T) x ceil(nz / z_chunk) blocks.
// Boundary: cells within r of a face are never written (README, "The stencil and its conventions").
// ---------------------------------------------------------------------------------------------
#pragma once
#include "kernels/stencil_coefficients.cuh"

namespace stencil {

// This thread's share of a plane's ring: threads within R of a block edge (tx < R or ty < R; the
// index m covers T < R too) load the ring's cells on both sides of their row or column. The kernel
// holds a plane's share in registers from the step before the plane is needed, so plane i + 1's
// ring (and its queue top) are in flight while plane i is computed: a step does not wait for
// memory at its barrier (the kernel would otherwise stall on the latency of every plane).
template <typename real, int TILE_DIM, int R>
struct RingShare {
    real west[R] = {}, east[R] = {}, south[R] = {}, north[R] = {};  // x -, x +, y -, y + sides

    // The share of the plane that starts at `plane` (= i * nx * ny); cells outside the grid are 0
    // (no interior column reads them).
    template <typename In>
    __device__ void load(In in, int plane, int j0, int k0, int ty, int tx, int nx, int ny) {
        const int j = j0 + ty, k = k0 + tx;
#pragma unroll
        for (int m = 0; m < R; ++m) {
            const int sx = tx + m * TILE_DIM, sy = ty + m * TILE_DIM;
            if (j < ny && sx < R) {
                const int kl = k0 - R + sx, kr = k0 + TILE_DIM + sx;
                west[m] = kl >= 0 ? in[plane + j * nx + kl] : real(0);
                east[m] = kr < nx ? in[plane + j * nx + kr] : real(0);
            }
            if (k < nx && sy < R) {
                const int jl = j0 - R + sy, jr = j0 + TILE_DIM + sy;
                south[m] = jl >= 0 ? in[plane + jl * nx + k] : real(0);
                north[m] = jr < ny ? in[plane + jr * nx + k] : real(0);
            }
        }
    }

    // Into the shared plane, beside the block's own cells (the same conditions as load).
    template <typename Plane>
    __device__ void store(Plane& inCurr_s, int j, int k, int ty, int tx, int nx, int ny) const {
#pragma unroll
        for (int m = 0; m < R; ++m) {
            const int sx = tx + m * TILE_DIM, sy = ty + m * TILE_DIM;
            if (j < ny && sx < R) {
                inCurr_s[R + ty][sx] = west[m];
                inCurr_s[R + ty][R + TILE_DIM + sx] = east[m];
            }
            if (k < nx && sy < R) {
                inCurr_s[sy][R + tx] = south[m];
                inCurr_s[R + TILE_DIM + sy][R + tx] = north[m];
            }
        }
    }
};

// __launch_bounds__: the block is TILE_DIM^2 threads, so the compiler keeps registers within what
// such a block may have (at T = 32 in fp64 and r >= 3 it would otherwise ask for more than 64
// registers a thread, and a 1024-thread block could not launch).
template <typename real, int TILE_DIM, int R, typename In, typename Out>
__global__ void __launch_bounds__(TILE_DIM * TILE_DIM)
stencil_streaming_kernel(In in, Out out, int nx, int ny, int nz) {
    // The current plane with its halo ring: inCurr_s[R + ty][R + tx] is this thread's column.
    // The four corner squares are never read (a star stencil has no diagonal neighbours).
    constexpr int PLANE_DIM = TILE_DIM + 2 * R;
    __shared__ Shared<real> inCurr_s[PLANE_DIM][PLANE_DIM];
    // z_reg[R + dz] holds this column's input at plane i + dz (as in register_tiled.cuh).
    real z_reg[2 * R + 1];

    const int ty = threadIdx.y, tx = threadIdx.x;
    const int j0 = (int)blockIdx.y * TILE_DIM, k0 = (int)blockIdx.x * TILE_DIM;
    const int j = j0 + ty, k = k0 + tx;
    const bool inside_xy = j < ny && k < nx;
    const bool interior_xy = j >= R && j < ny - R && k >= R && k < nx - R;
    const int sy = nx, sz = nx * ny;  // 32-bit offsets: see naive.cuh
    const int c_xy = j * sy + k;

    // This block's planes: [iBegin, iEnd), the interior part of its chunk. Blocks whose chunk has
    // no interior plane return at once (all threads of the block alike, so no barrier is skipped
    // by only some of them).
    const int zChunk = (nz + (int)gridDim.z - 1) / (int)gridDim.z;
    const int zFirst = (int)blockIdx.z * zChunk;
    const int iBegin = zFirst > R ? zFirst : R;
    const int iEnd = zFirst + zChunk < nz - R ? zFirst + zChunk : nz - R;
    if (iBegin >= iEnd) return;

    RingShare<real, TILE_DIM, R> ring;  // see above: the next plane's ring, one step ahead

    // Prologue: the queue, planes iBegin - R .. iBegin + R, all inside the grid, and the first
    // plane's ring.
#pragma unroll
    for (int p = 0; p <= 2 * R; ++p) z_reg[p] = inside_xy ? in[(iBegin - R + p) * sz + c_xy] : real(0);
    ring.load(in, iBegin * sz, j0, k0, ty, tx, nx, ny);

    for (int i = iBegin; i < iEnd; ++i) {
        // Publish the current plane: this thread's own value, then its share of the ring.
        if (inside_xy) inCurr_s[R + ty][R + tx] = z_reg[R];
        ring.store(inCurr_s, j, k, ty, tx, nx, ny);
        // The next step's loads, issued now: its queue top (plane i + 1 + R < nz) and its ring.
        real top = real(0);
        if (i + 1 < iEnd) {
            if (inside_xy) top = in[(i + 1 + R) * sz + c_xy];
            ring.load(in, (i + 1) * sz, j0, k0, ty, tx, nx, ny);
        }
        __syncthreads();  // the current plane and its ring are complete in shared memory

        // An interior column reads only cells within R of itself: all were stored above.
        if (interior_xy) {
            const int y = R + ty, x = R + tx;
            real sum = coefficient<real>(0) * z_reg[R];
#pragma unroll
            for (int d = 1; d <= R; ++d) {
                sum += coefficient<real>(coefficient_index(d, XM)) * inCurr_s[y][x - d];
                sum += coefficient<real>(coefficient_index(d, XP)) * inCurr_s[y][x + d];
                sum += coefficient<real>(coefficient_index(d, YM)) * inCurr_s[y - d][x];
                sum += coefficient<real>(coefficient_index(d, YP)) * inCurr_s[y + d][x];
                sum += coefficient<real>(coefficient_index(d, ZM)) * z_reg[R - d];
                sum += coefficient<real>(coefficient_index(d, ZP)) * z_reg[R + d];
            }
            out[i * sz + c_xy] = sum;
        }
        __syncthreads();  // everyone is done with this plane before the next one overwrites it

        // Shift the queue: inPrev = inCurr, inCurr = inNext, and the prefetched top joins it.
#pragma unroll
        for (int p = 0; p < 2 * R; ++p) z_reg[p] = z_reg[p + 1];
        z_reg[2 * R] = top;
    }
}

}  // namespace stencil
