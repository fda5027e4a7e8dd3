// Exercise: shared-memory tiled 3D 7-point stencil. See README.md.
// Provided by the harness: __constant__ float c0..c6; IN_TILE_DIM (= T); OUT_TILE_DIM (= T - 2).
__global__ void stencil_kernel(float *in, float *out, unsigned int N) {
    __shared__ float tile[IN_TILE_DIM][IN_TILE_DIM][IN_TILE_DIM];

    // TODO: the input cell this thread loads: i (z), j (y), k (x) = blockIdx * OUT_TILE_DIM + threadIdx - 1,
    //       each from its own axis: i from blockIdx.z and threadIdx.z, j from .y, k from .x; the cell
    //       is in[i*N*N + j*N + k] (signed: it can be -1).

    // TODO: load it into tile[threadIdx.z][threadIdx.y][threadIdx.x] if it is inside the grid.

    // TODO: wait until the whole tile is loaded.

    // TODO: if (i, j, k) is an interior cell of the grid AND this thread is not in the tile's
    //       halo (1 <= threadIdx < IN_TILE_DIM - 1 on every axis): compute from tile[][][] and
    //       write out[i*N*N + j*N + k].
}
