// expect: boundary_modified
// cardiac-shared, the fused kernel's global reads, but it also copies the ghost ring of E_prev
// into E (the lecture's E and E_prev swap, done by the kernel): ghost cells are not the kernel's.
__global__ void cardiac_kernel(const double* E_prev, double* E, double* R, int n, double alpha, double dt) {
    const int W = n + 2;
    const int x = blockIdx.x * TILE_X + threadIdx.x + 1;
    const int y = blockIdx.y * TILE_Y + threadIdx.y + 1;
    if (x > n || y > n) return;
    const int c = y * W + x;
    if (x == 1) E[c - 1] = E_prev[c - 1];
    double e = cardiac_pde(E_prev[c], E_prev[c + 1], E_prev[c - 1], E_prev[c + W], E_prev[c - W], alpha);
    double r = R[c];
    cardiac_ode(e, r, dt);
    E[c] = e;
    R[c] = r;
}
