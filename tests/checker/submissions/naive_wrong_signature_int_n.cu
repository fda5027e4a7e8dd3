// Refused: N declared `int` (the contract's is `unsigned int`), behind __launch_bounds__ after
// void, a spelling the old text vetting could not read at all. The kernel's PTX name
// (_Z14stencil_kernelPfS_i) gives the types: one line naming the expected declaration.
__global__ void __launch_bounds__(512) stencil_kernel(float* in, float* out, int N) {
    const int i = blockIdx.z * blockDim.z + threadIdx.z;
    const int j = blockIdx.y * blockDim.y + threadIdx.y;
    const int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1) {
        const int c = i*N*N + j*N + k;
        out[c] = c0 * in[c] + c1 * in[c - 1] + c2 * in[c + 1] + c3 * in[c - N] + c4 * in[c + N]
               + c5 * in[c - N*N] + c6 * in[c + N*N];
    }
}
