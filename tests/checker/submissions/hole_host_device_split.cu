// Wrong: a __host__ __device__ helper whose host path is right and whose device path writes
// zeros (the old CPU path compiled the host path). Both backends now run the device code.
__host__ __device__ inline float weight_of(float w) {
#if defined(__CUDA_ARCH__)
    return 0.0f * w;
#else
    return w;
#endif
}

__global__ void stencil_kernel(float* in, float* out, unsigned int N) {
    unsigned int i = blockIdx.z * blockDim.z + threadIdx.z;
    unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1) {
        unsigned int c = i*N*N + j*N + k;
        out[c] = weight_of(c0) * in[c] + weight_of(c1) * in[c - 1] + weight_of(c2) * in[c + 1]
               + weight_of(c3) * in[c - N] + weight_of(c4) * in[c + N]
               + weight_of(c5) * in[c - N*N] + weight_of(c6) * in[c + N*N];
    }
}
