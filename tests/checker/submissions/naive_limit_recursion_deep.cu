// GPU limits: correct values, but a recursion as deep as the grid is wide. The helper walks from
// the cell to the x = 0 wall one call per cell (each frame keeps the value it passed, and hands
// its address down, so the compiler cannot turn the recursion into a loop). At N = 71 that is 70
// frames, more than the default per-thread stack of 1 KiB holds: a GPU faults at the larger sizes
// (small grids fit).
__device__ __noinline__ unsigned steps_to_wall(const float* p, unsigned k, volatile float* trail) {
    volatile float here[4];
    here[0] = *p;
    here[1] = trail[0];
    if (k == 0) return 0;
    return 1 + steps_to_wall(p - 1, k - 1, here);
}

__global__ void stencil_kernel(float* in, float* out, unsigned int N) {
    const unsigned i = blockIdx.z * blockDim.z + threadIdx.z;
    const unsigned j = blockIdx.y * blockDim.y + threadIdx.y;
    const unsigned k = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1) {
        const unsigned c = i*N*N + j*N + k;
        volatile float start[4] = {0.0f, 0.0f, 0.0f, 0.0f};
        // k steps from x = k to the wall: the test is always true for an interior cell
        if (steps_to_wall(&in[c], k, start) == k)
            out[c] = c0 * in[c] + c1 * in[c - 1] + c2 * in[c + 1] + c3 * in[c - N] + c4 * in[c + N]
                   + c5 * in[c - N*N] + c6 * in[c + N*N];
    }
}
