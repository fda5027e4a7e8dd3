// Included by a generated launch unit whose version multiplies the dense (2r+1)^3 cube
// (WeightLayout::dense_cube, kernels/version_shapes.h): the weight upload for that TU's own copy of
// the kernel's constant cube, filled from the star's 6r + 1 weights (zero off the axes).
#pragma once
#include <array>
#include <cstddef>

#include "backends/cuda/cuda_internal.h"
#include "kernels/dense_weights.h"

namespace stencil::cuda_detail {
namespace {  // internal linkage on purpose: each TU's function sees its own constant memory

template <class real, std::size_t N>
void upload_cube(const StencilWeights& w, const real (&symbol)[N], const char* what) {
    std::array<real, N> cube{};
    fill_dense_weights(w.c.data(), w.radius, cube.data());
    check(cudaMemcpyToSymbol(symbol, cube.data(), sizeof(real) * N), what);
}

void upload_weights_here(const StencilWeights& weights, Precision p) {
    const StencilWeights w = weights.rounded_to(p);
    if (p == Precision::f32)
        upload_cube(w, c_dense_weights_f32, "cudaMemcpyToSymbol (fp32 dense weights)");
    else
        upload_cube(w, c_dense_weights_f64, "cudaMemcpyToSymbol (fp64 dense weights)");
}

}  // namespace
}  // namespace stencil::cuda_detail
