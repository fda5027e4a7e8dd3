// Correct: __device__ arrays of pointers initialised with addresses of other __device__ arrays
// (address initialisers: the module's loader must relocate them). The stencil's offsets live in
// three __device__ arrays, found through a table of pointers to them.
__device__ int dx[7] = {0, -1, 1, 0, 0, 0, 0};
__device__ int dy[7] = {0, 0, 0, -1, 1, 0, 0};
__device__ int dz[7] = {0, 0, 0, 0, 0, -1, 1};
__device__ int* offsets[3] = {dx, dy, dz};

__global__ void stencil_kernel(float* in, float* out, unsigned int N) {
    __shared__ float tile[IN_TILE_DIM][IN_TILE_DIM][IN_TILE_DIM];
    const int i = blockIdx.z * OUT_TILE_DIM + threadIdx.z - 1;
    const int j = blockIdx.y * OUT_TILE_DIM + threadIdx.y - 1;
    const int k = blockIdx.x * OUT_TILE_DIM + threadIdx.x - 1;
    if (i >= 0 && i < N && j >= 0 && j < N && k >= 0 && k < N) tile[threadIdx.z][threadIdx.y][threadIdx.x] = in[i*N*N + j*N + k];
    __syncthreads();
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1 &&
        threadIdx.z >= 1 && threadIdx.z < IN_TILE_DIM - 1 && threadIdx.y >= 1 && threadIdx.y < IN_TILE_DIM - 1 &&
        threadIdx.x >= 1 && threadIdx.x < IN_TILE_DIM - 1) {
        const float w[7] = {c0, c1, c2, c3, c4, c5, c6};
        float sum = 0.0f;
        for (int t = 0; t < 7; ++t)
            sum += w[t] * tile[threadIdx.z + offsets[2][t]][threadIdx.y + offsets[1][t]][threadIdx.x + offsets[0][t]];
        out[i*N*N + j*N + k] = sum;
    }
}
