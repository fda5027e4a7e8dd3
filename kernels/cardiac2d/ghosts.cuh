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
// 5-point stencil and stay as they are. Launch: ceil(n / 256) blocks of 256 threads, thread t
// filling the four ghost cells of row and column t + 1.
// ---------------------------------------------------------------------------------------------
#pragma once

namespace stencil::cardiac2d {

template <typename real>
__global__ void cardiac_fill_ghosts_kernel(real* E_prev, int n) {
    const int t = blockIdx.x * blockDim.x + threadIdx.x + 1;  // interior row / column 1..n
    if (t > n) return;
    const int W = n + 2;  // the mesh's row length
    E_prev[t * W + 0] = E_prev[t * W + 2];
    E_prev[t * W + n + 1] = E_prev[t * W + n - 1];
    E_prev[0 * W + t] = E_prev[2 * W + t];
    E_prev[(n + 1) * W + t] = E_prev[(n - 1) * W + t];
}

}  // namespace stencil::cardiac2d
