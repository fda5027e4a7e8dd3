// ---------------------------------------------------------------------------------------------
// Warp-shuffle cardiac2d (text 002, slide 25, "Inter-thread communication": "a thread can read
// values stored in a register from a thread within the same warp"). Each warp is one row segment
// of 32 cells: a lane loads its own centre value and takes its x neighbours from lanes -1 and +1
// with __shfl_up_sync / __shfl_down_sync instead of loading them again (or staging them in shared
// memory). Lane 0 has no lane to its left and lane 31 none to its right: they load that one value
// from global memory. The y neighbours come from global memory (the rows above and below belong
// to other warps).
//
// Every lane of a warp must reach the shuffles, so a lane past the mesh's last column still loads
// (its column clamped to the ghost column nx + 1, a valid address) and only skips the store. A warp
// is one row, so a warp below the mesh returns as a whole.
//
// Launch: blocks of 32 x 8 threads (blockDim.x must be the warp: 32), ceil(nx / 32) x ceil(ny / 8),
// on nx x ny interior cells whose rows are `pitch` values apart.
// ---------------------------------------------------------------------------------------------
#pragma once
#include "kernels/cardiac2d/aliev_panfilov.cuh"

namespace stencil::cardiac2d {

template <typename real>
__global__ void cardiac_shuffle_kernel(const real* E_prev, real* E, real* R, int nx, int ny, int pitch, real alpha, real dt) {
    constexpr unsigned FULL_MASK = 0xffffffffu;
    const int lane = threadIdx.x;  // blockDim.x == 32: the lane is the x offset in the warp's row
    const int x = blockIdx.x * 32 + lane + 1;
    const int y = blockIdx.y * blockDim.y + threadIdx.y + 1;
    if (y > ny) return;  // the whole warp (one row) alike
    const int W = pitch;
    const int xc = x <= nx + 1 ? x : nx + 1;  // clamped: lanes past the mesh still shuffle
    const int index = y * W + xc;

    const real center = E_prev[index];
    real west = __shfl_up_sync(FULL_MASK, center, 1);   // lane - 1's centre
    real east = __shfl_down_sync(FULL_MASK, center, 1); // lane + 1's centre
    if (lane == 0) west = E_prev[index - 1];
    if (lane == 31 && x <= nx) east = E_prev[index + 1];
    if (x > nx) return;

    real e = cardiac_pde(center, east, west, E_prev[index + W], E_prev[index - W], alpha);
    real r = R[index];
    cardiac_ode(e, r, dt);
    E[index] = e;
    R[index] = r;
}

}  // namespace stencil::cardiac2d
