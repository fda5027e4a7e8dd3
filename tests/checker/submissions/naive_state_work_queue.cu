// State kept between launches: blocks take their tiles from a __device__ counter (a work queue,
// as persistent-thread kernels do) that nothing resets. The first launch computes every cell; on
// a GPU the counter keeps its value into the next launch of the same module, whose blocks then
// find the queue empty and write nothing.
__device__ unsigned int next_tile = 0;

__global__ void stencil_kernel(float* in, float* out, unsigned int N) {
    __shared__ unsigned int tile;
    const unsigned int tiles = gridDim.x * gridDim.y * gridDim.z;
    const bool leader = threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0;
    for (;;) {
        if (leader) tile = atomicAdd(&next_tile, 1u);
        __syncthreads();
        const unsigned int t = tile;
        __syncthreads();  // everyone has read it before the leader takes the next one
        if (t >= tiles) break;
        const unsigned int bx = t % gridDim.x, by = (t / gridDim.x) % gridDim.y, bz = t / (gridDim.x * gridDim.y);
        const unsigned int i = bz * blockDim.z + threadIdx.z;
        const unsigned int j = by * blockDim.y + threadIdx.y;
        const unsigned int k = bx * blockDim.x + threadIdx.x;
        if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1) {
            const unsigned int c = i*N*N + j*N + k;
            out[c] = c0 * in[c] + c1 * in[c - 1] + c2 * in[c + 1] + c3 * in[c - N] + c4 * in[c + N]
                   + c5 * in[c - N*N] + c6 * in[c + N*N];
        }
    }
}
