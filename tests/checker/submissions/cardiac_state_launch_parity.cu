// State kept between launches: a "Strang-style" student alternates the splitting's order, PDE then
// ODE on even steps and ODE then PDE on odd ones, counting steps in a __device__ variable that the
// last block of each launch advances. The first launch is the exercise's step; on a GPU the count
// carries into the next launch of the module, which computes the other order: a wrong result.
__device__ unsigned int steps = 0;
__device__ unsigned int blocks_done = 0;

__global__ void cardiac_kernel(const double* E_prev, double* E, double* R, int n, double alpha, double dt) {
    __shared__ double tile[TILE_Y + 2][TILE_X + 2];
    const bool odd = (steps & 1u) != 0;
    const int W = n + 2;
    const int x = blockIdx.x * TILE_X + threadIdx.x + 1;
    const int y = blockIdx.y * TILE_Y + threadIdx.y + 1;
    const int tx = threadIdx.x + 1, ty = threadIdx.y + 1;
    const bool inside = x <= n && y <= n;
    const int c = y * W + x;
    if (inside) {
        tile[ty][tx] = E_prev[c];
        if (ty == 1) tile[0][tx] = E_prev[c - W];
        if (ty == TILE_Y || y == n) tile[ty + 1][tx] = E_prev[c + W];
        if (tx == 1) tile[ty][0] = E_prev[c - 1];
        if (tx == TILE_X || x == n) tile[ty][tx + 1] = E_prev[c + 1];
    }
    __syncthreads();
    if (inside) {
        double e = tile[ty][tx];
        double r = R[c];
        if (odd) {
            cardiac_ode(e, r, dt);
            e = cardiac_pde(e, tile[ty][tx + 1], tile[ty][tx - 1], tile[ty + 1][tx], tile[ty - 1][tx], alpha);
        } else {
            e = cardiac_pde(e, tile[ty][tx + 1], tile[ty][tx - 1], tile[ty + 1][tx], tile[ty - 1][tx], alpha);
            cardiac_ode(e, r, dt);
        }
        E[c] = e;
        R[c] = r;
    }
    // The last block of the launch advances the step count (every block has read it by then).
    __syncthreads();
    if (threadIdx.x == 0 && threadIdx.y == 0) {
        __threadfence();
        const unsigned int blocks = gridDim.x * gridDim.y;
        if (atomicInc(&blocks_done, blocks - 1) == blocks - 1) atomicAdd(&steps, 1u);
    }
}
