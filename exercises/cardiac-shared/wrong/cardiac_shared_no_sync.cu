// expect: race; gpu: race|wrong_result
// cardiac-shared without the barrier: a thread may read a neighbour's tile cell before it is
// stored.
__global__ void cardiac_kernel(const double* E_prev, double* E, double* R, int n, double alpha, double dt) {
    __shared__ double tile[TILE_Y + 2][TILE_X + 2];
    const int W = n + 2;
    const int x = blockIdx.x * TILE_X + threadIdx.x + 1;
    const int y = blockIdx.y * TILE_Y + threadIdx.y + 1;
    const int tx = threadIdx.x + 1, ty = threadIdx.y + 1;
    if (x > n || y > n) return;
    const int c = y * W + x;
    tile[ty][tx] = E_prev[c];
    if (ty == 1) tile[0][tx] = E_prev[c - W];
    if (ty == TILE_Y || y == n) tile[ty + 1][tx] = E_prev[c + W];
    if (tx == 1) tile[ty][0] = E_prev[c - 1];
    if (tx == TILE_X || x == n) tile[ty][tx + 1] = E_prev[c + 1];
    double e = cardiac_pde(tile[ty][tx], tile[ty][tx + 1], tile[ty][tx - 1], tile[ty + 1][tx], tile[ty - 1][tx], alpha);
    double r = R[c];
    cardiac_ode(e, r, dt);
    E[c] = e;
    R[c] = r;
}
