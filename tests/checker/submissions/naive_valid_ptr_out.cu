// Correct: a local pointer to the output cell (float* p = &out[c]) and a const row pointer.
__global__ void stencil_kernel(const float* in, float* out, unsigned int N) {
    unsigned int i = blockIdx.z * blockDim.z + threadIdx.z;
    unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1) {
        unsigned int c = i*N*N + j*N + k;
        const float *row = in + (i*N*N + j*N);
        float* o = &out[c];
        *o = c0 * row[k] + c1 * row[k - 1] + c2 * row[k + 1] + c3 * in[c - N] + c4 * in[c + N]
           + c5 * in[c - N*N] + c6 * in[c + N*N];
    }
}
