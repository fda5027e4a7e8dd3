// Correct: the textbook tiled kernel whose barrier is __syncthreads_count (how many threads
// loaded a cell), with __syncthreads_and / __syncthreads_or as later, uniform checks.
__global__ void stencil_kernel(float *in, float* out, unsigned int N) {
    __shared__ float tile[IN_TILE_DIM][IN_TILE_DIM][IN_TILE_DIM];
    int i = blockIdx.z * OUT_TILE_DIM + threadIdx.z - 1;
    int j = blockIdx.y * OUT_TILE_DIM + threadIdx.y - 1;
    int k = blockIdx.x * OUT_TILE_DIM + threadIdx.x - 1;
    const bool loads = i >= 0 && i < N && j >= 0 && j < N && k >= 0 && k < N;
    if (loads) tile[threadIdx.z][threadIdx.y][threadIdx.x] = in[i*N*N + j*N + k];
    const int loaded = __syncthreads_count(loads);
    if (loaded == 0) return;  // every thread of the block sees the same count
    const bool all_loaded = __syncthreads_and(loads);
    const bool any_loaded = __syncthreads_or(loads);
    if (!any_loaded || (all_loaded && loaded != IN_TILE_DIM * IN_TILE_DIM * IN_TILE_DIM)) return;
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1 &&
        threadIdx.z >= 1 && threadIdx.z < IN_TILE_DIM - 1 &&
        threadIdx.y >= 1 && threadIdx.y < IN_TILE_DIM - 1 &&
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
