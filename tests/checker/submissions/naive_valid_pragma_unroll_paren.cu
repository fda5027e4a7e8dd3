// Correct: the naive kernel summing its seven terms in a loop under `#pragma unroll(7)`, the
// parenthesised form the CUDA Programming Guide writes (and NVRTC accepts).
__global__ void stencil_kernel(float *in, float* out, unsigned int N) {
    unsigned int i = blockIdx.z * blockDim.z + threadIdx.z;
    unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1) {
        const unsigned int c = i*N*N + j*N + k;
        const int offset[7] = {0, -1, 1, -(int)N, (int)N, -(int)(N*N), (int)(N*N)};
        const float w[7] = {c0, c1, c2, c3, c4, c5, c6};
        float sum = 0.0f;
#pragma unroll(7)
        for (int t = 0; t < 7; ++t) sum += w[t] * in[c + offset[t]];
        out[c] = sum;
    }
}
