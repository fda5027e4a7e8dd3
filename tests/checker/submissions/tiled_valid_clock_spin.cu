// Correct: the textbook tiled kernel that also waits a little with clock64() (a student measuring
// latency): the loop ends once the clock has moved 2000 cycles, and no value depends on it. A
// clock that never advanced would hang it; a monotone one of any speed passes.
__global__ void stencil_kernel(float* in, float* out, unsigned int N) {
    __shared__ float tile[IN_TILE_DIM][IN_TILE_DIM][IN_TILE_DIM];
    const int i = blockIdx.z * OUT_TILE_DIM + threadIdx.z - 1;
    const int j = blockIdx.y * OUT_TILE_DIM + threadIdx.y - 1;
    const int k = blockIdx.x * OUT_TILE_DIM + threadIdx.x - 1;
    if (i >= 0 && i < N && j >= 0 && j < N && k >= 0 && k < N) tile[threadIdx.z][threadIdx.y][threadIdx.x] = in[i*N*N + j*N + k];
    const long long start = clock64();
    while (clock64() - start < 2000) {
    }
    __syncthreads();
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
