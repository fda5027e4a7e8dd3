// Exercise: thread-coarsened 3D 7-point stencil (a T x T block marching along z). See README.md.
// Provided by the harness: __constant__ float c0..c6; IN_TILE_DIM (= T); OUT_TILE_DIM (= T - 2).
__global__ void stencil_kernel(float *in, float *out, unsigned int N) {
    int iStart = blockIdx.z * OUT_TILE_DIM;
    int j = blockIdx.y * OUT_TILE_DIM + threadIdx.y - 1;
    int k = blockIdx.x * OUT_TILE_DIM + threadIdx.x - 1;
    __shared__ float inPrev_s[IN_TILE_DIM][IN_TILE_DIM];
    __shared__ float inCurr_s[IN_TILE_DIM][IN_TILE_DIM];
    __shared__ float inNext_s[IN_TILE_DIM][IN_TILE_DIM];

    // TODO: load plane iStart - 1 into inPrev_s and plane iStart into inCurr_s (inside the grid only).

    for (int i = iStart; i < iStart + OUT_TILE_DIM; i++) {
        // TODO: load plane i + 1 into inNext_s (inside the grid only).
        // TODO: synchronize.
        // TODO: interior cell and not a halo thread: compute from inPrev_s, inCurr_s, inNext_s.
        // TODO: synchronize (why?).
        // TODO: shift: inPrev_s <- inCurr_s, inCurr_s <- inNext_s (this thread's cell).
    }
}
