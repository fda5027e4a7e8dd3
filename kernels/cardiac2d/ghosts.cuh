// ---------------------------------------------------------------------------------------------
// The no-flux boundary, as the lecture's solve() fills it before every PDE step (text 002, slide
// 14: "Fills in the TOP Ghost Cells ... E_prev[i] = E_prev[i + (n+2)*2]"): each ghost cell takes
// the value of the interior cell two away, mirrored across the boundary cell, so the centred
// difference of E across the boundary is zero.
//
//   left   E_prev[j][0]   = E_prev[j][2]        right  E_prev[j][n+1] = E_prev[j][n-1]
//   top    E_prev[0][i]   = E_prev[2][i]        bottom E_prev[n+1][i] = E_prev[n-1][i]
//
// Every version runs this kernel first in each step; the four corners are never read by a
// 5-point stencil and stay as they are.
//
// The mesh may be a piece of a decomposed one (text 002's P1..P15 picture): nx x ny interior
// cells, rows `pitch` values apart, and only the sides in `outer_sides` (OuterSide bits,
// model_constants.h) are the outer boundary. The other sides' ghost cells are a neighbour's
// cells, copied in before this kernel runs, so a mirror that reaches two cells in may read them:
// on a piece one cell wide, the west mirror's "two away" is the east neighbour's first column,
// exactly what the whole mesh would read there. One piece alone: nx = ny = n, every side outer.
// Launch: ceil(max(nx, ny) / 256) blocks of 256 threads, thread t filling the ghost cells of row
// and column t + 1.
// ---------------------------------------------------------------------------------------------
#pragma once
#include "kernels/cardiac2d/model_constants.h"

namespace stencil::cardiac2d {

template <typename real>
__global__ void cardiac_fill_ghosts_kernel(real* E_prev, int nx, int ny, int pitch, int outer_sides) {
    const int t = blockIdx.x * blockDim.x + threadIdx.x + 1;  // interior row / column 1..max(nx, ny)
    const int W = pitch;  // the mesh's row length
    if (t <= ny) {
        if (outer_sides & kWestSide) E_prev[t * W + 0] = E_prev[t * W + 2];
        if (outer_sides & kEastSide) E_prev[t * W + nx + 1] = E_prev[t * W + nx - 1];
    }
    if (t <= nx) {
        if (outer_sides & kNorthSide) E_prev[0 * W + t] = E_prev[2 * W + t];
        if (outer_sides & kSouthSide) E_prev[(ny + 1) * W + t] = E_prev[(ny - 1) * W + t];
    }
}

}  // namespace stencil::cardiac2d
