// The stencil's weights live in constant memory, as in the texts: every thread of a warp reads the
// same weight at the same time, which the constant cache broadcasts in one transaction.
//
// Each translation unit that launches kernels gets its own copy (static) and uploads the weights
// before each launch (backends set them through set_stencil_coefficients below).
#pragma once
// Plain CUDA C++: nvcc (the GPU backend) and NVRTC (the PTX engine) compile this file unchanged.
#include "kernels/stencil_shape.h"

namespace stencil {

static __constant__ float c_coefficients_f32[kMaxCoefficients];
static __constant__ double c_coefficients_f64[kMaxCoefficients];

// coefficient<real>(n): the n-th weight in the layout of stencil_shape.h, in the kernel's precision.
template <class real>
__device__ inline real coefficient(int n);
template <>
__device__ inline float coefficient<float>(int n) { return c_coefficients_f32[n]; }
template <>
__device__ inline double coefficient<double>(int n) { return c_coefficients_f64[n]; }

}  // namespace stencil
