// ---------------------------------------------------------------------------------------------
// Shared-memory cardiac2d, one thread per tile cell including the ghosts (text 002, slide 19: the
// first of the two approaches, "Assign 1 thread to each mesh cell including ghost cells"). A block
// of (DIM_X + 2) x (DIM_Y + 2) threads covers a DIM_X x DIM_Y tile and its ghost ring: every thread
// loads exactly one cell, with no branch on who loads what, and then the ring's threads idle while
// the interior ones compute. At 16 x 16: 324 threads, 68 of them (21%) idle in the compute; the
// edge-thread version (shared.cuh) keeps every thread busy but branches to load the ring.
// Neighbouring tiles overlap by two cells, so each ring cell is loaded by two blocks (the corners
// by four, and never read).
//
// Launch: blocks of (DIM_X + 2) x (DIM_Y + 2) threads, ceil(nx / DIM_X) x ceil(ny / DIM_Y) blocks,
// on nx x ny interior cells whose rows are `pitch` values apart.
// Thread (tx, ty) of block (bx, by) holds mesh cell (bx DIM_X + tx, by DIM_Y + ty), ghosts included.
// ---------------------------------------------------------------------------------------------
#pragma once
#include "kernels/cardiac2d/aliev_panfilov.cuh"

namespace stencil::cardiac2d {

template <typename real, int DIM_X, int DIM_Y>
__global__ void cardiac_shared_all_kernel(const real* E_prev, real* E, real* R, int nx, int ny, int pitch, real alpha, real dt) {
    __shared__ real block[DIM_Y + 2][DIM_X + 2];
    const int W = pitch;
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int x = blockIdx.x * DIM_X + tx;  // mesh coordinates, 0 and nx + 1 (ny + 1) being ghosts
    const int y = blockIdx.y * DIM_Y + ty;
    const int index = y * W + x;

    // Every thread inside the mesh loads its one cell (interior or ghost).
    if (x <= nx + 1 && y <= ny + 1) block[ty][tx] = E_prev[index];
    __syncthreads();

    // Only the tile's interior threads compute; the ghost ring's threads are done.
    const bool interior_thread = tx >= 1 && tx <= DIM_X && ty >= 1 && ty <= DIM_Y;
    if (!interior_thread || x > nx || y > ny) return;
    const real center = block[ty][tx];
    real e = cardiac_pde(center, block[ty][tx + 1], block[ty][tx - 1], block[ty + 1][tx], block[ty - 1][tx], alpha);
    real r = R[index];
    cardiac_ode(e, r, dt);
    E[index] = e;
    R[index] = r;
}

}  // namespace stencil::cardiac2d
