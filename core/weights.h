// The stencil's weights as the host holds them (in double; a kernel gets them rounded to its own
// precision, and the reference uses exactly those rounded values).
#pragma once
#include <array>
#include <cstdint>

#include "kernels/stencil_shape.h"
#include "kernels/versions.h"

namespace stencil {

struct StencilWeights {
    int radius = 1;
    std::array<double, kMaxCoefficients> c{};  // layout of kernels/stencil_shape.h; unused are 0

    // The weights the kernel of precision p really multiplies by (fp32 rounds them).
    StencilWeights rounded_to(Precision p) const;
};

// A discrete Laplacian of order 2 in each axis, unit spacing: c0 = -6, six neighbours 1 (r = 1);
// higher r use the standard central second-derivative weights of order 2r.
StencilWeights laplacian_weights(int radius);
// Asymmetric weights drawn from a seed: no two alike, so a swapped neighbour cannot pass.
StencilWeights random_weights(int radius, std::uint64_t seed);
// Small integer weights (-3..3, non-zero): with small-integer inputs every fp32 result is exact.
StencilWeights small_integer_weights(int radius, std::uint64_t seed);

}  // namespace stencil
