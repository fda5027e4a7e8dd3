// stencil-zmarch-variants: where the lab's streaming kernel loses bandwidth, measured against
// z-marching designs that differ from it in one idea at a time. Issue 13 asks for >= 0.95 of the
// copy at r = 1; this program is the evidence for the next design of kernels/streaming.cuh.
//
//   stencil-zmarch-variants [N] [ring|bounds|unroll]   (default 512; fp32 and fp64, r = 1..4;
//                                               `ring`: also the asynchronous ring and the wider
//                                               blocks; `bounds`: the lab's kernel under register
//                                               caps; `unroll`: the lab's kernel, march unrolled)
//
// Every variant computes the lab's star stencil (weights in constant memory, the layout of
// kernels/stencil_shape.h) on an N^3 grid and is checked against a plain one-thread-per-cell
// kernel on the same GPU (max |difference| printed; the sums are ordered alike up to the x/y/z
// grouping, so the difference is a rounding, not an error). Each line: the best of 10 launches
// and its ratio to the device-to-device copy of the same array measured in the same run (bytes
// alike: one read and one write per cell).
//
// The variants, all marching a z-chunk of planes per block with the 2r + 1 z-values of each column
// in registers (the textbook's inPrev / inCurr / inNext queue):
//   lab        kernels/streaming.cuh as it is (the smem-y design below, in the
//              lab's own words: 32 x T threads, any grid), at T = 8, 4, 16 rows and z-chunks 16, 32;
//   lab-bounds the same kernel with another minimum of blocks per SM in its __launch_bounds__
//              (1: no register cap), to show what its streaming_min_blocks buys;
//   z-copy     the march with no neighbour at all (out = c0 * in): the ceiling of the pattern;
//   L1         one cell per thread, x and y neighbours as plain global loads (L1 hits);
//   vec-L1     V cells per thread (one 16-byte load: 4 floats or 2 doubles), x and y from L1;
//   vec-shfl   as vec-L1, but the x-neighbours from the neighbouring lanes (warp shuffles; only
//              the lanes at a row's ends load), y from L1: no shared memory, no barrier;
//   smem-y     as vec-shfl, but y from a double-buffered shared tile of BY + 2r rows: one
//              barrier per plane.
// smem-y and z-copy also run with cache hints (march_common.cuh, Hints): "st.cs" stores marked
// evict-first, "ld.nc" loads through the non-coherent path; the copy kernel too (copy-st.cs,
// copy-ld.nc).
// Each variant may keep D planes in flight (D = 1: the next plane, loaded one step ahead; D > 1:
// a deeper pipeline of loads, more bytes in flight per thread), shown as "D=" in the table.
// Beside them, `kernel copy`: a plain vector copy kernel, what any kernel can get of the copy
// (`copy-ilpU`: U vectors a thread in flight), and
//   ring       the march with asynchronous loads (cp.async) into a ring of shared planes, D planes
//              ahead (async_ring.cuh): bytes in flight without registers.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "bench/device_timing.cuh"
#include "bench/zmarch/async_ring.cuh"
#include "kernels/streaming.cuh"

namespace {

using bench::best_ms;


using stencil::coefficient;
using stencil::coefficient_index;
using stencil::XM, stencil::XP, stencil::YM, stencil::YP, stencil::ZM, stencil::ZP;

// The reference: one thread per interior cell, every neighbour a global load.
template <class real>
__global__ void reference_kernel(const real* in, real* out, int nx, int ny, int nz, int R) {
    const int k = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
    const int i = blockIdx.z * blockDim.z + threadIdx.z;
    if (k < R || j < R || i < R || k >= nx - R || j >= ny - R || i >= nz - R) return;
    const long sy = nx, sz = (long)nx * ny, c = i * sz + j * sy + k;
    real s = coefficient<real>(0) * in[c];
    for (int d = 1; d <= R; ++d) {
        s += coefficient<real>(coefficient_index(d, XM)) * in[c - d];
        s += coefficient<real>(coefficient_index(d, XP)) * in[c + d];
        s += coefficient<real>(coefficient_index(d, YM)) * in[c - d * sy];
        s += coefficient<real>(coefficient_index(d, YP)) * in[c + d * sy];
        s += coefficient<real>(coefficient_index(d, ZM)) * in[c - d * sz];
        s += coefficient<real>(coefficient_index(d, ZP)) * in[c + d * sz];
    }
    out[c] = s;
}

using zmarch::Pack;
using zmarch::zero_pack;

// How the x and y neighbours are found (the z-neighbours are always the register queue).
enum class XY { none, l1, shuffle_x_l1_y, shuffle_x_shared_y };

// A block of BX x BY threads, each owning V consecutive cells of a row, marches the planes of its
// z-chunk. nx must be a multiple of V (the program's grids are).
// One function because it is one kernel: its register queue lives across the whole march, and the
// variants are compile-time branches on `how`.
template <class real, int R, int V, int BX, int BY, XY how, int D = 1, int HINTS = zmarch::kNoHints>
__global__ void __launch_bounds__(BX * BY) zmarch_kernel(const real* __restrict__ in, real* __restrict__ out,
                                                         int nx, int ny, int nz) {
    using P = Pack<real, V>;
    constexpr int Q = (R + V - 1) / V;  // packs on each side that hold the x-neighbours
    constexpr int W = BX < 32 ? BX : 32;  // lanes of one row within a warp
    constexpr bool kSharedY = how == XY::shuffle_x_shared_y;
    __shared__ P tile[kSharedY ? 2 : 1][kSharedY ? BY + 2 * R : 1][kSharedY ? BX : 1];

    const int tx = threadIdx.x, ty = threadIdx.y;
    const int x0 = (blockIdx.x * BX + tx) * V, j0 = blockIdx.y * BY, j = j0 + ty;
    const int sy = nx, sz = nx * ny;
    const bool inside = x0 < nx && j < ny;
    const bool interior_row = j >= R && j < ny - R;
    const auto [iBegin, iEnd] = zmarch::chunk_planes(nz, R);
    if (iBegin >= iEnd) return;
    const int cxy = inside ? j * sy + x0 : 0;
    // 32-bit offsets, as the lab's kernels use (N <= 1024, so N^3 < 2^31).
    auto load = [&](int offset) { return zmarch::load_pack<P, HINTS>(reinterpret_cast<const P*>(in + offset)); };

    P zq[2 * R + 1];
#pragma unroll
    for (int p = 0; p <= 2 * R; ++p) zq[p] = inside ? load((iBegin - R + p) * sz + cxy) : zero_pack<real, V>();
    // pend[d]: plane i + R + 1 + d, loaded D - d steps ago (pend[D - 1] is loaded at a step's start).
    P pend[D];
#pragma unroll
    for (int d = 0; d < D; ++d) {
        const int plane = iBegin + R + 1 + d;
        pend[d] = d < D - 1 && inside && plane < iEnd + R ? load(plane * sz + cxy) : zero_pack<real, V>();
    }
    // smem-y: threads ty < R also carry the halo rows j0 - R + ty and j0 + BY + ty, one plane ahead.
    const int jSouth = j0 - R + ty, jNorth = j0 + BY + ty;
    const bool haloThread = kSharedY && ty < R && x0 < nx;
    P south = zero_pack<real, V>(), north = zero_pack<real, V>();
    if (haloThread) {
        if (jSouth >= 0) south = load(iBegin * sz + jSouth * sy + x0);
        if (jNorth < ny) north = load(iBegin * sz + jNorth * sy + x0);
    }

    for (int i = iBegin; i < iEnd; ++i) {
        const int buf = (i - iBegin) & 1;
        if constexpr (kSharedY) {
            tile[buf][R + ty][tx] = zq[R];
            if (ty < R) tile[buf][ty][tx] = south, tile[buf][BY + R + ty][tx] = north;
        }
        // The next plane's loads, issued before this plane's arithmetic.
        P nextSouth = zero_pack<real, V>(), nextNorth = zero_pack<real, V>();
        pend[D - 1] = inside && i + R + D < iEnd + R ? load((i + R + D) * sz + cxy) : zero_pack<real, V>();
        if (i + 1 < iEnd) {
            if (haloThread) {
                if (jSouth >= 0) nextSouth = load((i + 1) * sz + jSouth * sy + x0);
                if (jNorth < ny) nextNorth = load((i + 1) * sz + jNorth * sy + x0);
            }
        }
        if constexpr (kSharedY) __syncthreads();  // one barrier: the tile is double-buffered

        const int plane = i * sz;
        real acc[V];
#pragma unroll
        for (int e = 0; e < V; ++e) acc[e] = coefficient<real>(0) * zq[R].v[e];
        if constexpr (how != XY::none) {
            // row[]: this plane's cells x0 - Q V .. x0 + (Q + 1) V - 1 of row j.
            real row[(2 * Q + 1) * V];
#pragma unroll
            for (int e = 0; e < V; ++e) row[Q * V + e] = zq[R].v[e];
#pragma unroll
            for (int q = 1; q <= Q; ++q) {
                P lo = zero_pack<real, V>(), hi = zero_pack<real, V>();
                const int xLo = x0 - q * V, xHi = x0 + q * V;
                if constexpr (how == XY::l1) {
                    if (inside && xLo >= 0) lo = load(plane + j * sy + xLo);
                    if (inside && xHi < nx) hi = load(plane + j * sy + xHi);
                } else {
                    const int lane = tx % W;
#pragma unroll
                    for (int e = 0; e < V; ++e) {
                        lo.v[e] = __shfl_up_sync(0xffffffffu, zq[R].v[e], q, W);
                        hi.v[e] = __shfl_down_sync(0xffffffffu, zq[R].v[e], q, W);
                    }
                    if (lane < q) lo = inside && xLo >= 0 ? load(plane + j * sy + xLo) : zero_pack<real, V>();
                    if (lane >= W - q) hi = inside && xHi < nx ? load(plane + j * sy + xHi) : zero_pack<real, V>();
                }
#pragma unroll
                for (int e = 0; e < V; ++e) row[(Q - q) * V + e] = lo.v[e], row[(Q + q) * V + e] = hi.v[e];
            }
#pragma unroll
            for (int d = 1; d <= R; ++d) {
                P ym = zero_pack<real, V>(), yp = zero_pack<real, V>();
                if constexpr (kSharedY) {
                    ym = tile[buf][R + ty - d][tx], yp = tile[buf][R + ty + d][tx];
                } else if (inside && interior_row) {
                    ym = load(plane + (j - d) * sy + x0), yp = load(plane + (j + d) * sy + x0);
                }
#pragma unroll
                for (int e = 0; e < V; ++e) {
                    acc[e] += coefficient<real>(coefficient_index(d, XM)) * row[Q * V + e - d];
                    acc[e] += coefficient<real>(coefficient_index(d, XP)) * row[Q * V + e + d];
                    acc[e] += coefficient<real>(coefficient_index(d, YM)) * ym.v[e];
                    acc[e] += coefficient<real>(coefficient_index(d, YP)) * yp.v[e];
                    acc[e] += coefficient<real>(coefficient_index(d, ZM)) * zq[R - d].v[e];
                    acc[e] += coefficient<real>(coefficient_index(d, ZP)) * zq[R + d].v[e];
                }
            }
        }
        if (inside && interior_row) zmarch::store_outputs<P, HINTS>(out, plane + cxy, x0, nx, R, acc);
#pragma unroll
        for (int p = 0; p < 2 * R; ++p) zq[p] = zq[p + 1];
        zq[2 * R] = pend[0];
#pragma unroll
        for (int d = 0; d + 1 < D; ++d) pend[d] = pend[d + 1];
        south = nextSouth, north = nextNorth;
    }
}

// A plain copy kernel: 16-byte vectors, a grid-stride loop, what a kernel gets of the copy.
template <class real>
__global__ void copy_kernel(const real* __restrict__ in, real* __restrict__ out, long cells) {
    using P = Pack<real, 16 / sizeof(real)>;
    const long packs = cells / (16 / sizeof(real));
    for (long p = blockIdx.x * (long)blockDim.x + threadIdx.x; p < packs; p += (long)gridDim.x * blockDim.x)
        reinterpret_cast<P*>(out)[p] = reinterpret_cast<const P*>(in)[p];
}

// The copy with U vectors a thread in flight: U loads issued before the U stores.
template <class real, int U>
__global__ void copy_kernel_ilp(const real* __restrict__ in, real* __restrict__ out, long cells) {
    using P = Pack<real, 16 / sizeof(real)>;
    const long packs = cells / (16 / sizeof(real));
    const long stride = (long)gridDim.x * blockDim.x;
    for (long p = blockIdx.x * (long)blockDim.x + threadIdx.x; p < packs; p += U * stride) {
        P v[U];
#pragma unroll
        for (int u = 0; u < U; ++u)
            if (p + u * stride < packs) v[u] = reinterpret_cast<const P*>(in)[p + u * stride];
#pragma unroll
        for (int u = 0; u < U; ++u)
            if (p + u * stride < packs) reinterpret_cast<P*>(out)[p + u * stride] = v[u];
    }
}

// The plain copy with cache hints (march_common.cuh, Hints).
template <class real, int HINTS>
__global__ void copy_kernel_hinted(const real* __restrict__ in, real* __restrict__ out, long cells) {
    using P = Pack<real, 16 / sizeof(real)>;
    const long packs = cells / (16 / sizeof(real));
    for (long p = blockIdx.x * (long)blockDim.x + threadIdx.x; p < packs; p += (long)gridDim.x * blockDim.x)
        zmarch::store_pack<P, HINTS>(reinterpret_cast<P*>(out) + p,
                                     zmarch::load_pack<P, HINTS>(reinterpret_cast<const P*>(in) + p));
}

template <class real>
struct Arrays {
    int n = 0;
    size_t bytes = 0;
    real *in = nullptr, *out = nullptr, *expected = nullptr;
};


template <class real>
double max_difference(const Arrays<real>& a) {
    return bench::max_difference(a.out, a.expected, a.bytes);
}

template <class real>
void report(const char* name, int R, const char* shape, int chunk, float ms, float copy_ms, double diff) {
    std::printf("%s r=%d %-11s %-24s chunk %3d  %7.3f ms  copy ratio %.3f  max diff %s%.2g\n",
                sizeof(real) == 4 ? "f32" : "f64", R, name, shape, chunk, ms, copy_ms / ms, diff < 0 ? "- " : "",
                diff < 0 ? 0.0 : diff);
}

template <class real, int R, int V, int BX, int BY, XY how, int D = 1, int HINTS = zmarch::kNoHints>
void try_zmarch(Arrays<real>& a, const char* name, int chunk, float copy_ms) {
    const int n = a.n;
    const dim3 block(BX, BY), grid((n / V + BX - 1) / BX, (n + BY - 1) / BY, (n + chunk - 1) / chunk);
    CHECK_CUDA(cudaMemset(a.out, 0, a.bytes));
    const float ms =
        best_ms([&] { zmarch_kernel<real, R, V, BX, BY, how, D, HINTS><<<grid, block>>>(a.in, a.out, n, n, n); });
    char shape[40];
    std::snprintf(shape, sizeof shape, "%dx%d V=%d D=%d%s%s", BX, BY, V, D,
                  HINTS & zmarch::kStoreEvictFirst ? " st.cs" : "", HINTS & zmarch::kLoadNonCoherent ? " ld.nc" : "");
    report<real>(name, R, shape, chunk, ms, copy_ms, how == XY::none ? -1.0 : max_difference(a));
}

// The asynchronous ring (async_ring.cuh): 32 x BY threads, D planes in flight, dynamic shared memory.
template <class real, int R, int BY, int D>
void try_ring(Arrays<real>& a, int chunk, float copy_ms) {
    const int n = a.n, W = 32 * int(16 / sizeof(real));
    const dim3 block(32, BY), grid((n + W - 1) / W, (n + BY - 1) / BY, (n + chunk - 1) / chunk);
    const auto kernel = zmarch::async_ring_kernel<real, R, BY, D>;
    constexpr size_t smem = zmarch::ring_bytes<real, R, BY, D>();
    CHECK_CUDA(cudaFuncSetAttribute((const void*)kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
    CHECK_CUDA(cudaMemset(a.out, 0, a.bytes));
    const float ms = best_ms([&] { kernel<<<grid, block, smem>>>(a.in, a.out, n, n, n); });
    cudaFuncAttributes attr{};
    CHECK_CUDA(cudaFuncGetAttributes(&attr, (const void*)kernel));
    int blocks = 0;
    CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, 32 * BY, smem));
    char shape[48];
    std::snprintf(shape, sizeof shape, "32x%d D=%d %dr %dK x%d", BY, D, attr.numRegs, int(smem / 1024), blocks);
    report<real>("ring", R, shape, chunk, ms, copy_ms, max_difference(a));
}

// The lab's kernel: 32 x T threads, each a 16-byte vector of its row (kernels/streaming.cuh), with
// its own launch bounds (MIN_BLOCKS 0: streaming_min_blocks) or the given minimum blocks per SM
// (1: no register cap, the kernel before its cap).
template <class real, int R, int T, int MIN_BLOCKS = 0, int UNROLL = 1>
void try_lab(Arrays<real>& a, int chunk, float copy_ms) {
    constexpr int MB = MIN_BLOCKS > 0 ? MIN_BLOCKS : stencil::streaming_min_blocks(32 * T, R);
    const int n = a.n, W = 32 * int(16 / sizeof(real));
    const dim3 block(32, T), grid((n + W - 1) / W, (n + T - 1) / T, (n + chunk - 1) / chunk);
    CHECK_CUDA(cudaMemset(a.out, 0, a.bytes));
    const auto kernel = stencil::stencil_streaming_kernel<real, T, R, MB, UNROLL>;
    const float ms = best_ms([&] { kernel<<<grid, block>>>(a.in, a.out, n, n, n); });
    cudaFuncAttributes attr{};
    CHECK_CUDA(cudaFuncGetAttributes(&attr, (const void*)kernel));
    char shape[64];
    std::snprintf(shape, sizeof shape, "T=%d min %d unroll %d (%d regs%s)", T, MB, UNROLL, attr.numRegs,
                  attr.localSizeBytes > 0 ? ", spills" : "");
    report<real>(MIN_BLOCKS > 0 ? "lab-bounds" : "lab", R, shape, chunk, ms, copy_ms, max_difference(a));
}

// The lab's kernel at T = 4, z-chunk 8 under each minimum of blocks an SM in MB.
template <class real, int R, int... MB>
void try_lab_bounds(Arrays<real>& a, float copy_ms, std::integer_sequence<int, MB...>) {
    (try_lab<real, R, 4, MB>(a, 8, copy_ms), ...);
}

// What a run measures: the variants below; with `ring` also the asynchronous ring and the wider
// blocks (round d of docs/results/h100-zmarch-variants-512-*.txt); `bounds` only the lab's kernel
// under register caps; `unroll` only the lab's kernel with its march unrolled.
enum class Mode { variants, ring, bounds, unroll };

// The variants of one (precision, r): the lab's kernel and the designs beside it, as `mode` says.
template <class real, int R>
void variants(Arrays<real>& a, float copy_ms, Mode mode) {
    const bool ring = mode == Mode::ring;
    constexpr int V = 16 / sizeof(real);
    try_lab<real, R, 8>(a, 16, copy_ms);
    try_lab<real, R, 4>(a, 16, copy_ms);
    try_lab<real, R, 4>(a, 8, copy_ms);  // tune's pick at r = 1, the row's default
    if (mode == Mode::unroll) {
        try_lab<real, R, 4, 0, 8>(a, 8, copy_ms);
        try_lab<real, R, 4, 0, 2 * (2 * R + 1)>(a, 16, copy_ms);
        try_lab<real, R, 4, 0, 2 * (2 * R + 1)>(a, 2 * (2 * R + 1), copy_ms);
        try_lab<real, R, 8, 0, 8>(a, 8, copy_ms);
        try_lab<real, R, 4, 1, 8>(a, 8, copy_ms);
        return;
    }
    if (mode == Mode::bounds) {
        // The same with other register caps: __launch_bounds__' minimum blocks an SM of 128
        // threads, 1 (no cap) to 16 (the SM's 64 warps; 32 registers).
        try_lab_bounds<real, R>(a, copy_ms, std::integer_sequence<int, 1, 4, 6, 8, 10, 12, 16>{});
        return;
    }
    try_zmarch<real, R, V, 32, 8, XY::none, 1>(a, "z-copy", 16, copy_ms);
    try_zmarch<real, R, V, 32, 8, XY::none, 2>(a, "z-copy", 16, copy_ms);
    try_zmarch<real, R, V, 32, 4, XY::shuffle_x_shared_y, 1>(a, "smem-y", 8, copy_ms);
    try_zmarch<real, R, V, 32, 4, XY::shuffle_x_shared_y, 2>(a, "smem-y", 8, copy_ms);
    // Cache hints (march_common.cuh): evict-first stores, non-coherent loads, both.
    try_zmarch<real, R, V, 32, 4, XY::shuffle_x_shared_y, 1, zmarch::kStoreEvictFirst>(a, "smem-y", 8, copy_ms);
    try_zmarch<real, R, V, 32, 4, XY::shuffle_x_shared_y, 1, zmarch::kLoadNonCoherent>(a, "smem-y", 8, copy_ms);
    try_zmarch<real, R, V, 32, 4, XY::shuffle_x_shared_y, 1, zmarch::kStoreEvictFirst | zmarch::kLoadNonCoherent>(
        a, "smem-y", 8, copy_ms);
    try_zmarch<real, R, V, 32, 8, XY::none, 1, zmarch::kStoreEvictFirst>(a, "z-copy", 16, copy_ms);
    if (!ring) return;
    try_lab<real, R, 16>(a, 16, copy_ms);
    try_zmarch<real, R, V, 32, 8, XY::shuffle_x_shared_y, 1>(a, "smem-y", 16, copy_ms);
    try_zmarch<real, R, V, 32, 8, XY::shuffle_x_shared_y, 2>(a, "smem-y", 16, copy_ms);
    if constexpr (sizeof(real) == 8) try_zmarch<real, R, 1, 32, 8, XY::shuffle_x_shared_y, 1>(a, "smem-y", 16, copy_ms);
    try_ring<real, R, 4, 1>(a, 8, copy_ms);
    try_ring<real, R, 4, 2>(a, 8, copy_ms);
    try_ring<real, R, 4, 3>(a, 8, copy_ms);
    try_ring<real, R, 8, 1>(a, 16, copy_ms);
    try_ring<real, R, 8, 2>(a, 16, copy_ms);
    try_ring<real, R, 8, 2>(a, 8, copy_ms);
    try_ring<real, R, 8, 3>(a, 16, copy_ms);
    try_ring<real, R, 8, 2>(a, 32, copy_ms);
    try_ring<real, R, 16, 2>(a, 16, copy_ms);
}

template <class real, int R>
void suite(int n, Mode mode) {
    Arrays<real> a;
    a.n = n;
    a.bytes = size_t(n) * n * n * sizeof(real);
    CHECK_CUDA(cudaMalloc(&a.in, a.bytes));
    CHECK_CUDA(cudaMalloc(&a.out, a.bytes));
    CHECK_CUDA(cudaMalloc(&a.expected, a.bytes));
    std::vector<real> host(a.bytes / sizeof(real));
    unsigned s = 12345;
    for (auto& v : host) s = s * 1664525u + 1013904223u, v = real((s >> 8) & 0xffff) / real(65536);
    CHECK_CUDA(cudaMemcpy(a.in, host.data(), a.bytes, cudaMemcpyHostToDevice));
    real w[stencil::kMaxCoefficients];
    for (int c = 0; c < stencil::kMaxCoefficients; ++c) w[c] = real(1.0 / (c + 2));
    if constexpr (sizeof(real) == 4) CHECK_CUDA(cudaMemcpyToSymbol(stencil::c_coefficients_f32, w, sizeof w));
    else CHECK_CUDA(cudaMemcpyToSymbol(stencil::c_coefficients_f64, w, sizeof w));
    CHECK_CUDA(cudaMemset(a.expected, 0, a.bytes));
    reference_kernel<real><<<dim3(n / 32, n / 4, n / 2), dim3(32, 4, 2)>>>(a.in, a.expected, n, n, n, R);
    CHECK_CUDA(cudaDeviceSynchronize());

    const float copy_ms =
        best_ms([&] { CHECK_CUDA(cudaMemcpyAsync(a.out, a.in, a.bytes, cudaMemcpyDeviceToDevice)); });
    std::printf("%s r=%d copy %.3f ms (%.0f GB/s, read + write)\n", sizeof(real) == 4 ? "f32" : "f64", R, copy_ms,
                2.0 * a.bytes / copy_ms / 1e6);
    {
        const long cells = long(n) * n * n;
        const float ms = best_ms([&] { copy_kernel<real><<<132 * 16, 256>>>(a.in, a.out, cells); });
        report<real>("kernel-copy", R, "256 x 2112", 0, ms, copy_ms, -1.0);
    }
    {
        const long cells = long(n) * n * n;
        float ms = best_ms([&] { copy_kernel_ilp<real, 2><<<132 * 16, 256>>>(a.in, a.out, cells); });
        report<real>("copy-ilp2", R, "256 x 2112", 0, ms, copy_ms, -1.0);
        ms = best_ms([&] { copy_kernel_ilp<real, 4><<<132 * 16, 256>>>(a.in, a.out, cells); });
        report<real>("copy-ilp4", R, "256 x 2112", 0, ms, copy_ms, -1.0);
        constexpr int kStores = zmarch::kStoreEvictFirst, kLoads = zmarch::kLoadNonCoherent;
        ms = best_ms([&] { copy_kernel_hinted<real, kStores><<<132 * 16, 256>>>(a.in, a.out, cells); });
        report<real>("copy-st.cs", R, "256 x 2112", 0, ms, copy_ms, -1.0);
        ms = best_ms([&] { copy_kernel_hinted<real, kLoads><<<132 * 16, 256>>>(a.in, a.out, cells); });
        report<real>("copy-ld.nc", R, "256 x 2112", 0, ms, copy_ms, -1.0);
    }
    variants<real, R>(a, copy_ms, mode);
    CHECK_CUDA(cudaFree(a.in));
    CHECK_CUDA(cudaFree(a.out));
    CHECK_CUDA(cudaFree(a.expected));
}

}  // namespace

int main(int argc, char** argv) {
    const int n = argc > 1 ? std::atoi(argv[1]) : 512;
    const std::string how = argc > 2 ? argv[2] : "";
    if (how != "" && how != "ring" && how != "bounds" && how != "unroll") {
        std::fprintf(stderr, "stencil-zmarch-variants: the mode is ring, bounds or unroll (got %s)\n", argv[2]);
        return 2;
    }
    const Mode mode = how == "ring"     ? Mode::ring
                      : how == "bounds" ? Mode::bounds
                      : how == "unroll" ? Mode::unroll
                                        : Mode::variants;
    if (n < 64 || n % 32 != 0 || n > 1024) {
        std::fprintf(stderr, "stencil-zmarch-variants: N must be a multiple of 32 in 64..1024 (got %s)\n", argv[1]);
        return 2;
    }
    cudaDeviceProp prop{};
    CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
    std::printf("%s, N = %d\n", prop.name, n);
    suite<float, 1>(n, mode);
    suite<double, 1>(n, mode);
    suite<float, 2>(n, mode);
    suite<double, 2>(n, mode);
    suite<float, 3>(n, mode);
    suite<double, 3>(n, mode);
    suite<float, 4>(n, mode);
    suite<double, 4>(n, mode);
    return 0;
}
