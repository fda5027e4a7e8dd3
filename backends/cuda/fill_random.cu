// The kernel that fills a timing input on the device (a 512^3 grid is too large to draw on the host
// for every timing). No fmt here: fmt's consteval format strings do not pass nvcc in C++20.
#include "backends/cuda/cuda_internal.h"

namespace stencil::cuda_detail {

namespace {

// splitmix64: a good 64-bit mix of (seed, index); the top 53 (or 24) bits give a value in [0, 1).
__device__ inline unsigned long long mix(unsigned long long z) {
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

template <class real>
__global__ void fill_random_kernel(real* data, long long cells, unsigned long long seed) {
    const unsigned long long key = mix(seed);
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < cells;
         i += (long long)gridDim.x * blockDim.x) {
        const double u = (double)(mix(key ^ (unsigned long long)i) >> 11) * 0x1.0p-53;  // [0, 1)
        real v = (real)(2.0 * u - 1.0);
        if (v == real(0)) v = real(0.5);  // never a zero: zeros hide unwritten or misindexed cells
        data[i] = v;
    }
}

}  // namespace

void fill_random(void* data, long long cells, Precision p, unsigned long long seed, cudaStream_t stream) {
    const int threads = 256;
    const long long want = (cells + threads - 1) / threads;
    const int blocks = static_cast<int>(want < 65536 ? (want > 0 ? want : 1) : 65536);
    if (p == Precision::f32)
        fill_random_kernel<float><<<blocks, threads, 0, stream>>>(static_cast<float*>(data), cells, seed);
    else
        fill_random_kernel<double><<<blocks, threads, 0, stream>>>(static_cast<double*>(data), cells, seed);
    check_launch("fill_random_kernel", false);
}

}  // namespace stencil::cuda_detail
