// GPU limits: correct values, but the kernel cannot be launched with the exercise's 8x8x8 block.
// Each thread keeps a 3x7x7 window of the tile in a fully unrolled register array (a student
// preparing a wider stencil) and folds it into a checksum that cannot change the output
// (x + 0 * finite == x). ptxas gives it more than 128 registers per thread for sm_90; 512 threads
// x that exceeds the SM's 64 Ki registers, so the launch fails ("too many resources requested").
__global__ void stencil_kernel(float* in, float* out, unsigned int N) {
    __shared__ float tile[IN_TILE_DIM][IN_TILE_DIM][IN_TILE_DIM];
    const int i = blockIdx.z * OUT_TILE_DIM + threadIdx.z - 1;
    const int j = blockIdx.y * OUT_TILE_DIM + threadIdx.y - 1;
    const int k = blockIdx.x * OUT_TILE_DIM + threadIdx.x - 1;
    if (i >= 0 && i < N && j >= 0 && j < N && k >= 0 && k < N) tile[threadIdx.z][threadIdx.y][threadIdx.x] = in[i*N*N + j*N + k];
    __syncthreads();
    const unsigned last = N * N * N - 1;
    float window[3][7][7];
#pragma unroll
    for (int dz = 0; dz < 3; ++dz)
#pragma unroll
        for (int dy = 0; dy < 7; ++dy)
#pragma unroll
            for (int dx = 0; dx < 7; ++dx) window[dz][dy][dx] = in[min((dz * 7 + dy) * 7u + dx, last)];
    float checksum = 0.0f;
#pragma unroll
    for (int n = 0; n < 3 * 7 * 7; ++n)
        checksum = fmaf(window[n / 49][(n / 7) % 7][n % 7], window[2 - n / 49][6 - (n / 7) % 7][6 - n % 7], checksum * 0.5f);
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1 &&
        threadIdx.z >= 1 && threadIdx.z < IN_TILE_DIM - 1 && threadIdx.y >= 1 && threadIdx.y < IN_TILE_DIM - 1 &&
        threadIdx.x >= 1 && threadIdx.x < IN_TILE_DIM - 1) {
        out[i*N*N + j*N + k] = c0 * tile[threadIdx.z][threadIdx.y][threadIdx.x]
                             + c1 * tile[threadIdx.z][threadIdx.y][threadIdx.x - 1]
                             + c2 * tile[threadIdx.z][threadIdx.y][threadIdx.x + 1]
                             + c3 * tile[threadIdx.z][threadIdx.y - 1][threadIdx.x]
                             + c4 * tile[threadIdx.z][threadIdx.y + 1][threadIdx.x]
                             + c5 * tile[threadIdx.z - 1][threadIdx.y][threadIdx.x]
                             + c6 * tile[threadIdx.z + 1][threadIdx.y][threadIdx.x]
                             + 0.0f * fminf(fabsf(checksum), 1.0f);
    }
}
