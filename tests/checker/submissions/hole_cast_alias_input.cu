// Wrong: writes the input through a raw alias obtained by casts (the old CPU path let such an
// alias go untraced). in[] is read-only, through any pointer: input_modified.
__global__ void stencil_kernel(const float* in, float* out, unsigned int N) {
    unsigned int i = blockIdx.z * blockDim.z + threadIdx.z;
    unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1) {
        unsigned int c = i*N*N + j*N + k;
        float s = c0 * in[c] + c1 * in[c - 1] + c2 * in[c + 1] + c3 * in[c - N] + c4 * in[c + N]
                + c5 * in[c - N*N] + c6 * in[c + N*N];
        float* scratch = (float*)(void*)(size_t)in;
        out[c] = s;
        scratch[c] = s;  // "scratch space": the input is gone for the neighbours still to read it
    }
}
