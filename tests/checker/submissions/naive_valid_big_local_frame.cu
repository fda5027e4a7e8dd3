// Correct: a 4 KiB per-thread scratch array in local memory.
// Its frame is known to ptxas, and a GPU's driver grows the per-thread stack past its default
// 1 KiB for such a launch: only a stack the compiler cannot size (recursion) is held to the limit.
__global__ void stencil_kernel(float* in, float* out, unsigned int N) {
    const unsigned i = blockIdx.z * blockDim.z + threadIdx.z;
    const unsigned j = blockIdx.y * blockDim.y + threadIdx.y;
    const unsigned k = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1) {
        const unsigned c = i*N*N + j*N + k;
        volatile float scratch[1024];  // volatile: kept in memory, as a larger kernel would keep it
        const unsigned base = (c * 7u) % (1024u - 8u);  // somewhere in the array, per thread
        scratch[base + 0] = c0 * in[c];
        scratch[base + 1] = c1 * in[c - 1];
        scratch[base + 2] = c2 * in[c + 1];
        scratch[base + 3] = c3 * in[c - N];
        scratch[base + 4] = c4 * in[c + N];
        scratch[base + 5] = c5 * in[c - N*N];
        scratch[base + 6] = c6 * in[c + N*N];
        float sum = 0.0f;
        for (unsigned t = 0; t < 7; ++t) sum += scratch[base + t];
        out[c] = sum;
    }
}
