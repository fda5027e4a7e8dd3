// Exercise: naive 3D 7-point stencil. See README.md.
// Provided by the harness: __constant__ float c0..c6; IN_TILE_DIM; OUT_TILE_DIM.
__global__ void stencil_kernel(float *in, float *out, unsigned int N) {
    // TODO: this thread's cell: i (z), j (y), k (x) from blockIdx, blockDim, threadIdx.

    // TODO: only interior cells (1 <= i, j, k <= N - 2) are computed and written.

    // TODO: out[i*N*N + j*N + k] = c0 * centre + c1 * (k - 1) + c2 * (k + 1)
    //                             + c3 * (j - 1) + c4 * (j + 1) + c5 * (i - 1) + c6 * (i + 1)
}
