// ---------------------------------------------------------------------------------------------
// The two pieces every cardiac2d kernel shares: the cell's ODE and the 5-point PDE, written once
// in the lecture's names (slides 12 and 23 of text 002) so that each kernel file shows only what
// it changes: where the neighbours come from.
//
//   PDE  E = E_prev + alpha * (E_prev[i+1] + E_prev[i-1] - 4 E_prev + E_prev[j+1] + E_prev[j-1])
//   ODE  E += -dt * (kk E (E - a)(E - 1) + E R)
//        R += dt * (epsilon + M1 R / (E + M2)) * (-R - kk E (E - b - 1))
//
// The ODE reads the E the PDE has just produced (the lecture's order: PDE, then ODE). The sums are
// written in the slides' order; the fp64 reference (core/cardiac2d.cpp) uses the same order, and
// the rounding bound there covers the fused multiply-adds the compilers may form.
// ---------------------------------------------------------------------------------------------
#pragma once
#include "kernels/cardiac2d/model_constants.h"

namespace stencil::cardiac2d {

// alpha * (the 5-point Laplacian) added to the centre value.
template <typename real>
__device__ __forceinline__ real cardiac_pde(real center, real east, real west, real south, real north, real alpha) {
    return center + alpha * (east + west - real(4) * center + south + north);
}

// One explicit step of the cell's two ODEs, in place. The constants are rounded to `real` first:
// a double constant would turn every fp32 product into an fp64 one.
template <typename real>
__device__ __forceinline__ void cardiac_ode(real& e, real& r, real dt) {
    constexpr real a = real(AlievPanfilov::a), b = real(AlievPanfilov::b), kk = real(AlievPanfilov::kk);
    constexpr real M1 = real(AlievPanfilov::M1), M2 = real(AlievPanfilov::M2);
    constexpr real epsilon = real(AlievPanfilov::epsilon);
    e = e - dt * (kk * e * (e - a) * (e - real(1)) + e * r);
    r = r + dt * (epsilon + M1 * r / (e + M2)) * (-r - kk * e * (e - b - real(1)));
}

}  // namespace stencil::cardiac2d
