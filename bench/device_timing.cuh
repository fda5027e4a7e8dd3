// What the variant benches (bench/zmarch/, bench/temporal/) share: a CUDA call checked in one
// line, the best of a few launches timed with events, and the largest |difference| of two device
// arrays (NaN wins, so a NaN is never hidden behind a max).
#pragma once
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK_CUDA(call)                                                                         \
    do {                                                                                         \
        const cudaError_t err_ = (call);                                                         \
        if (err_ != cudaSuccess) {                                                               \
            std::fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err_), __FILE__, \
                         __LINE__);                                                              \
            std::exit(1);                                                                        \
        }                                                                                        \
    } while (0)

namespace bench {

// Best of `reps` launches (after one untimed), in ms.
template <class Launch>
float best_ms(Launch launch, int reps = 10) {
    cudaEvent_t a, b;
    CHECK_CUDA(cudaEventCreate(&a));
    CHECK_CUDA(cudaEventCreate(&b));
    launch();
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaDeviceSynchronize());
    float best = 1e30f;
    for (int r = 0; r < reps; ++r) {
        CHECK_CUDA(cudaEventRecord(a));
        launch();
        CHECK_CUDA(cudaEventRecord(b));
        CHECK_CUDA(cudaEventSynchronize(b));
        float ms = 0;
        CHECK_CUDA(cudaEventElapsedTime(&ms, a, b));
        best = std::fmin(best, ms);
    }
    CHECK_CUDA(cudaEventDestroy(a));
    CHECK_CUDA(cudaEventDestroy(b));
    return best;
}

// max |got - want| over `bytes` of two device arrays of `real`.
template <class real>
double max_difference(const real* got_d, const real* want_d, size_t bytes) {
    const size_t cells = bytes / sizeof(real);
    std::vector<real> got(cells), want(cells);
    CHECK_CUDA(cudaMemcpy(got.data(), got_d, bytes, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(want.data(), want_d, bytes, cudaMemcpyDeviceToHost));
    double worst = 0;
    for (size_t c = 0; c < cells; ++c) {
        const double d = std::fabs(double(got[c]) - double(want[c]));
        if (!(d <= worst)) worst = d;
    }
    return worst;
}

}  // namespace bench
