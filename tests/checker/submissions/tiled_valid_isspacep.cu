// Correct: __isShared / __isGlobal (isspacep) pick where a helper reads from. The helper takes a
// generic pointer, either into the tile or into in[], and asks which it is to compute the
// neighbour's address (not inlined: the pointer's space is known only when it runs). Valid CUDA:
// address-space predicates.
__device__ __noinline__ float neighbour(const float* p, int tile_step, int global_step) {
    if (__isShared(p)) return p[tile_step];
    if (__isGlobal(p)) return p[global_step];
    return 0.0f;
}

__global__ void stencil_kernel(float* in, float* out, unsigned int N) {
    __shared__ float tile[IN_TILE_DIM][IN_TILE_DIM][IN_TILE_DIM];
    const int i = blockIdx.z * OUT_TILE_DIM + threadIdx.z - 1;
    const int j = blockIdx.y * OUT_TILE_DIM + threadIdx.y - 1;
    const int k = blockIdx.x * OUT_TILE_DIM + threadIdx.x - 1;
    if (i >= 0 && i < N && j >= 0 && j < N && k >= 0 && k < N) tile[threadIdx.z][threadIdx.y][threadIdx.x] = in[i*N*N + j*N + k];
    __syncthreads();
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1 &&
        threadIdx.z >= 1 && threadIdx.z < IN_TILE_DIM - 1 && threadIdx.y >= 1 && threadIdx.y < IN_TILE_DIM - 1 &&
        threadIdx.x >= 1 && threadIdx.x < IN_TILE_DIM - 1) {
        const float* s = &tile[threadIdx.z][threadIdx.y][threadIdx.x];
        const float* g = &in[i*N*N + j*N + k];
        const int plane = IN_TILE_DIM * IN_TILE_DIM;
        // the x neighbours from the tile, the z neighbours from global memory, through one helper
        out[i*N*N + j*N + k] = c0 * *s
                             + c1 * neighbour(s, -1, -1)
                             + c2 * neighbour(s, 1, 1)
                             + c3 * neighbour(s, -IN_TILE_DIM, -(int)N)
                             + c4 * neighbour(s, IN_TILE_DIM, (int)N)
                             + c5 * neighbour(g, -plane, -(int)(N*N))
                             + c6 * neighbour(g, plane, (int)(N*N));
    }
}
