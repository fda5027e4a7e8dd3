// Exercise: register-tiled 3D 7-point stencil in double precision. See README.md.
// Provided by the harness: __constant__ double c0..c6; IN_TILE_DIM (= T); OUT_TILE_DIM (= T - 2).
// Every value on the way is a double: registers, the shared plane, the sum.
__global__ void stencil_kernel(double *in, double *out, unsigned int N) {
    int iStart = blockIdx.z * OUT_TILE_DIM;
    int j = blockIdx.y * OUT_TILE_DIM + threadIdx.y - 1;
    int k = blockIdx.x * OUT_TILE_DIM + threadIdx.x - 1;
    double inPrev = 0.0, inCurr = 0.0, inNext = 0.0;
    __shared__ double inCurr_s[IN_TILE_DIM][IN_TILE_DIM];

    // TODO: inPrev <- plane iStart - 1, inCurr <- plane iStart (inside the grid only);
    //       publish inCurr in inCurr_s.

    for (int i = iStart; i < iStart + OUT_TILE_DIM; i++) {
        // TODO: inNext <- plane i + 1 (inside the grid only).
        // TODO: synchronize.
        // TODO: compute in double: x and y neighbours from inCurr_s, z neighbours from inPrev /
        //       inNext.
        // TODO: synchronize.
        // TODO: shift the registers and publish the new current plane in inCurr_s.
    }
}
