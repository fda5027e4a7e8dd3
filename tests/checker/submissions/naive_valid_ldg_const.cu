// Correct (valid CUDA that the CPU backend once refused): __ldg on a const float* (the read-only cache idiom).
__global__ void stencil_kernel(const float* __restrict__ in, float* __restrict__ out, unsigned int N) {
    unsigned int i = blockIdx.z * blockDim.z + threadIdx.z;
    unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1) {
        unsigned int c = i*N*N + j*N + k;
        out[c] = c0 * __ldg(&in[c]) + c1 * __ldg(&in[c - 1]) + c2 * __ldg(&in[c + 1])
               + c3 * __ldg(&in[c - N]) + c4 * __ldg(&in[c + N])
               + c5 * __ldg(&in[c - N*N]) + c6 * __ldg(&in[c + N*N]);
    }
}
