// ---------------------------------------------------------------------------------------------
// Sliding-rows cardiac2d (text 002, slide 24, "Sliding rows scheme"): a 1D block of DIM_X threads
// marches down a strip of rows. Only the current row lives in shared memory (with one ghost value
// at each end, for the x neighbours of the strip's end threads); the rows above and below stay in
// registers, each thread holding its own column:
//     top row <- current row, current row <- bottom row, bottom row <- a new row from global memory.
// Each step of the march loads one new row, not the three rows a 2D tile's column needs, and a 1D
// block has no ghost rows to load at all except the strip's first and last.
//
// Which rows a block covers: the launch gives gridDim.y strips; block (bx, by) takes
// rows = ceil(ny / gridDim.y) rows from by * rows + 1 (the versions table sets gridDim.y so that
// rows is 32), and DIM_X columns from bx * DIM_X + 1.
//
// Launch: blocks of DIM_X x 1 threads (128), ceil(nx / 128) x ceil(ny / 32) blocks, on nx x ny
// interior cells whose rows are `pitch` values apart.
// ---------------------------------------------------------------------------------------------
#pragma once
#include "kernels/cardiac2d/aliev_panfilov.cuh"

namespace stencil::cardiac2d {

template <typename real, int DIM_X>
__global__ void cardiac_sliding_rows_kernel(const real* E_prev, real* E, real* R, int nx, int ny, int pitch, real alpha, real dt) {
    __shared__ real row[DIM_X + 2];  // the current row; row[0] and row[DIM_X + 1] its ends' neighbours
    const int W = pitch;
    const int tx = threadIdx.x;
    const int x = blockIdx.x * DIM_X + tx + 1;
    const bool inside = x <= nx;
    const int rows = (ny + (int)gridDim.y - 1) / (int)gridDim.y;
    const int jBegin = blockIdx.y * rows + 1;
    const int jEnd = jBegin + rows - 1 < ny ? jBegin + rows - 1 : ny;
    if (jBegin > ny) return;  // the whole block alike: no barrier is skipped by only some threads

    // The register queue: the row above the current one, and the current one (y = jBegin).
    real top = inside ? E_prev[(jBegin - 1) * W + x] : real(0);
    real curr = inside ? E_prev[jBegin * W + x] : real(0);
    for (int j = jBegin; j <= jEnd; ++j) {
        // The new bottom row, issued before the barrier so its latency overlaps it.
        const real bottom = inside ? E_prev[(j + 1) * W + x] : real(0);
        __syncthreads();  // every thread has finished reading the previous current row
        if (inside) row[tx + 1] = curr;
        if (tx == 0) row[0] = E_prev[j * W + x - 1];  // x - 1 >= 0: the ghost column at worst
        if (inside && (tx == DIM_X - 1 || x == nx)) row[tx + 2] = E_prev[j * W + x + 1];
        __syncthreads();
        if (inside) {
            real e = cardiac_pde(curr, row[tx + 2], row[tx], bottom, top, alpha);
            real r = R[j * W + x];
            cardiac_ode(e, r, dt);
            E[j * W + x] = e;
            R[j * W + x] = r;
        }
        top = curr;  // slide the rows up
        curr = bottom;
    }
}

}  // namespace stencil::cardiac2d
