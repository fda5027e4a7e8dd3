// The 8th-order derivative's weights in constant memory, as in the post: every thread of a warp
// reads the same weight at once, which the constant cache broadcasts.
//
// The post declares twelve scalars (c_ax, c_bx, c_cx, c_dx, then the y and z ones); here they are
// the members of one struct per precision, in that order, so a kernel reads `c.ax` where the post
// reads `c_ax`. Each is the post's weight (4/5, -1/5, 4/105, -1/280) divided by the grid spacing
// along its axis; the host computes them (derivative_coefficient_values in
// kernels/derivative/versions.h) and uploads all twelve before a launch. Each translation unit
// that launches the kernels has its own copy (static).
#pragma once

namespace stencil {

template <typename real>
struct DerivativeCoefficients {
    real ax, bx, cx, dx;
    real ay, by, cy, dy;
    real az, bz, cz, dz;
};

static __constant__ DerivativeCoefficients<float> c_derivative_f32;
static __constant__ DerivativeCoefficients<double> c_derivative_f64;

template <typename real>
__device__ inline const DerivativeCoefficients<real>& derivative_coefficients();
template <>
__device__ inline const DerivativeCoefficients<float>& derivative_coefficients<float>() { return c_derivative_f32; }
template <>
__device__ inline const DerivativeCoefficients<double>& derivative_coefficients<double>() { return c_derivative_f64; }

}  // namespace stencil
