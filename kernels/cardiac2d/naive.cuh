// ---------------------------------------------------------------------------------------------
// Naive cardiac2d (text 002, slide 17, "Naive CUDA implementation"): one thread per interior cell,
// and the step split as the provided C code splits it, a PDE kernel then an ODE kernel. "All array
// references go through device memory": the PDE reads 5 values of E_prev and writes E; the ODE
// kernel reads E back and R, and writes both, so E makes a round trip through DRAM that the fused
// kernel (fused.cuh) saves.
//
// Launch (both kernels): blocks of 32 x 8 threads (the versions table), ceil(nx / 32) x
// ceil(ny / 8) blocks; thread (I, J) owns mesh cell (I + 1, J + 1). The mesh is nx x ny interior
// cells with rows `pitch` values apart (n x n and n + 2 alone; a rank's piece when decomposed).
// Ghost cells are filled first (ghosts.cuh).
// ---------------------------------------------------------------------------------------------
#pragma once
#include "kernels/cardiac2d/aliev_panfilov.cuh"

namespace stencil::cardiac2d {

template <typename real>
__global__ void cardiac_pde_naive_kernel(const real* E_prev, real* E, int nx, int ny, int pitch, real alpha) {
    // The lecture's I (x, fastest in memory) and J (y), shifted past the ghost cell.
    const int I = blockIdx.x * blockDim.x + threadIdx.x + 1;
    const int J = blockIdx.y * blockDim.y + threadIdx.y + 1;
    if (I > nx || J > ny) return;
    const int W = pitch;
    const int c = J * W + I;
    E[c] = cardiac_pde(E_prev[c], E_prev[c + 1], E_prev[c - 1], E_prev[c + W], E_prev[c - W], alpha);
}

template <typename real>
__global__ void cardiac_ode_naive_kernel(real* E, real* R, int nx, int ny, int pitch, real dt) {
    const int I = blockIdx.x * blockDim.x + threadIdx.x + 1;
    const int J = blockIdx.y * blockDim.y + threadIdx.y + 1;
    if (I > nx || J > ny) return;
    const int c = J * pitch + I;
    real e = E[c], r = R[c];
    cardiac_ode(e, r, dt);
    E[c] = e;
    R[c] = r;
}

}  // namespace stencil::cardiac2d
