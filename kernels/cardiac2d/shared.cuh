// ---------------------------------------------------------------------------------------------
// Shared-memory cardiac2d, ghost cells loaded by the tile's edge threads (text 002, slides 19-23:
// "Assign 1 thread to interior cells only", "CUDA code to load shared memory", "Copying the ghost
// cells"). Three phases, as on slide 20:
//   1. every thread copies its own cell into block[idy][idx] (idx, idy shifted by one: row and
//      column 0 of the tile are its ghost ring);
//   2. the threads on the tile's edge copy the ghost ring: the top row's threads the row above,
//      the left column's threads the column to the left, and so on. At 16 x 16 the slides count
//      16 x 4 - 4 = 60 edge threads, but the stencil needs 4 x 16 = 64 ghost cells (the ring's
//      four corners are never read): the four corner threads load two each
//      (`stencil-lab model --problem cardiac2d` prints both counts);
//   3. the same threads compute the PDE from shared memory and the ODE from registers.
//
// What differs from the slide's code, and why: the slide's grid covers the mesh with its ghosts
// and skips loads with `y > 0` / `y < N-1`; here the threads cover only the interior and the ghost
// ring is always there (ghosts.cuh fills it), so the tests are "is this the tile's last row/column"
// instead. A tile at the mesh's far edge may be partial (nx or ny not a multiple of 16): its last row
// and column are then not idy == DIM_Y / idx == DIM_X, so `y == ny` and `x == nx` also load; and since a
// partial tile can be one column wide, the left and right loads are two `if`s, not the slide's
// `if ... else if` (which needs the tile to be at least 2 wide). Threads outside the mesh load
// nothing but still reach both barriers.
//
// Launch: blocks of DIM_X x DIM_Y threads (16 x 16, the versions table), ceil(nx / 16) x
// ceil(ny / 16) blocks, on nx x ny interior cells whose rows are `pitch` values apart.
// ---------------------------------------------------------------------------------------------
#pragma once
#include "kernels/cardiac2d/aliev_panfilov.cuh"

namespace stencil::cardiac2d {

template <typename real, int DIM_X, int DIM_Y>
__global__ void cardiac_shared_kernel(const real* E_prev, real* E, real* R, int nx, int ny, int pitch, real alpha, real dt) {
    __shared__ real block[DIM_Y + 2][DIM_X + 2];
    const int W = pitch;  // the slide's N: the mesh's row length
    int idx = threadIdx.x, idy = threadIdx.y;  // local indices
    // Global indices of this thread's interior cell (the +1 steps over the ghost column/row).
    const int x = blockIdx.x * DIM_X + idx + 1;
    const int y = blockIdx.y * DIM_Y + idy + 1;
    idy++;  // Why do we increment? Row and column 0 of `block` are the ghost ring.
    idx++;
    const bool inside = x <= nx && y <= ny;
    const int index = y * W + x;

    // Phase 1: the interior.
    real center = real(0);
    if (inside) {
        center = E_prev[index];
        block[idy][idx] = center;
    }
    // Phase 2: the ghost ring, one load per edge thread (two for the corner threads).
    if (inside) {
        if (idy == 1) block[0][idx] = E_prev[index - W];
        if (idy == DIM_Y || y == ny) block[idy + 1][idx] = E_prev[index + W];
        if (idx == 1) block[idy][0] = E_prev[index - 1];
        if (idx == DIM_X || x == nx) block[idy][idx + 1] = E_prev[index + 1];
    }
    __syncthreads();

    // Phase 3: compute, with the same threads as phase 1.
    if (!inside) return;
    real e = cardiac_pde(center, block[idy][idx + 1], block[idy][idx - 1], block[idy + 1][idx], block[idy - 1][idx],
                         alpha);
    real r = R[index];
    cardiac_ode(e, r, dt);
    E[index] = e;
    R[index] = r;
}

}  // namespace stencil::cardiac2d
