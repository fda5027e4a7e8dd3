// Out of bounds: a prefetch two planes ahead ("software pipelining"), its value discarded where
// it falls outside the grid (x + 0 * finite == x). For the last interior plane that reads up to
// N^2 cells past the end of in[]: inside the checker's guard zone, so a GPU (even under
// compute-sanitizer, since the guard belongs to the allocation) sees nothing. It is still a read
// out of bounds of the N^3 cells the kernel was given: the CPU backend reports it.
__global__ void stencil_kernel(float* in, float* out, unsigned int N) {
    const unsigned int i = blockIdx.z * blockDim.z + threadIdx.z;
    const unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    const unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1) {
        const unsigned int c = i*N*N + j*N + k;
        const float ahead = in[c + 2*N*N];
        out[c] = c0 * in[c] + c1 * in[c - 1] + c2 * in[c + 1] + c3 * in[c - N] + c4 * in[c + N]
               + c5 * in[c - N*N] + c6 * in[c + N*N] + 0.0f * fminf(fabsf(ahead), 1.0f);
    }
}
