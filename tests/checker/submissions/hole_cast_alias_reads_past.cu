// Wrong: reads past the end of in[] through a pointer rebuilt from an integer (the old CPU path
// could not see it; a GPU tolerates it, the value being discarded): the CPU backend
// bounds-checks every address, however it was made.
__global__ void stencil_kernel(float* in, float* out, unsigned int N) {
    unsigned int i = blockIdx.z * blockDim.z + threadIdx.z;
    unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1) {
        unsigned int c = i*N*N + j*N + k;
        const unsigned long long end = (unsigned long long)(in + N*N*N);
        const float past = *(const float*)(end + 16);
        out[c] = c0 * in[c] + c1 * in[c - 1] + c2 * in[c + 1] + c3 * in[c - N] + c4 * in[c + N]
               + c5 * in[c - N*N] + c6 * in[c + N*N] + 0.0f * fminf(fabsf(past), 1.0f);
    }
}
