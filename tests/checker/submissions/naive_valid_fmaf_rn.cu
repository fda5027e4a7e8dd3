// Correct (valid CUDA that the CPU backend once refused): the round-to-nearest FMA intrinsic.
__global__ void stencil_kernel(float* in, float* out, unsigned int N) {
    unsigned int i = blockIdx.z * blockDim.z + threadIdx.z;
    unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1) {
        unsigned int c = i*N*N + j*N + k;
        float s = c0 * in[c];
        s = __fmaf_rn(c1, in[c - 1], s);
        s = __fmaf_rn(c2, in[c + 1], s);
        s = __fmaf_rn(c3, in[c - N], s);
        s = __fmaf_rn(c4, in[c + N], s);
        s = __fmaf_rn(c5, in[c - N*N], s);
        s = __fmaf_rn(c6, in[c + N*N], s);
        out[c] = s;
    }
}
