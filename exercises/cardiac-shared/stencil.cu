// Exercise: the cardiac2d step with a shared tile whose ghost ring the edge threads load. See README.md.
// Provided by the harness: TILE_X, TILE_Y (16); cardiac_pde(center, east, west, south, north, alpha)
// and cardiac_ode(e, r, dt) in double.
__global__ void cardiac_kernel(const double* E_prev, double* E, double* R, int n, double alpha, double dt) {
    __shared__ double tile[TILE_Y + 2][TILE_X + 2];
    const int W = n + 2;  // the mesh's row length, ghosts included

    // TODO: this thread's interior cell: x = blockIdx.x * TILE_X + threadIdx.x + 1 (and y);
    //       it is inside when x <= n and y <= n.

    // TODO: copy E_prev of that cell into tile[threadIdx.y + 1][threadIdx.x + 1].

    // TODO: the threads on the tile's edges copy the ghost ring: the cell above, below, to the
    //       left or to the right of theirs (the last tile's edge is where the mesh ends).

    // TODO: wait until the whole tile is loaded.

    // TODO: if inside: e = cardiac_pde(...) from the tile, r = R[c], cardiac_ode(e, r, dt),
    //       then E[c] = e and R[c] = r.
}
