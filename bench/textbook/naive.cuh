// The textbook's naive 3D seven-point stencil (seed 000, "Example: Basic Stencil"), as printed:
// only the indentation is ours. One thread per cell; the launch chooses the block (8x8x8 and
// 32x4x2 in the seed table), ceil(N / block) blocks per axis.
//
// No include guard and no #include: bench/textbook/textbook.cu includes this file inside a
// namespace, where c0..c6 (__constant__ float) are already declared.
__global__ void stencil_kernel(float *in, float *out, unsigned int N) {
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
