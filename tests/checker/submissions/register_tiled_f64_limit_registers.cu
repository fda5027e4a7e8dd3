// GPU limits: correct values, but too many registers for the exercise's 32x32 block. The thread
// prefetches its whole z column (IN_TILE_DIM doubles) into a fully unrolled register array before
// marching, to have every load in flight at once. ptxas gives it more than 64 registers per
// thread for sm_90; 1024 threads x that exceeds the SM's 64 Ki registers and a GPU refuses the
// launch ("too many resources requested for launch").
__global__ void stencil_kernel(double* in, double* out, unsigned int N) {
    const int iStart = blockIdx.z * OUT_TILE_DIM;
    const int j = blockIdx.y * OUT_TILE_DIM + threadIdx.y - 1;
    const int k = blockIdx.x * OUT_TILE_DIM + threadIdx.x - 1;
    const bool column = j >= 0 && j < N && k >= 0 && k < N;
    double col[IN_TILE_DIM];
#pragma unroll
    for (int d = 0; d < IN_TILE_DIM; ++d) {
        const int i = iStart - 1 + d;
        col[d] = (column && i >= 0 && i < N) ? in[(size_t)i * N * N + j * N + k] : 0.0;
    }
    __shared__ double plane[IN_TILE_DIM][IN_TILE_DIM];
#pragma unroll
    for (int d = 1; d < IN_TILE_DIM - 1; ++d) {
        const int i = iStart - 1 + d;
        __syncthreads();
        plane[threadIdx.y][threadIdx.x] = col[d];
        __syncthreads();
        if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1 &&
            threadIdx.y >= 1 && threadIdx.y < IN_TILE_DIM - 1 && threadIdx.x >= 1 && threadIdx.x < IN_TILE_DIM - 1) {
            double sum = c0 * col[d];
            sum += c1 * plane[threadIdx.y][threadIdx.x - 1];
            sum += c2 * plane[threadIdx.y][threadIdx.x + 1];
            sum += c3 * plane[threadIdx.y - 1][threadIdx.x];
            sum += c4 * plane[threadIdx.y + 1][threadIdx.x];
            sum += c5 * col[d - 1];
            sum += c6 * col[d + 1];
            out[(size_t)i * N * N + j * N + k] = sum;
        }
    }
}
