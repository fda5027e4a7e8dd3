// Correct: the stencil in a __device__ helper that takes `const float*` (in) and `float*` (out),
// as any CUDA code may.
__device__ float star(const float* p, unsigned int c, unsigned int N) {
    return c0 * p[c] + c1 * p[c - 1] + c2 * p[c + 1] + c3 * p[c - N] + c4 * p[c + N]
         + c5 * p[c - N*N] + c6 * p[c + N*N];
}

__device__ void store(float* o, unsigned int c, float v) { o[c] = v; }

__global__ void stencil_kernel(const float* in, float* out, unsigned int N) {
    unsigned int i = blockIdx.z * blockDim.z + threadIdx.z;
    unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1)
        store(out, i*N*N + j*N + k, star(in, i*N*N + j*N + k, N));
}
