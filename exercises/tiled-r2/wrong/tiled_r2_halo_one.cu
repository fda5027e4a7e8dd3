// expect: wrong_result; gpu: wrong_result|race
// Wrong (verdict wrong_result): a one-cell halo is loaded, as for radius 1: the +-2 terms read unloaded cells.
__global__ void stencil_kernel(float *in, float* out, unsigned int N) {
    __shared__ float tile[IN_TILE_DIM][IN_TILE_DIM][IN_TILE_DIM];
    int i = blockIdx.z * OUT_TILE_DIM + threadIdx.z - 2;
    int j = blockIdx.y * OUT_TILE_DIM + threadIdx.y - 2;
    int k = blockIdx.x * OUT_TILE_DIM + threadIdx.x - 2;
    if (threadIdx.z >= 1 && threadIdx.z < IN_TILE_DIM - 1 &&
        threadIdx.y >= 1 && threadIdx.y < IN_TILE_DIM - 1 &&
        threadIdx.x >= 1 && threadIdx.x < IN_TILE_DIM - 1 &&
        i >= 0 && i < N && j >= 0 && j < N && k >= 0 && k < N) {
        tile[threadIdx.z][threadIdx.y][threadIdx.x] = in[i*N*N + j*N + k];
    }
    __syncthreads();
    if (i >= 2 && i < N - 2 && j >= 2 && j < N - 2 && k >= 2 && k < N - 2) {
        if (threadIdx.z >= 2 && threadIdx.z < IN_TILE_DIM - 2 &&
            threadIdx.y >= 2 && threadIdx.y < IN_TILE_DIM - 2 &&
            threadIdx.x >= 2 && threadIdx.x < IN_TILE_DIM - 2) {
            out[i*N*N + j*N + k] = c0 * tile[threadIdx.z][threadIdx.y][threadIdx.x]
                                 + c1 * tile[threadIdx.z][threadIdx.y][threadIdx.x - 1]
                                 + c2 * tile[threadIdx.z][threadIdx.y][threadIdx.x + 1]
                                 + c3 * tile[threadIdx.z][threadIdx.y - 1][threadIdx.x]
                                 + c4 * tile[threadIdx.z][threadIdx.y + 1][threadIdx.x]
                                 + c5 * tile[threadIdx.z - 1][threadIdx.y][threadIdx.x]
                                 + c6 * tile[threadIdx.z + 1][threadIdx.y][threadIdx.x]
                                 + c7 * tile[threadIdx.z][threadIdx.y][threadIdx.x - 2]
                                 + c8 * tile[threadIdx.z][threadIdx.y][threadIdx.x + 2]
                                 + c9 * tile[threadIdx.z][threadIdx.y - 2][threadIdx.x]
                                 + c10 * tile[threadIdx.z][threadIdx.y + 2][threadIdx.x]
                                 + c11 * tile[threadIdx.z - 2][threadIdx.y][threadIdx.x]
                                 + c12 * tile[threadIdx.z + 2][threadIdx.y][threadIdx.x];
        }
    }
}
