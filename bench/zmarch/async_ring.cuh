// The z-march with its loads made asynchronous (cp.async, Ampere and later): every plane a block
// reads goes straight from global to a ring of shared-memory planes, D planes ahead of the one it
// computes, so the bytes in flight no longer cost registers (the lab's kernel holds its next plane
// in registers, one plane ahead). The 2r + 1 z-values of a column still live in registers, each
// taken from the ring once its plane has arrived; the y-neighbours are read from the ring's copy of
// the current plane (its tile of BY + 2r rows); the x-neighbours come from the neighbouring lanes.
//
// The ring holds S = r + D + 2 planes: the current plane i (its rows are the y-neighbours), the
// planes up to i + r + D in flight, and one more, so that the plane a step overwrites (i - 2) was
// last read before the previous step's barrier: one barrier a plane. Planes below i that only the
// register queue still needs are not kept.
//
// A bench variant: the grid's x extent is a multiple of 32 V and its rows start on a vector (the
// bench's grids are multiples of 32); halo rows outside the grid are not loaded (only rows that are
// not interior read them, and those store nothing).
#pragma once
#include <cuda_pipeline.h>

#include "bench/zmarch/march_common.cuh"
#include "kernels/stencil_coefficients.cuh"

namespace zmarch {

template <int R, int D>
constexpr int ring_planes() {
    return R + D + 2;
}

template <class real, int R, int BY, int D>
constexpr size_t ring_bytes() {
    return size_t(ring_planes<R, D>()) * (BY + 2 * R) * 32 * 16;
}

// One function because it is one kernel: the register queue lives across the whole march.
template <class real, int R, int BY, int D>
__global__ void __launch_bounds__(32 * BY) async_ring_kernel(const real* __restrict__ in, real* __restrict__ out,
                                                             int nx, int ny, int nz) {
    using stencil::coefficient;
    using stencil::coefficient_index;
    constexpr int V = 16 / sizeof(real), Q = (R + V - 1) / V, S = ring_planes<R, D>(), ROWS = BY + 2 * R;
    using P = Pack<real, V>;
    extern __shared__ __align__(16) unsigned char ring_raw[];
    auto ring = reinterpret_cast<P(*)[ROWS][32]>(ring_raw);

    const int tx = threadIdx.x, ty = threadIdx.y;
    const int x0 = (blockIdx.x * 32 + tx) * V, j0 = blockIdx.y * BY, j = j0 + ty;
    const int sy = nx, sz = nx * ny;
    const bool inside = x0 < nx && j < ny;
    const bool interior_row = j >= R && j < ny - R;
    const auto [iBegin, iEnd] = chunk_planes(nz, R);
    if (iBegin >= iEnd) return;
    const int first = iBegin - R;  // the first plane the block reads: stage 0
    const int jSouth = j0 - R + ty, jNorth = j0 + BY + ty;

    // Plane p's rows into its stage (one group per plane, committed even when empty, so that a
    // wait counts planes).
    auto issue = [&](int p) {
        if (p < iEnd + R) {
            const int st = (p - first) % S;
            if (inside) __pipeline_memcpy_async(&ring[st][R + ty][tx], in + p * sz + j * sy + x0, 16);
            if (ty < R && x0 < nx) {
                if (jSouth >= 0) __pipeline_memcpy_async(&ring[st][ty][tx], in + p * sz + jSouth * sy + x0, 16);
                if (jNorth < ny) __pipeline_memcpy_async(&ring[st][R + BY + ty][tx], in + p * sz + jNorth * sy + x0, 16);
            }
        }
        __pipeline_commit();
    };

    // The queue's first 2r planes. The r planes below the chunk are needed in registers only, so
    // they are read before the planes after them may take their stages (r > 2: 2r + D > S).
    P zq[2 * R + 1];
    for (int p = 0; p < R; ++p) issue(first + p);
    __pipeline_wait_prior(0);
    __syncthreads();
#pragma unroll
    for (int p = 0; p < R; ++p) zq[p] = ring[p % S][R + ty][tx];
    __syncthreads();
    for (int p = R; p < 2 * R + D; ++p) issue(first + p);
    __pipeline_wait_prior(D);  // planes iBegin .. iBegin + r - 1 have arrived (this thread's copies)
    __syncthreads();           // ... and every thread's
#pragma unroll
    for (int p = R; p < 2 * R; ++p) zq[p] = ring[p % S][R + ty][tx];

    for (int i = iBegin; i < iEnd; ++i) {
        issue(i + R + D);
        __pipeline_wait_prior(D);  // plane i + R has arrived
        __syncthreads();
        zq[2 * R] = ring[(i + R - first) % S][R + ty][tx];
        const int st = (i - first) % S;
        const int plane = i * sz;

        real row[(2 * Q + 1) * V];
#pragma unroll
        for (int e = 0; e < V; ++e) row[Q * V + e] = zq[R].v[e];
#pragma unroll
        for (int q = 1; q <= Q; ++q) {
#pragma unroll
            for (int e = 0; e < V; ++e) {
                real west = __shfl_up_sync(0xffffffffu, zq[R].v[e], q);
                real east = __shfl_down_sync(0xffffffffu, zq[R].v[e], q);
                const int xw = x0 - q * V + e, xe = x0 + q * V + e;
                if (tx < q) west = inside && xw >= 0 ? in[plane + j * sy + xw] : real(0);
                if (tx >= 32 - q) east = inside && xe < nx ? in[plane + j * sy + xe] : real(0);
                row[(Q - q) * V + e] = west;
                row[(Q + q) * V + e] = east;
            }
        }
        if (inside && interior_row) {
            real acc[V];
#pragma unroll
            for (int e = 0; e < V; ++e) acc[e] = coefficient<real>(0) * zq[R].v[e];
#pragma unroll
            for (int d = 1; d <= R; ++d) {
                const P ym = ring[st][R + ty - d][tx], yp = ring[st][R + ty + d][tx];
#pragma unroll
                for (int e = 0; e < V; ++e) {
                    acc[e] += coefficient<real>(coefficient_index(d, stencil::XM)) * row[Q * V + e - d];
                    acc[e] += coefficient<real>(coefficient_index(d, stencil::XP)) * row[Q * V + e + d];
                    acc[e] += coefficient<real>(coefficient_index(d, stencil::YM)) * ym.v[e];
                    acc[e] += coefficient<real>(coefficient_index(d, stencil::YP)) * yp.v[e];
                    acc[e] += coefficient<real>(coefficient_index(d, stencil::ZM)) * zq[R - d].v[e];
                    acc[e] += coefficient<real>(coefficient_index(d, stencil::ZP)) * zq[R + d].v[e];
                }
            }
            store_outputs<P>(out, plane + j * sy + x0, x0, nx, R, acc);
        }
#pragma unroll
        for (int p = 0; p < 2 * R; ++p) zq[p] = zq[p + 1];
    }
    __pipeline_wait_prior(0);  // no copy outlives the block
}

}  // namespace zmarch
