// Correct: the first warp of each block loads the whole tile and hands it to the other warps
// through a flag instead of __syncthreads(): each of its lanes stores its cells, fences
// (__threadfence_block) and counts itself in with an atomicAdd; every other warp spins on
// atomicAdd(&ready, 0) until all 32 have, fences, then reads the tile. A spinning warp must let
// the loading warp run (on a GPU the warps run at once): the CPU engine yields a warp whose poll
// reads what it read before.
__global__ void stencil_kernel(float *in, float* out, unsigned int N) {
    __shared__ float tile[IN_TILE_DIM][IN_TILE_DIM][IN_TILE_DIM];
    __shared__ int ready;
    const int linear = (threadIdx.z * IN_TILE_DIM + threadIdx.y) * IN_TILE_DIM + threadIdx.x;
    if (linear == 0) ready = 0;
    __syncthreads();
    if (linear < 32) {
        for (int c = linear; c < IN_TILE_DIM * IN_TILE_DIM * IN_TILE_DIM; c += 32) {
            const int tz = c / (IN_TILE_DIM * IN_TILE_DIM), ty = (c / IN_TILE_DIM) % IN_TILE_DIM, tx = c % IN_TILE_DIM;
            const int i = blockIdx.z * OUT_TILE_DIM + tz - 1;
            const int j = blockIdx.y * OUT_TILE_DIM + ty - 1;
            const int k = blockIdx.x * OUT_TILE_DIM + tx - 1;
            if (i >= 0 && i < N && j >= 0 && j < N && k >= 0 && k < N) tile[tz][ty][tx] = in[i*N*N + j*N + k];
        }
        __threadfence_block();
        atomicAdd(&ready, 1);
    } else {
        while (atomicAdd(&ready, 0) < 32) {
        }
        __threadfence_block();
    }
    const int i = blockIdx.z * OUT_TILE_DIM + threadIdx.z - 1;
    const int j = blockIdx.y * OUT_TILE_DIM + threadIdx.y - 1;
    const int k = blockIdx.x * OUT_TILE_DIM + threadIdx.x - 1;
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1 &&
        threadIdx.z >= 1 && threadIdx.z < IN_TILE_DIM - 1 && threadIdx.y >= 1 && threadIdx.y < IN_TILE_DIM - 1 &&
        threadIdx.x >= 1 && threadIdx.x < IN_TILE_DIM - 1) {
        out[i*N*N + j*N + k] = c0 * tile[threadIdx.z][threadIdx.y][threadIdx.x]
                             + c1 * tile[threadIdx.z][threadIdx.y][threadIdx.x - 1]
                             + c2 * tile[threadIdx.z][threadIdx.y][threadIdx.x + 1]
                             + c3 * tile[threadIdx.z][threadIdx.y - 1][threadIdx.x]
                             + c4 * tile[threadIdx.z][threadIdx.y + 1][threadIdx.x]
                             + c5 * tile[threadIdx.z - 1][threadIdx.y][threadIdx.x]
                             + c6 * tile[threadIdx.z + 1][threadIdx.y][threadIdx.x];
    }
}
