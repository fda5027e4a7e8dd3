// The fp64 CPU reference: what every kernel, on every backend, is checked against.
//
// It shares nothing with the kernels but the coefficient layout: it walks the grid by (x, y, z)
// and applies a list of (offset, weight) points. Besides each cell's value it keeps the cell's
// magnitude, sum |w_i x_i|, which bounds the rounding error any order of summation can make.
#pragma once
#include <vector>

#include "core/field.h"
#include "core/weights.h"

namespace stencil {

struct Reference {
    GridDims dims;
    int radius = 1;
    int steps = 1;                  // applications of the stencil (reference_steps)
    std::vector<double> value;      // interior: the stencil in fp64; boundary: the input
    std::vector<double> magnitude;  // interior: sum |w_i x_i| (S steps: see reference_steps);
                                    // boundary: 0 (must match exactly)
};

// `weights` must be the weights the kernel uses (StencilWeights::rounded_to its precision).
template <class real>
Reference reference_stencil(const Field<real>& in, const StencilWeights& weights);

// S applications of the stencil (`run --steps S`), each output the next input, the boundary
// cells fixed at the input's values, in fp64. The magnitude carries what bounds the rounding of
// S steps in any order: with z_s the steps' values and |A| the stencil with |w| for weights,
//   m_1 = |A| |z_0|,   m_s = |A| (|z_{s-1}| + m_{s-1}),   so m_S = sum_{t=1..S} |A|^(S-t+1) |z_{t-1}|:
// each step's own rounding (gamma |A| |z_{t-1}|) carried through the S - t steps after it, which
// can amplify it by at most |A| each (compare.h turns it into the bound). S = 1 is reference_stencil.
template <class real>
Reference reference_steps(const Field<real>& in, const StencilWeights& weights, int steps);

struct StencilPoint {
    int dx, dy, dz;
    int coefficient;  // index into StencilWeights::c
};
// The 6r + 1 points of the star stencil, centre first, in the textbook's order.
std::vector<StencilPoint> star_points(int radius);

}  // namespace stencil
