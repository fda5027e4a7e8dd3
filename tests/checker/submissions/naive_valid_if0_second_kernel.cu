// Correct: the naive kernel, with an older version kept inside #if 0 (a second __global__ the
// preprocessor removes: NVRTC never sees it, so vetting must not count it) and a debug switch
// the submission defines itself.
#define DEBUG_STENCIL 0

#if 0
__global__ void stencil_kernel_v1(float *in, float* out, unsigned int N) {
    out[0] = in[0];
}
#endif

__global__ void stencil_kernel(float *in, float* out, unsigned int N) {
    unsigned int i = blockIdx.z * blockDim.z + threadIdx.z;
    unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1) {
        out[i*N*N + j*N + k] = c0 * in[i*N*N + j*N + k]
                             + c1 * in[i*N*N + j*N + (k - 1)]
                             + c2 * in[i*N*N + j*N + (k + 1)]
                             + c3 * in[i*N*N + (j - 1)*N + k]
                             + c4 * in[i*N*N + (j + 1)*N + k]
                             + c5 * in[(i - 1)*N*N + j*N + k]
                             + c6 * in[(i + 1)*N*N + j*N + k];
    }
}

#if DEBUG_STENCIL
__global__ void dump(const float* out, unsigned int N) {
    printf("%f\n", out[0]);
}
#endif
