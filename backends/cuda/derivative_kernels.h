// Internal to backends/cuda: the derivative kernels' instantiations (derivative_kernels.cu, the
// only file nvcc compiles for them) for derivative.cpp, which launches them.
#pragma once
#include <cuda_runtime_api.h>

#include <array>

#include "kernels/derivative/versions.h"

namespace stencil::cuda_detail {

// The handle of kernel k at extent n in precision p; nullptr when it is not instantiated.
const void* derivative_function(DerivativeKernelId k, int n, Precision p);

// Copies the twelve weights (ax .. dz, derivative_coefficient_values), rounded to p, into the
// kernels' constant memory.
cudaError_t upload_derivative_weights(Precision p, const std::array<double, 12>& weights);

}  // namespace stencil::cuda_detail
