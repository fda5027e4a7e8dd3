// ---------------------------------------------------------------------------------------------
// Fused cardiac2d (text 002, slide 15, "Fusing the loops", on the GPU): one kernel per step. The
// new E goes from the PDE to the ODE in a register, so each cell's E is written once and R is read
// and written once: the minimum traffic of a step is 4 values per cell (E_prev, R in; E, R out),
// against 6 plus the round trip for the naive pair. The 5 stencil points still come from global
// memory; neighbouring threads share them through the caches.
//
// Launch: blocks of 32 x 8 threads, ceil(nx / 32) x ceil(ny / 8) blocks; thread (I, J) owns mesh
// cell (I + 1, J + 1) of nx x ny interior cells, rows `pitch` values apart. Ghost cells are
// filled first (ghosts.cuh).
// ---------------------------------------------------------------------------------------------
#pragma once
#include "kernels/cardiac2d/aliev_panfilov.cuh"

namespace stencil::cardiac2d {

template <typename real>
__global__ void cardiac_fused_kernel(const real* E_prev, real* E, real* R, int nx, int ny, int pitch, real alpha, real dt) {
    const int I = blockIdx.x * blockDim.x + threadIdx.x + 1;
    const int J = blockIdx.y * blockDim.y + threadIdx.y + 1;
    if (I > nx || J > ny) return;
    const int W = pitch;
    const int c = J * W + I;
    real e = cardiac_pde(E_prev[c], E_prev[c + 1], E_prev[c - 1], E_prev[c + W], E_prev[c - W], alpha);
    real r = R[c];
    cardiac_ode(e, r, dt);
    E[c] = e;
    R[c] = r;
}

}  // namespace stencil::cardiac2d
