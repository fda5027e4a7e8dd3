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
    std::vector<double> value;      // interior: the stencil in fp64; boundary: the input
    std::vector<double> magnitude;  // interior: sum |w_i x_i|; boundary: 0 (must match exactly)
};

// `weights` must be the weights the kernel uses (StencilWeights::rounded_to its precision).
template <class real>
Reference reference_stencil(const Field<real>& in, const StencilWeights& weights);

struct StencilPoint {
    int dx, dy, dz;
    int coefficient;  // index into StencilWeights::c
};
// The 6r + 1 points of the star stencil, centre first, in the textbook's order.
std::vector<StencilPoint> star_points(int radius);

}  // namespace stencil
