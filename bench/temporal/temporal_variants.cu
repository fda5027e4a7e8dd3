// stencil-temporal-variants: the lab's temporal blocking (kernels/temporal.cuh) against a design
// that differs from it in one idea, on the GPU. Issue 13 asks for >= 1.5x the copy-equivalent
// rate (cells updated per second, one update counted as one read and one write of a cell) on the
// 7-point stencil in fp32; this program is the evidence for the kernel's design.
//
//   stencil-temporal-variants [N] [strips|pipe|tiles|lean]   (default 512; fp32 and fp64, r = 1
//                                                 and 2, K = 1..4; strips: the strip shapes only;
//                                                 pipe: the strips loading two planes ahead, the
//                                                 march unrolled; tiles: larger tiles, up to K = 5;
//                                                 lean: interior blocks without boundary selects,
//                                                 queues in rotation)
//
//   lab      kernels/temporal.cuh as it is: a warp-wide tile, each thread a strip of 4 rows of 8
//            bytes (2 floats, 1 double); x-neighbours by shuffles, y from the strip's registers
//            and the neighbouring strips' edge rows (dynamic shared memory), two barriers a plane;
//   column   the design before it (bench/temporal/column_kernel.cuh): a T x T block, a thread per
//            column, one shared plane per level, K barriers a plane;
//   strip    the strip design with its shape open (bench/temporal/strip_kernel.cuh): C rows of X
//            cells a thread, a double-buffered edge tile (one barrier a plane); the search that
//            chose the lab's shape.
//
// Each result is checked against K launches of a plain one-thread-per-cell kernel (cells within r
// of a face keep their value, the lab's convention): the same terms in the same order, so the
// expected difference is 0. Each line: best of 10 passes, its copy-equivalent rate as a ratio to
// the device-to-device copy of the same array measured in the same run (K updates per pass).
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench/device_timing.cuh"
#include "kernels/version_rules.h"
#include "bench/temporal/lean_kernel.cuh"
#include "bench/temporal/strip_kernel.cuh"
#include "bench/temporal/column_kernel.cuh"
#include "kernels/temporal.cuh"

namespace {

using bench::best_ms;
using bench::max_difference;


using stencil::coefficient;
using stencil::coefficient_index;
using stencil::XM, stencil::XP, stencil::YM, stencil::YP, stencil::ZM, stencil::ZP;

// One step of the reference: interior cells get the star, boundary cells keep their value.
template <class real>
__global__ void reference_step(const real* in, real* out, int nx, int ny, int nz, int R) {
    const int k = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
    const int i = blockIdx.z * blockDim.z + threadIdx.z;
    if (k >= nx || j >= ny || i >= nz) return;
    const int sy = nx, sz = nx * ny, c = i * sz + j * sy + k;
    if (k < R || j < R || i < R || k >= nx - R || j >= ny - R || i >= nz - R) {
        out[c] = in[c];
        return;
    }
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

template <class real>
struct Arrays {
    int n = 0;
    size_t bytes = 0;
    real *in = nullptr, *out = nullptr, *expected[7] = {};  // expected[K]: K reference steps
};

// The lab's kernel (kLab) on its own launch (kernels/version_rules.h: 32 x T / 4 threads, a tile
// 32 V wide and T tall, its edges in dynamic shared memory), or the column design on T x T threads.
template <class real, int R, int T, int K, bool kLab>
void try_temporal(Arrays<real>& a, int chunk, float copy_ms) {
    const int n = a.n, H = R * K;
    constexpr auto kTemporal = stencil::KernelId::temporal;
    const int out_w = kLab ? stencil::rules::out_width(kTemporal, T, R, sizeof(real), K) : T - 2 * H, out_h = T - 2 * H;
    const dim3 block = kLab ? dim3(stencil::rules::block_side_x(kTemporal, T), stencil::rules::block_side_y(kTemporal, T))
                            : dim3(T, T);
    const int smem = kLab ? (int)stencil::rules::smem_bytes(kTemporal, T, R, sizeof(real), K) : 0;  // dynamic
    const dim3 grid((n + out_w - 1) / out_w, (n + out_h - 1) / out_h, (n + chunk - 1) / chunk);
    // Boundary cells are the input's (the kernels never write them): start from a copy.
    CHECK_CUDA(cudaMemcpy(a.out, a.in, a.bytes, cudaMemcpyDeviceToDevice));
    const void* f = nullptr;
    if constexpr (kLab) f = (const void*)stencil::stencil_temporal_kernel<real, T, R, K>;
    else f = (const void*)bench::column_kernel<real, T, R, K>;
    if (smem > stencil::DeviceLimits{}.max_static_smem_per_block)
        CHECK_CUDA(cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    const float ms = best_ms([&] {
        if constexpr (kLab) stencil::stencil_temporal_kernel<real, T, R, K><<<grid, block, smem>>>(a.in, a.out, n, n, n);
        else bench::column_kernel<real, T, R, K><<<grid, block>>>(a.in, a.out, n, n, n);
    });
    const double diff = max_difference(a.out, a.expected[K], a.bytes);
    cudaFuncAttributes attr{};
    CHECK_CUDA(cudaFuncGetAttributes(&attr, f));
    int per_sm = 0;
    CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, f, block.x * block.y, smem));
    std::printf("%s r=%d %-6s %2dx%-2d       K=%d       chunk %3d  %7.3f ms  copy-equivalent %.3f  regs %3d "
                "spill %4zu B blocks/SM %2d  max diff %.2g\n",
                sizeof(real) == 4 ? "f32" : "f64", R, kLab ? "lab" : "column", kLab ? out_w + 2 * H : T, T, K, chunk, ms,
                K * copy_ms / ms, attr.numRegs, attr.localSizeBytes, per_sm, diff);
}

// One launch of a kernel with dynamic shared memory (the strips' edge tiles) on a tile 32 X by
// BY C: its best time, its difference from K reference steps, registers, spill and blocks an SM.
struct StripRun {
    float ms;
    double diff;
    cudaFuncAttributes attr;
    int per_sm;
};
template <class real, class Kernel>
StripRun run_strips(Arrays<real>& a, Kernel kernel, int out_w, int out_h, int BY, int smem, int chunk, int K) {
    const int n = a.n;
    const dim3 block(32, BY), grid((n + out_w - 1) / out_w, (n + out_h - 1) / out_h, (n + chunk - 1) / chunk);
    CHECK_CUDA(cudaMemcpy(a.out, a.in, a.bytes, cudaMemcpyDeviceToDevice));
    CHECK_CUDA(cudaFuncSetAttribute((const void*)kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    StripRun r{};
    r.ms = best_ms([&] { kernel<<<grid, block, smem>>>(a.in, a.out, n, n, n); });
    r.diff = max_difference(a.out, a.expected[K], a.bytes);
    CHECK_CUDA(cudaFuncGetAttributes(&r.attr, (const void*)kernel));
    CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&r.per_sm, (const void*)kernel, 32 * BY, smem));
    return r;
}

// The strip design (bench/temporal/strip_kernel.cuh): blocks of 32 x BY threads, each owning C
// rows of X cells; the tile is 32 X by BY C. AHEAD and UNROLL: strip_kernel's.
template <class real, int R, int BY, int C, int X, int K, int MIN_BLOCKS = 1, int AHEAD = 1, bool UNROLL = false>
void try_strip(Arrays<real>& a, int chunk, float copy_ms) {
    constexpr int smem = bench::strip_edge_bytes<real, BY, X, R, K>();
    const StripRun r = run_strips(a, bench::strip_kernel<real, BY, C, X, R, K, MIN_BLOCKS, AHEAD, UNROLL>,
                                  32 * X - 2 * R * K, BY * C - 2 * R * K, BY, smem, chunk, K);
    std::printf("%s r=%d strip  %2dx%-2d C=%d X=%d K=%d min %d ahead %d unroll %d chunk %3d  %7.3f ms  "
                "copy-equivalent %.3f  regs %3d spill %4zu B smem %5d B blocks/SM %2d  max diff %.2g\n",
                sizeof(real) == 4 ? "f32" : "f64", R, 32 * X, BY * C, C, X, K, MIN_BLOCKS, AHEAD, int(UNROLL), chunk,
                r.ms, K * copy_ms / r.ms, r.attr.numRegs, r.attr.localSizeBytes, smem, r.per_sm, r.diff);
}

// The lean strips (bench/temporal/lean_kernel.cuh): strip_kernel's shape, interior blocks without
// boundary selects, and (ROTATE) the queues in rotation instead of moved.
template <class real, int R, int BY, int C, int X, int K, bool ROTATE, int MIN_BLOCKS = 1>
void try_lean(Arrays<real>& a, int chunk, float copy_ms) {
    constexpr int smem = bench::lean_edge_bytes<real, BY, C, X, R, K, ROTATE>();
    const StripRun r = run_strips(a, bench::lean_kernel<real, BY, C, X, R, K, ROTATE, MIN_BLOCKS>,
                                  32 * X - 2 * R * K, BY * C - 2 * R * K, BY, smem, chunk, K);
    std::printf("%s r=%d lean   %2dx%-2d C=%d X=%d K=%d min %d rotate %d       chunk %3d  %7.3f ms  "
                "copy-equivalent %.3f  regs %3d spill %4zu B smem %5d B blocks/SM %2d  max diff %.2g\n",
                sizeof(real) == 4 ? "f32" : "f64", R, 32 * X, BY * C, C, X, K, MIN_BLOCKS, int(ROTATE), chunk, r.ms,
                K * copy_ms / r.ms, r.attr.numRegs, r.attr.localSizeBytes, smem, r.per_sm, r.diff);
}

// Each lean shape beside the strip of the same shape: what the fast path and the rotation buy.
template <class real, int R>
void lean_suite(Arrays<real>& a, float copy_ms) {
    if constexpr (R == 1 && sizeof(real) == 4) {
        try_strip<real, R, 8, 4, 2, 4>(a, 128, copy_ms);
        try_lean<real, R, 8, 4, 2, 4, false, 2>(a, 128, copy_ms);
        try_lean<real, R, 8, 4, 2, 4, true, 2>(a, 128, copy_ms);
        try_lean<real, R, 8, 4, 2, 4, true>(a, 128, copy_ms);
        try_lean<real, R, 12, 4, 2, 4, false>(a, 128, copy_ms);
        try_lean<real, R, 16, 2, 2, 4, false>(a, 128, copy_ms);
        try_lean<real, R, 16, 2, 2, 4, true>(a, 128, copy_ms);
        try_lean<real, R, 16, 2, 2, 4, true, 2>(a, 128, copy_ms);
        try_lean<real, R, 8, 4, 2, 4, false, 2>(a, 64, copy_ms);
        try_lean<real, R, 8, 4, 2, 5, false, 2>(a, 128, copy_ms);
        try_lean<real, R, 16, 2, 2, 5, false>(a, 128, copy_ms);
    } else if constexpr (R == 1) {
        try_strip<real, R, 16, 2, 2, 4>(a, 128, copy_ms);
        try_lean<real, R, 16, 2, 2, 4, false>(a, 128, copy_ms);
        try_lean<real, R, 16, 2, 2, 4, true>(a, 128, copy_ms);
        try_lean<real, R, 16, 4, 1, 4, false>(a, 128, copy_ms);
        try_lean<real, R, 16, 4, 1, 4, true>(a, 128, copy_ms);
        try_lean<real, R, 12, 4, 1, 4, false>(a, 128, copy_ms);
        try_lean<real, R, 16, 2, 2, 4, false>(a, 64, copy_ms);
        try_lean<real, R, 16, 2, 2, 5, false>(a, 128, copy_ms);
        try_lean<real, R, 16, 2, 2, 3, false>(a, 128, copy_ms);
    } else if constexpr (sizeof(real) == 4) {
        try_strip<real, R, 8, 4, 2, 2>(a, 128, copy_ms);
        try_lean<real, R, 8, 4, 2, 2, false, 2>(a, 128, copy_ms);
        try_lean<real, R, 8, 4, 2, 2, true>(a, 128, copy_ms);
        try_lean<real, R, 16, 2, 2, 2, false>(a, 128, copy_ms);
        try_lean<real, R, 8, 4, 2, 3, false>(a, 128, copy_ms);
    } else {
        try_strip<real, R, 16, 4, 1, 2>(a, 128, copy_ms);
        try_lean<real, R, 16, 4, 1, 2, false>(a, 128, copy_ms);
        try_lean<real, R, 16, 4, 1, 2, true>(a, 128, copy_ms);
        try_lean<real, R, 16, 2, 2, 2, false>(a, 128, copy_ms);
    }
}

// The pipelined strips: loads two planes ahead, the march unrolled, tiles past 48 KiB of edges.
template <class real, int R>
void pipe_suite(Arrays<real>& a, float copy_ms) {
    if constexpr (R == 1 && sizeof(real) == 4) {
        try_strip<real, R, 8, 4, 2, 4>(a, 128, copy_ms);  // the strips suite's best
        try_strip<real, R, 8, 4, 2, 4, 1, 2>(a, 128, copy_ms);
        try_strip<real, R, 8, 4, 2, 4, 1, 1, true>(a, 128, copy_ms);
        try_strip<real, R, 8, 4, 2, 4, 1, 2, true>(a, 128, copy_ms);
        try_strip<real, R, 8, 4, 2, 4, 2, 2, true>(a, 128, copy_ms);
        try_strip<real, R, 16, 4, 2, 4, 1, 2, true>(a, 128, copy_ms);
        try_strip<real, R, 16, 4, 2, 4, 1, 2, true>(a, 256, copy_ms);
        try_strip<real, R, 8, 4, 2, 5, 1, 2, true>(a, 128, copy_ms);
        try_strip<real, R, 8, 4, 2, 6, 1, 2, true>(a, 128, copy_ms);
        try_strip<real, R, 8, 8, 2, 4, 1, 2, true>(a, 128, copy_ms);
        try_strip<real, R, 16, 2, 4, 4, 1, 2, true>(a, 128, copy_ms);
        try_strip<real, R, 8, 4, 4, 4, 1, 2, true>(a, 128, copy_ms);
    } else if constexpr (R == 1) {
        try_strip<real, R, 8, 4, 1, 3>(a, 128, copy_ms);
        try_strip<real, R, 8, 4, 1, 3, 1, 2, true>(a, 128, copy_ms);
        try_strip<real, R, 16, 4, 1, 3, 1, 2, true>(a, 128, copy_ms);
        try_strip<real, R, 8, 4, 1, 4, 1, 2, true>(a, 128, copy_ms);
        try_strip<real, R, 16, 4, 1, 4, 1, 2, true>(a, 128, copy_ms);
        try_strip<real, R, 8, 4, 2, 3, 1, 2, true>(a, 128, copy_ms);
        try_strip<real, R, 8, 4, 2, 4, 1, 2, true>(a, 128, copy_ms);
        try_strip<real, R, 16, 2, 2, 3, 1, 2, true>(a, 128, copy_ms);
    } else if constexpr (sizeof(real) == 4) {
        try_strip<real, R, 8, 4, 2, 2>(a, 128, copy_ms);
        try_strip<real, R, 8, 4, 2, 2, 1, 2, true>(a, 128, copy_ms);
        try_strip<real, R, 16, 4, 2, 2, 1, 2, true>(a, 128, copy_ms);
        try_strip<real, R, 8, 4, 2, 3, 1, 2, true>(a, 128, copy_ms);
        try_strip<real, R, 8, 8, 2, 2, 1, 2, true>(a, 128, copy_ms);
        try_strip<real, R, 8, 4, 4, 2, 1, 2, true>(a, 128, copy_ms);
    } else {
        try_strip<real, R, 8, 8, 1, 2>(a, 128, copy_ms);
        try_strip<real, R, 8, 4, 1, 2, 1, 2, true>(a, 128, copy_ms);
        try_strip<real, R, 16, 4, 1, 2, 1, 2, true>(a, 128, copy_ms);
        try_strip<real, R, 8, 4, 2, 2, 1, 2, true>(a, 128, copy_ms);
        try_strip<real, R, 8, 8, 1, 2, 1, 2, true>(a, 128, copy_ms);
    }
}

// The strips loading one plane ahead, march not unrolled (what `pipe` showed to be best), on tiles
// whose edges pass 48 KiB or whose blocks hold 16 warps: fewer halo cells per output.
template <class real, int R>
void tile_suite(Arrays<real>& a, float copy_ms) {
    if constexpr (R == 1 && sizeof(real) == 4) {
        try_strip<real, R, 8, 4, 2, 4>(a, 128, copy_ms);
        try_strip<real, R, 16, 4, 2, 4>(a, 128, copy_ms);
        try_strip<real, R, 12, 4, 2, 4>(a, 128, copy_ms);
        try_strip<real, R, 16, 4, 2, 3>(a, 128, copy_ms);
        try_strip<real, R, 16, 2, 4, 4>(a, 128, copy_ms);
        try_strip<real, R, 8, 4, 4, 4>(a, 128, copy_ms);
        try_strip<real, R, 8, 4, 2, 5>(a, 128, copy_ms);
    } else if constexpr (R == 1) {
        try_strip<real, R, 16, 4, 1, 3>(a, 128, copy_ms);
        try_strip<real, R, 16, 4, 1, 4>(a, 128, copy_ms);
        try_strip<real, R, 12, 4, 1, 4>(a, 128, copy_ms);
        try_strip<real, R, 8, 4, 2, 4>(a, 128, copy_ms);
        try_strip<real, R, 16, 2, 2, 4>(a, 128, copy_ms);
        try_strip<real, R, 16, 4, 1, 5>(a, 128, copy_ms);
    } else if constexpr (sizeof(real) == 4) {
        try_strip<real, R, 16, 4, 2, 2>(a, 128, copy_ms);
        try_strip<real, R, 8, 4, 4, 2>(a, 128, copy_ms);
    } else {
        try_strip<real, R, 16, 4, 1, 2>(a, 128, copy_ms);
        try_strip<real, R, 8, 4, 2, 2>(a, 128, copy_ms);
    }
}

template <class real, int R>
void strip_suite(Arrays<real>& a, float copy_ms) {
    if constexpr (R == 1) {
        try_strip<real, R, 8, 8, 1, 1>(a, 128, copy_ms);
        try_strip<real, R, 8, 8, 1, 2>(a, 128, copy_ms);
        try_strip<real, R, 8, 8, 1, 3>(a, 128, copy_ms);
        try_strip<real, R, 8, 8, 1, 3>(a, 64, copy_ms);
        try_strip<real, R, 8, 8, 1, 4>(a, 128, copy_ms);
        try_strip<real, R, 4, 8, 1, 3>(a, 128, copy_ms);
        try_strip<real, R, 16, 4, 1, 3>(a, 128, copy_ms);
        try_strip<real, R, 8, 4, 1, 3>(a, 128, copy_ms);
        try_strip<real, R, 8, 4, 2, 2>(a, 128, copy_ms);
        try_strip<real, R, 8, 4, 2, 3>(a, 128, copy_ms);
        if constexpr (sizeof(real) == 4) try_strip<real, R, 8, 4, 2, 4>(a, 128, copy_ms);  // fp64: 64 KiB
        try_strip<real, R, 8, 8, 2, 3>(a, 128, copy_ms);
        try_strip<real, R, 8, 8, 1, 3, 2>(a, 128, copy_ms);
        try_strip<real, R, 16, 8, 1, 3>(a, 128, copy_ms);
    } else if constexpr (sizeof(real) == 4) {
        try_strip<real, R, 8, 8, 1, 1>(a, 128, copy_ms);
        try_strip<real, R, 8, 8, 1, 2>(a, 128, copy_ms);
        try_strip<real, R, 8, 8, 1, 3>(a, 128, copy_ms);
        try_strip<real, R, 8, 4, 2, 2>(a, 128, copy_ms);
    } else {  // fp64 r = 2: the edge tile is 2 x K x BY x 2r x X x 32 doubles, at most 48 KiB static
        try_strip<real, R, 8, 8, 1, 1>(a, 128, copy_ms);
        try_strip<real, R, 8, 8, 1, 2>(a, 128, copy_ms);
    }
}

template <class real, int R>
void suite(int n, const std::string& mode) {
    Arrays<real> a;
    a.n = n;
    a.bytes = size_t(n) * n * n * sizeof(real);
    CHECK_CUDA(cudaMalloc(&a.in, a.bytes));
    CHECK_CUDA(cudaMalloc(&a.out, a.bytes));
    for (auto& e : a.expected) CHECK_CUDA(cudaMalloc(&e, a.bytes));
    std::vector<real> host(a.bytes / sizeof(real));
    unsigned s = 12345;
    for (auto& v : host) s = s * 1664525u + 1013904223u, v = real((s >> 8) & 0xffff) / real(65536);
    CHECK_CUDA(cudaMemcpy(a.in, host.data(), a.bytes, cudaMemcpyHostToDevice));
    real w[stencil::kMaxCoefficients];
    // Weights summing to about 1, so that 4 steps neither blow up nor vanish.
    for (int c = 0; c < stencil::kMaxCoefficients; ++c) w[c] = real(1.0 / stencil::point_count(R));
    if constexpr (sizeof(real) == 4) CHECK_CUDA(cudaMemcpyToSymbol(stencil::c_coefficients_f32, w, sizeof w));
    else CHECK_CUDA(cudaMemcpyToSymbol(stencil::c_coefficients_f64, w, sizeof w));
    CHECK_CUDA(cudaMemcpy(a.expected[0], a.in, a.bytes, cudaMemcpyDeviceToDevice));
    for (int k = 1; k <= 6; ++k)
        reference_step<real><<<dim3(n / 32, n / 4, n / 2), dim3(32, 4, 2)>>>(a.expected[k - 1], a.expected[k], n, n,
                                                                              n, R);
    CHECK_CUDA(cudaDeviceSynchronize());

    const float copy_ms =
        best_ms([&] { CHECK_CUDA(cudaMemcpyAsync(a.out, a.in, a.bytes, cudaMemcpyDeviceToDevice)); });
    std::printf("%s r=%d copy %.3f ms (%.0f GB/s, read + write)\n", sizeof(real) == 4 ? "f32" : "f64", R, copy_ms,
                2.0 * a.bytes / copy_ms / 1e6);
    if (mode == "pipe") {
        pipe_suite<real, R>(a, copy_ms);
    } else if (mode == "tiles") {
        tile_suite<real, R>(a, copy_ms);
    } else if (mode == "lean") {
        lean_suite<real, R>(a, copy_ms);
    } else if (mode == "strips") {
        strip_suite<real, R>(a, copy_ms);
    } else {
        // The lab at its default T = 48 and z-chunk 64 (kernels/version_rows.cpp), every K that fits;
        // T = 32 and 64 beside, and z-chunks of 128.
        try_temporal<real, R, 48, 1, true>(a, 64, copy_ms);
        try_temporal<real, R, 48, 2, true>(a, 64, copy_ms);
        try_temporal<real, R, 48, 3, true>(a, 64, copy_ms);
        try_temporal<real, R, 48, 3, true>(a, 128, copy_ms);
        if constexpr (R == 1) {
            try_temporal<real, R, 48, 4, true>(a, 64, copy_ms);
            try_temporal<real, R, 48, 4, true>(a, 128, copy_ms);
            try_temporal<real, R, 32, 4, true>(a, 128, copy_ms);
            try_temporal<real, R, 64, 4, true>(a, 64, copy_ms);
        }
        try_temporal<real, R, 32, 2, true>(a, 64, copy_ms);
        try_temporal<real, R, 32, 3, true>(a, 64, copy_ms);
        try_temporal<real, R, 64, 3, true>(a, 64, copy_ms);
        // The column design it replaced, at its own best (T = 32, z-chunk 128).
        try_temporal<real, R, 32, 2, false>(a, 128, copy_ms);
        try_temporal<real, R, 32, 3, false>(a, 128, copy_ms);
        // The lab's shape double-buffered (one barrier a plane): the barrier pair's price.
        if constexpr (sizeof(real) == 4) try_strip<real, R, 12, 4, 2, 3>(a, 64, copy_ms);
        else try_strip<real, R, 12, 4, 1, 3>(a, 64, copy_ms);
    }
    CHECK_CUDA(cudaFree(a.in));
    CHECK_CUDA(cudaFree(a.out));
    for (auto& e : a.expected) CHECK_CUDA(cudaFree(e));
}

}  // namespace

int main(int argc, char** argv) {
    const int n = argc > 1 ? std::atoi(argv[1]) : 512;
    if (n < 64 || n % 32 != 0 || n > 1024) {
        std::fprintf(stderr, "stencil-temporal-variants: N must be a multiple of 32 in 64..1024 (got %s)\n", argv[1]);
        return 2;
    }
    cudaDeviceProp prop{};
    CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
    std::printf("%s, N = %d\n", prop.name, n);
    const std::string mode = argc > 2 ? argv[2] : "";
    if (mode != "" && mode != "strips" && mode != "pipe" && mode != "tiles" && mode != "lean") {
        std::fprintf(stderr, "stencil-temporal-variants: the mode is strips, pipe, tiles or lean (got %s)\n", argv[2]);
        return 2;
    }
    suite<float, 1>(n, mode);
    suite<double, 1>(n, mode);
    suite<float, 2>(n, mode);
    suite<double, 2>(n, mode);
    return 0;
}
