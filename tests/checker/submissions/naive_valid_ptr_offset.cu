// Correct (valid CUDA that the CPU backend once refused): a row pointer into in[] (no helper function, just a local pointer).
__global__ void stencil_kernel(float* in, float* out, unsigned int N) {
    unsigned int i = blockIdx.z * blockDim.z + threadIdx.z;
    unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1) {
        const float* p = in + (i*N*N + j*N + k);
        out[i*N*N + j*N + k] = c0 * p[0] + c1 * p[-1] + c2 * p[1] + c3 * p[-(int)N] + c4 * p[N] + c5 * p[-(int)(N*N)] + c6 * p[N*N];
    }
}
