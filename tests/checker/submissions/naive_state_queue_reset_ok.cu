// Correct: the work queue of naive_state_work_queue.cu, with the CUDA Programming Guide's
// last-block pattern (__threadfence, then an atomicInc ticket): the block that finishes last puts
// the queue back to 0, and atomicInc wraps the ticket counter to 0, so every launch of the module
// starts from the same state.
__device__ unsigned int next_tile = 0;
__device__ unsigned int blocks_done = 0;

__global__ void stencil_kernel(float* in, float* out, unsigned int N) {
    __shared__ unsigned int tile;
    const unsigned int tiles = gridDim.x * gridDim.y * gridDim.z;
    const bool leader = threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0;
    for (;;) {
        if (leader) tile = atomicAdd(&next_tile, 1u);
        __syncthreads();
        const unsigned int t = tile;
        __syncthreads();
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
    if (leader) {
        __threadfence();
        const unsigned int ticket = atomicInc(&blocks_done, tiles - 1);  // wraps to 0 after the last
        if (ticket == tiles - 1) atomicExch(&next_tile, 0u);
    }
}
