// Correct: a flag hand-off between threads of a block through atomics. After one __syncthreads()
// that clears the flag, thread (0,0,0) puts the seven weights into shared memory,
// __threadfence_block(), then sets the flag with atomicExch; every other thread polls it with
// atomicAdd(&flag, 0), __threadfence_block(), then reads the weights.
__global__ void stencil_kernel(float* in, float* out, unsigned int N) {
    __shared__ float tile[IN_TILE_DIM][IN_TILE_DIM][IN_TILE_DIM];
    __shared__ float w[7];
    __shared__ int ready;
    const bool leader = threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0;
    const int i = blockIdx.z * OUT_TILE_DIM + threadIdx.z - 1;
    const int j = blockIdx.y * OUT_TILE_DIM + threadIdx.y - 1;
    const int k = blockIdx.x * OUT_TILE_DIM + threadIdx.x - 1;
    if (leader) ready = 0;
    if (i >= 0 && i < N && j >= 0 && j < N && k >= 0 && k < N) tile[threadIdx.z][threadIdx.y][threadIdx.x] = in[i*N*N + j*N + k];
    __syncthreads();
    if (leader) {
        w[0] = c0; w[1] = c1; w[2] = c2; w[3] = c3; w[4] = c4; w[5] = c5; w[6] = c6;
        __threadfence_block();
        atomicExch(&ready, 1);
    } else {
        while (atomicAdd(&ready, 0) == 0) {
        }
        __threadfence_block();
    }
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1 &&
        threadIdx.z >= 1 && threadIdx.z < IN_TILE_DIM - 1 && threadIdx.y >= 1 && threadIdx.y < IN_TILE_DIM - 1 &&
        threadIdx.x >= 1 && threadIdx.x < IN_TILE_DIM - 1) {
        out[i*N*N + j*N + k] = w[0] * tile[threadIdx.z][threadIdx.y][threadIdx.x]
                             + w[1] * tile[threadIdx.z][threadIdx.y][threadIdx.x - 1]
                             + w[2] * tile[threadIdx.z][threadIdx.y][threadIdx.x + 1]
                             + w[3] * tile[threadIdx.z][threadIdx.y - 1][threadIdx.x]
                             + w[4] * tile[threadIdx.z][threadIdx.y + 1][threadIdx.x]
                             + w[5] * tile[threadIdx.z - 1][threadIdx.y][threadIdx.x]
                             + w[6] * tile[threadIdx.z + 1][threadIdx.y][threadIdx.x];
    }
}
