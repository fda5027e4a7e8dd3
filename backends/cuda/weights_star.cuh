// Included by a generated launch unit whose version multiplies the star's 6r + 1 weights
// (WeightLayout::star, kernels/version_shapes.h): the weight upload for that TU's own copy of the
// constant-memory weights (kernels/stencil_coefficients.cuh declares them static, so every TU has
// its own and must set it before it launches).
#pragma once
#include <array>

#include "backends/cuda/cuda_internal.h"
#include "kernels/stencil_coefficients.cuh"

namespace stencil::cuda_detail {
namespace {  // internal linkage on purpose: each TU's function sees its own constant memory

void upload_weights_here(const StencilWeights& weights, Precision p) {
    const StencilWeights w = weights.rounded_to(p);
    const int n = coefficient_count(w.radius);
    if (p == Precision::f32) {
        std::array<float, kMaxCoefficients> c{};
        for (int i = 0; i < n; ++i) c[i] = static_cast<float>(w.c[i]);
        check(cudaMemcpyToSymbol(c_coefficients_f32, c.data(), sizeof(float) * kMaxCoefficients),
              "cudaMemcpyToSymbol (fp32 weights)");
    } else {
        std::array<double, kMaxCoefficients> c{};
        for (int i = 0; i < n; ++i) c[i] = w.c[i];
        check(cudaMemcpyToSymbol(c_coefficients_f64, c.data(), sizeof(double) * kMaxCoefficients),
              "cudaMemcpyToSymbol (fp64 weights)");
    }
}

}  // namespace
}  // namespace stencil::cuda_detail
