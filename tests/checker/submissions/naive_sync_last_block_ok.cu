// Correct: the CUDA Programming Guide's last-block pattern. Every block writes its outputs and
// the sum of them into partial[]; then __threadfence() and an atomicInc ticket: the block that
// draws the last ticket reads every other block's partial sum (the fence makes them visible)
// into a grid total. atomicInc wraps the counter back to 0, ready for the next launch.
__device__ float partial[1 << 15];
__device__ float grid_total;
__device__ unsigned int blocks_done = 0;

__global__ void stencil_kernel(float* in, float* out, unsigned int N) {
    __shared__ float block_sum;
    __shared__ bool last;
    const bool leader = threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0;
    const unsigned int b = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    const unsigned int blocks = gridDim.x * gridDim.y * gridDim.z;
    if (leader) block_sum = 0.0f;
    __syncthreads();
    const unsigned int i = blockIdx.z * blockDim.z + threadIdx.z;
    const unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    const unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1) {
        const unsigned int c = i*N*N + j*N + k;
        const float v = c0 * in[c] + c1 * in[c - 1] + c2 * in[c + 1] + c3 * in[c - N] + c4 * in[c + N]
                      + c5 * in[c - N*N] + c6 * in[c + N*N];
        out[c] = v;
        atomicAdd(&block_sum, v);
    }
    __syncthreads();
    if (leader) {
        partial[b] = block_sum;
        __threadfence();
        last = atomicInc(&blocks_done, blocks - 1) == blocks - 1;
    }
    __syncthreads();
    if (last && leader) {
        float total = 0.0f;
        for (unsigned int p = 0; p < blocks; ++p) total += partial[p];
        grid_total = total;
    }
}
