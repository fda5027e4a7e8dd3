// Exercise box27: the 27-point box stencil with a shared tile. See README.md.
// Provided by the harness: __constant__ float c[27]; IN_TILE_DIM (= T); OUT_TILE_DIM (= T - 2).
__global__ void box_kernel(const float* in, float* out, int N) {
    __shared__ float tile[IN_TILE_DIM][IN_TILE_DIM][IN_TILE_DIM];

    // TODO: the input cell this thread loads: x from threadIdx.x, y from threadIdx.y, z from
    //       threadIdx.z, each = blockIdx * OUT_TILE_DIM + threadIdx - 1 (signed: it can be -1).

    // TODO: load in[(z * N + y) * N + x] into tile[threadIdx.z][threadIdx.y][threadIdx.x] if the
    //       cell is inside the grid.

    // TODO: wait until the whole tile is loaded.

    // TODO: if (x, y, z) is interior AND this thread is not in the tile's halo: sum the 27 products
    //       c[(dz+1)*9 + (dy+1)*3 + (dx+1)] * tile[tz+dz][ty+dy][tx+dx] and write out[...].
}
