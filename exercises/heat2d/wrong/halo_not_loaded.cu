// expect: wrong_result; gpu: wrong_result|race
// Wrong: the halo threads (tx = 0 or ty = 0) load nothing: the cells beside a tile's edge are read
// from shared memory no thread stored.
__global__ void heat_step(const float* in, float* out, int nx, int ny) {
    __shared__ float tile[IN_TILE][IN_TILE];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int x = blockIdx.x * OUT_TILE + tx - 1;
    const int y = blockIdx.y * OUT_TILE + ty - 1;
    if (x >= 0 && x < nx && y >= 0 && y < ny && tx >= 1 && ty >= 1) tile[ty][tx] = in[y * nx + x];
    __syncthreads();
    if (x >= 1 && x < nx - 1 && y >= 1 && y < ny - 1 && tx >= 1 && tx < IN_TILE - 1 && ty >= 1 && ty < IN_TILE - 1)
        out[y * nx + x] = c0 * tile[ty][tx] + c1 * tile[ty][tx - 1] + c2 * tile[ty][tx + 1] +
                          c3 * tile[ty - 1][tx] + c4 * tile[ty + 1][tx];
}
