// Exercise heat2d: a 2D heat-equation step with a shared tile. See README.md.
// Provided by the harness: __constant__ float c0..c4; IN_TILE (= T); OUT_TILE (= T - 2).
__global__ void heat_step(const float* in, float* out, int nx, int ny) {
    __shared__ float tile[IN_TILE][IN_TILE];

    // TODO: the input cell this thread loads: x (the column, from blockIdx.x and threadIdx.x) and
    //       y (the row, from blockIdx.y and threadIdx.y) = blockIdx * OUT_TILE + threadIdx - 1.

    // TODO: load in[y * nx + x] into tile[threadIdx.y][threadIdx.x] if (x, y) is inside the grid.

    // TODO: wait until the whole tile is loaded.

    // TODO: if (x, y) is an interior cell AND this thread is not in the tile's halo, write
    //       out[y * nx + x] = c0 * centre + c1 * left + c2 * right + c3 * above + c4 * below.
}
