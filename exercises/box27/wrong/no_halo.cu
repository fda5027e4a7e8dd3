// expect: wrong_result; gpu: wrong_result|race
// Wrong: only the threads that compute load their cell: the tile's halo is never loaded.
__global__ void box_kernel(const float* in, float* out, int N) {
    __shared__ float tile[IN_TILE_DIM][IN_TILE_DIM][IN_TILE_DIM];
    const int tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;
    const int x = blockIdx.x * OUT_TILE_DIM + tx - 1;
    const int y = blockIdx.y * OUT_TILE_DIM + ty - 1;
    const int z = blockIdx.z * OUT_TILE_DIM + tz - 1;
    if (tx >= 1 && tx < IN_TILE_DIM - 1 && ty >= 1 && ty < IN_TILE_DIM - 1 && tz >= 1 && tz < IN_TILE_DIM - 1 && x < N && y < N && z < N) tile[tz][ty][tx] = in[(z * N + y) * N + x];
    __syncthreads();
    if (x >= 1 && x < N - 1 && y >= 1 && y < N - 1 && z >= 1 && z < N - 1 && tx >= 1 && tx < IN_TILE_DIM - 1 &&
        ty >= 1 && ty < IN_TILE_DIM - 1 && tz >= 1 && tz < IN_TILE_DIM - 1) {
        float sum = 0.0f;
        for (int dz = -1; dz <= 1; ++dz)
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx)
                    sum += c[(dz + 1) * 9 + (dy + 1) * 3 + (dx + 1)] * tile[tz + dz][ty + dy][tx + dx];
        out[(z * N + y) * N + x] = sum;
    }
}
