// Exercise: shared-memory tiled 3D 13-point (radius 2) stencil. See README.md.
// Provided by the harness: __constant__ float c0..c12 (c0 centre; c1..c6 = x-1, x+1, y-1, y+1,
// z-1, z+1; c7..c12 = x-2, x+2, y-2, y+2, z-2, z+2); IN_TILE_DIM (= T); OUT_TILE_DIM (= T - 4).
__global__ void stencil_kernel(float *in, float *out, unsigned int N) {
    __shared__ float tile[IN_TILE_DIM][IN_TILE_DIM][IN_TILE_DIM];

    // TODO: the input cell this thread loads: i (z), j (y), k (x) = blockIdx * OUT_TILE_DIM + threadIdx - 2,
    //       each from its own axis: i from blockIdx.z and threadIdx.z, j from .y, k from .x; the cell
    //       is in[i*N*N + j*N + k] (signed: it can be -2 or -1; the halo is two cells wide now).

    // TODO: load it into tile[threadIdx.z][threadIdx.y][threadIdx.x] if it is inside the grid.

    // TODO: wait until the whole tile is loaded (every thread of the block gets here).

    // TODO: if (i, j, k) is an interior cell of the grid (2 <= i, j, k < N - 2) AND this thread
    //       is not in the tile's halo (2 <= threadIdx < IN_TILE_DIM - 2 on every axis): compute
    //       the 13 terms from tile[][][] and write out[i*N*N + j*N + k].
}
