// Wrong: writes one cell before out[] through an alias made by casts: out_of_bounds_write (the
// GPU's guard zone changes; the CPU backend stops the store before it happens).
__global__ void stencil_kernel(float* in, float* out, unsigned int N) {
    unsigned int i = blockIdx.z * blockDim.z + threadIdx.z;
    unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1) {
        unsigned int c = i*N*N + j*N + k;
        out[c] = c0 * in[c] + c1 * in[c - 1] + c2 * in[c + 1] + c3 * in[c - N] + c4 * in[c + N]
               + c5 * in[c - N*N] + c6 * in[c + N*N];
        if (c == N*N + N + 1) {
            char* bytes = reinterpret_cast<char*>(out);
            *reinterpret_cast<float*>(bytes - sizeof(float)) = 0.0f;
        }
    }
}
