// Sizes the CPU never ran: correct up to N = 100; for larger grids a "faster path" (one plane
// offset computed once) has the y neighbours' weights swapped. Only a grid past 100 a side shows
// it (the GPU checks N = 127).
__global__ void stencil_kernel(float* in, float* out, unsigned int N) {
    const unsigned int i = blockIdx.z * blockDim.z + threadIdx.z;
    const unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    const unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1) {
        const unsigned int c = i*N*N + j*N + k;
        if (N > 100) {
            const unsigned int plane = N * N;
            out[c] = c0 * in[c] + c1 * in[c - 1] + c2 * in[c + 1] + c4 * in[c - N] + c3 * in[c + N]
                   + c5 * in[c - plane] + c6 * in[c + plane];
        } else {
            out[c] = c0 * in[c] + c1 * in[c - 1] + c2 * in[c + 1] + c3 * in[c - N] + c4 * in[c + N]
                   + c5 * in[c - N*N] + c6 * in[c + N*N];
        }
    }
}
