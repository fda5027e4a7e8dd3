// The roofline's compute ceiling, measured rather than taken from a data sheet: every thread runs
// 16 independent FMA chains (enough to hide the FMA pipeline's latency), so the SMs issue FMAs
// at their full rate. FLOPs = 2 per FMA.
#include <cuda_runtime.h>

#include <algorithm>
#include <string>
#include <vector>

#include "backends/cuda/counters.h"
#include "backends/cuda/cuda_internal.h"
#include "backends/cuda/cuda_util.h"

namespace stencil {
namespace {

constexpr int kChains = 16;

template <class real>
__global__ void fma_peak_kernel(real* out, real a, real b, int iters) {
    real x[kChains];
#pragma unroll
    for (int c = 0; c < kChains; ++c) x[c] = real(threadIdx.x + c);
    for (int i = 0; i < iters; ++i) {
#pragma unroll
        for (int c = 0; c < kChains; ++c) x[c] = x[c] * a + b;  // contracted to one FMA
    }
    real sum = 0;
#pragma unroll
    for (int c = 0; c < kChains; ++c) sum += x[c];
    // The store keeps the chains alive; a and b keep the values finite (|a| < 1).
    out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// Best of five timed launches after a warm-up. A failed CUDA call is the caller's "no figure".
template <class real>
double fma_gflops(int sms) {
    const int threads = 256, blocks = sms * 16, iters = 4096;
    const cuda_detail::DeviceBuffer out(sizeof(real) * threads * blocks, "FMA peak output");
    cuda_detail::EventPair timer;
    std::vector<double> ms;
    for (int rep = 0; rep < 6; ++rep) {
        timer.start();
        fma_peak_kernel<real><<<blocks, threads>>>(static_cast<real*>(out.get()), real(0.999), real(0.001), iters);
        timer.stop();
        cuda_detail::check_launch("the FMA peak kernel", true);
        if (rep > 0) ms.push_back(timer.ms());  // the first launch is a warm-up
    }
    const double best = *std::min_element(ms.begin(), ms.end());
    const double flops = 2.0 * kChains * double(iters) * threads * blocks;
    return flops / (best * 1e-3) / 1e9;
}

}  // namespace

std::optional<double> measure_fma_gflops(Precision p, std::string* why) {
    if (auto reason = cuda_unavailable_reason()) {
        if (why) *why = *reason;
        return std::nullopt;
    }
    int dev = 0, sms = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    try {
        return p == Precision::f32 ? fma_gflops<float>(sms) : fma_gflops<double>(sms);
    } catch (const UserError& e) {
        if (why) *why = std::string("the FMA microbenchmark failed: ") + e.what();
        return std::nullopt;
    }
}

}  // namespace stencil
