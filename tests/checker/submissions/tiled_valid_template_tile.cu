// Correct: the stencil in a template over the tile's width that takes the shared tile by
// reference, `float (&)[T][T][T]`, and a helper that loads through a `float*` into it.
template <int T>
__device__ float star(float (&tile)[T][T][T], int z, int y, int x) {
    return c0 * tile[z][y][x] + c1 * tile[z][y][x - 1] + c2 * tile[z][y][x + 1]
         + c3 * tile[z][y - 1][x] + c4 * tile[z][y + 1][x] + c5 * tile[z - 1][y][x]
         + c6 * tile[z + 1][y][x];
}

__device__ void load(float* cell, const float* in, int at) { *cell = in[at]; }

__global__ void stencil_kernel(float *in, float* out, unsigned int N) {
    __shared__ float tile[IN_TILE_DIM][IN_TILE_DIM][IN_TILE_DIM];
    int i = blockIdx.z * OUT_TILE_DIM + threadIdx.z - 1;
    int j = blockIdx.y * OUT_TILE_DIM + threadIdx.y - 1;
    int k = blockIdx.x * OUT_TILE_DIM + threadIdx.x - 1;
    if (i >= 0 && i < N && j >= 0 && j < N && k >= 0 && k < N)
        load(&tile[threadIdx.z][threadIdx.y][threadIdx.x], in, i*N*N + j*N + k);
    __syncthreads();
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1 &&
        threadIdx.z >= 1 && threadIdx.z < IN_TILE_DIM - 1 &&
        threadIdx.y >= 1 && threadIdx.y < IN_TILE_DIM - 1 &&
        threadIdx.x >= 1 && threadIdx.x < IN_TILE_DIM - 1)
        out[i*N*N + j*N + k] = star<IN_TILE_DIM>(tile, threadIdx.z, threadIdx.y, threadIdx.x);
}
