// stencil-temporal-variants: the lab's temporal blocking (kernels/temporal.cuh) against a design
// that differs from it in one idea, on the GPU. Issue 13 asks for >= 1.5x the copy-equivalent
// rate (cells updated per second, one update counted as one read and one write of a cell) on the
// 7-point stencil in fp32; this program is the evidence for the kernel's design.
//
//   stencil-temporal-variants [N]      (default 512; fp32 and fp64, r = 1 and 2, K = 1..4)
//
//   lab          kernels/temporal.cuh as it is: a step is K phases (publish level t-1's plane,
//                barrier, compute level t), K barriers a plane (two at K = 1);
//   one-barrier  every value a step publishes is already in the registers when the step starts
//                (level t-1's centre plane was computed R steps before), so all K planes are
//                published at once, into a double-buffered shared tile: one barrier a plane.
//
// Each result is checked against K launches of a plain one-thread-per-cell kernel (cells within r
// of a face keep their value, the lab's convention): the same terms in the same order, so the
// expected difference is 0. Each line: best of 10 passes, its copy-equivalent rate as a ratio to
// the device-to-device copy of the same array measured in the same run (K updates per pass).
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "bench/device_timing.cuh"
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

// The one-barrier design (see the file's head). Same names and conventions as temporal.cuh.
// MIN_BLOCKS: blocks per SM the registers must leave room for (__launch_bounds__' second argument):
// 2 keeps a 1024-thread block at 32 registers a thread, so that two blocks share an SM and one
// block's barrier wait is the other's compute time.
template <typename real, int IN_TILE_DIM, int R, int K, int MIN_BLOCKS = 1>
__global__ void __launch_bounds__(IN_TILE_DIM * IN_TILE_DIM, MIN_BLOCKS)
one_barrier_kernel(const real* __restrict__ in, real* __restrict__ out, int nx, int ny, int nz) {
    constexpr int HALO = R * K;
    constexpr int OUT_TILE_DIM = IN_TILE_DIM - 2 * HALO;
    static_assert(OUT_TILE_DIM >= 1, "the tile must be wider than its K halos");
    __shared__ real level_s[2][K][IN_TILE_DIM][IN_TILE_DIM];
    real queue[K][2 * R + 1];
#pragma unroll
    for (int t = 0; t < K; ++t)
#pragma unroll
        for (int q = 0; q <= 2 * R; ++q) queue[t][q] = real(0);

    const int ty = threadIdx.y, tx = threadIdx.x;
    const int j = (int)blockIdx.y * OUT_TILE_DIM - HALO + ty;
    const int k = (int)blockIdx.x * OUT_TILE_DIM - HALO + tx;
    const bool inside_xy = j >= 0 && j < ny && k >= 0 && k < nx;
    const bool interior_xy = j >= R && j < ny - R && k >= R && k < nx - R;
    const int sy = nx, sz = nx * ny;
    const int c_xy = j * sy + k;
    auto in_band = [&](int t) {
        return ty >= t * R && ty < IN_TILE_DIM - t * R && tx >= t * R && tx < IN_TILE_DIM - t * R;
    };
    const int zChunk = (nz + (int)gridDim.z - 1) / (int)gridDim.z;
    const int zFirst = (int)blockIdx.z * zChunk;
    const int iBegin = zFirst > R ? zFirst : R;
    const int iEnd = zFirst + zChunk < nz - R ? zFirst + zChunk : nz - R;
    if (iBegin >= iEnd) return;
    const int pBegin = iBegin - HALO > 0 ? iBegin - HALO : 0;
    const int pEnd = iEnd + HALO;

    real next = inside_xy ? in[pBegin * sz + c_xy] : real(0);
    for (int p = pBegin; p < pEnd; ++p) {
        const int buf = (p - pBegin) & 1;
        // Level t's plane p - (t + 1) R, which level t + 1 computes in this step, is queue[t][R + 1]
        // before this step's pushes: all K planes go up at once.
#pragma unroll
        for (int t = 0; t < K; ++t)
            if (in_band(t)) level_s[buf][t][ty][tx] = queue[t][R + 1];
        __syncthreads();  // one barrier a plane: the other buffer is written in the next step

        stencil::temporal_push<real, R>(queue[0], next);
        next = real(0);
        if (inside_xy && p + 1 < nz && p + 1 < pEnd) next = in[(p + 1) * sz + c_xy];
#pragma unroll
        for (int t = 1; t <= K; ++t) {
            const int i = p - t * R;
            real v = queue[t - 1][R];
            if (in_band(t) && interior_xy && i >= R && i < nz - R)
                v = stencil::temporal_star<real, IN_TILE_DIM, R>(queue[t - 1], level_s[buf][t - 1], ty, tx);
            if (t < K) {
                stencil::temporal_push<real, R>(queue[t], v);
            } else if (in_band(K) && interior_xy && i >= iBegin && i < iEnd) {
                out[i * sz + c_xy] = v;
            }
        }
    }
}


template <class real>
struct Arrays {
    int n = 0;
    size_t bytes = 0;
    real *in = nullptr, *out = nullptr, *expected[5] = {};  // expected[K]: K reference steps
};


template <class real, int R, int T, int K, bool kOneBarrier, int MIN_BLOCKS = 1>
void try_temporal(Arrays<real>& a, int chunk, float copy_ms) {
    const int n = a.n, out_tile = T - 2 * R * K;
    const dim3 block(T, T), grid((n + out_tile - 1) / out_tile, (n + out_tile - 1) / out_tile, (n + chunk - 1) / chunk);
    // Boundary cells are the input's (the kernels never write them): start from a copy.
    CHECK_CUDA(cudaMemcpy(a.out, a.in, a.bytes, cudaMemcpyDeviceToDevice));
    const float ms = best_ms([&] {
        if constexpr (kOneBarrier) one_barrier_kernel<real, T, R, K, MIN_BLOCKS><<<grid, block>>>(a.in, a.out, n, n, n);
        else stencil::stencil_temporal_kernel<real, T, R, K, const real*, real*><<<grid, block>>>(a.in, a.out, n, n, n);
    });
    const double diff = max_difference(a.out, a.expected[K], a.bytes);
    const void* f = nullptr;
    if constexpr (kOneBarrier) f = (const void*)one_barrier_kernel<real, T, R, K, MIN_BLOCKS>;
    else f = (const void*)stencil::stencil_temporal_kernel<real, T, R, K, const real*, real*>;
    cudaFuncAttributes attr{};
    CHECK_CUDA(cudaFuncGetAttributes(&attr, f));
    int per_sm = 0;
    CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, f, T * T, 0));
    std::printf("%s r=%d %-11s T=%2d K=%d min %d chunk %3d  %7.3f ms  copy-equivalent %.3f  regs %3d spill %4zu B "
                "blocks/SM %d  max diff %.2g\n",
                sizeof(real) == 4 ? "f32" : "f64", R, kOneBarrier ? "one-barrier" : "lab", T, K, MIN_BLOCKS, chunk, ms,
                K * copy_ms / ms, attr.numRegs, attr.localSizeBytes, per_sm, diff);
}

template <class real, int R>
void suite(int n) {
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
    for (int k = 1; k <= 4; ++k)
        reference_step<real><<<dim3(n / 32, n / 4, n / 2), dim3(32, 4, 2)>>>(a.expected[k - 1], a.expected[k], n, n,
                                                                              n, R);
    CHECK_CUDA(cudaDeviceSynchronize());

    const float copy_ms =
        best_ms([&] { CHECK_CUDA(cudaMemcpyAsync(a.out, a.in, a.bytes, cudaMemcpyDeviceToDevice)); });
    std::printf("%s r=%d copy %.3f ms (%.0f GB/s, read + write)\n", sizeof(real) == 4 ? "f32" : "f64", R, copy_ms,
                2.0 * a.bytes / copy_ms / 1e6);
    try_temporal<real, R, 32, 1, false>(a, 128, copy_ms);
    try_temporal<real, R, 32, 1, true>(a, 128, copy_ms);
    try_temporal<real, R, 32, 2, false>(a, 128, copy_ms);
    try_temporal<real, R, 32, 2, true>(a, 128, copy_ms);
    try_temporal<real, R, 32, 2, true, 2>(a, 128, copy_ms);
    try_temporal<real, R, 32, 3, false>(a, 128, copy_ms);
    try_temporal<real, R, 32, 3, true>(a, 128, copy_ms);
    try_temporal<real, R, 32, 3, true, 2>(a, 128, copy_ms);
    if constexpr (sizeof(real) == 4 || R == 1) {  // fp64 T = 32, K = 4: 64 KiB of static shared memory
        if constexpr (sizeof(real) == 4) {
            try_temporal<real, R, 32, 4, true>(a, 128, copy_ms);
            try_temporal<real, R, 32, 4, true, 2>(a, 128, copy_ms);
        }
        try_temporal<real, R, 32, 4, false>(a, 128, copy_ms);
    }
    try_temporal<real, R, 16, 2, true>(a, 128, copy_ms);
    try_temporal<real, R, 16, 2, false>(a, 128, copy_ms);
    try_temporal<real, R, 16, 3, true>(a, 128, copy_ms);
    try_temporal<real, R, 24, 3, true, 2>(a, 128, copy_ms);
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
    suite<float, 1>(n);
    suite<double, 1>(n);
    suite<float, 2>(n);
    suite<double, 2>(n);
    return 0;
}
