// Wrong only past N = 20: the smallest failing size is not the first failing one tested when a
// size drawn from the seed (tested after the fixed ones) lies between 20 and the next fixed size.
__global__ void stencil_kernel(float* in, float* out, unsigned int N) {
    unsigned int i = blockIdx.z * blockDim.z + threadIdx.z;
    unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1) {
        const float c = c0 * in[i*N*N + j*N + k] + c1 * in[i*N*N + j*N + (k - 1)] + c2 * in[i*N*N + j*N + (k + 1)]
                      + c3 * in[i*N*N + (j - 1)*N + k] + c4 * in[i*N*N + (j + 1)*N + k]
                      + c5 * in[(i - 1)*N*N + j*N + k] + c6 * in[(i + 1)*N*N + j*N + k];
        out[i*N*N + j*N + k] = N > 20 ? 2.0f * c : c;
    }
}
