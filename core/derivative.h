// Text 004's derivative in plain C++: the fp64 reference of the 8th-order first derivative on a
// periodic grid, the check of a kernel's output against it, and a field with a known derivative
// (for the dx^8 convergence).
//
// The check's bound. A kernel computes, per cell (kernels/derivative/*.cuh),
//     ((a (f1 - f-1) + b (f2 - f-2)) + c (f3 - f-3)) + d (f4 - f-4)
// with the weights a..d as uploaded (rounded to its precision). The first term goes through at
// most 5 roundings (a difference, a product, three sums; an fma only removes some), so with the
// same rounded weights in the reference
//     |got - exact| <= gamma_5 * S,   S = sum_j |w_j| (|f_j| + |f_-j|),   gamma_m = m u / (1 - m u)
// and the fp64 reference is itself within gamma_5(fp64) * S. A cell passes when
// |got - ref| <= (gamma_5(p) + gamma_5(fp64)) * S: a correct kernel always passes, an error of a few
// ulps of the terms fails. NaN and Inf fail; outputs are poisoned (NaN) before every launch.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/derivative/versions.h"

namespace stencil {

// One launch of a derivative kernel on a grid (both backends take it).
struct DerivativeRequest {
    DerivativeKernelId kernel = DerivativeKernelId::x_small;
    Precision precision = Precision::f32;
    GridDims dims{kPostExtent, kPostExtent, kPostExtent};
};

// The twelve weights a kernel of precision p sees: derivative_coefficient_values(g), each rounded
// to p (as uploaded), back in fp64.
std::array<double, 12> rounded_coefficients(GridDims g, Precision p);

// The 8th-order derivative along `axis` of f (g.cells() values, x fastest, periodic in every
// axis) in fp64 with the weights c (ax..dz order), summed in the kernels' order.
std::vector<double> derivative_reference(const std::vector<double>& f, GridDims g, Axis axis,
                                         const std::array<double, 12>& c);
// ... with the exact weights (derivative_coefficient_values).
std::vector<double> derivative_reference(const std::vector<double>& f, GridDims g, Axis axis);

struct DerivativeCheck {
    bool ok = false;
    long long cells = 0, failed = 0;
    double max_abs_err = 0;
    double max_rel_err = 0;   // max |got - ref| / S: the error relative to the terms' magnitude
    double gamma = 0;         // the bound's factor: gamma_5(p) + gamma_5(fp64)
    int bad_x = -1, bad_y = -1, bad_z = -1;  // the first failing cell (x fastest)
    double bad_got = 0, bad_ref = 0;
    std::string summary() const;  // one line
};

// The reference of a kernel of precision p on `in` (its input, widened to double), and each
// cell's bound (gamma * S above): what a checker compares a kernel's output with.
struct DerivativeExpected {
    std::vector<double> value, bound;
};
DerivativeExpected derivative_expected(const std::vector<double>& in, GridDims g, Axis axis, Precision p);

// `out` (the kernel's output, p's values widened to double) against the reference computed from
// `in` (the kernel's input, widened likewise) with the weights rounded to p.
DerivativeCheck check_derivative(const std::vector<double>& in, const std::vector<double>& out, GridDims g,
                                 Axis axis, Precision p);

// ---- a field with a known derivative ------------------------------------------------------------

// f = sin(2 pi x + 1) sin(2 pi y + 2) sin(2 pi z + 3) on the unit periodic box, sampled at
// x_i = i / nx (and so on): smooth, periodic, no symmetry that would hide an index error.
std::vector<double> sampled_test_field(GridDims g);
std::vector<double> exact_test_derivative(GridDims g, Axis axis);

// Max and RMS of |df - exact| (the post prints both).
struct ErrorNorms {
    double max = 0, rms = 0;
};
ErrorNorms error_against_exact(const std::vector<double>& df, GridDims g, Axis axis);

// The grid of a convergence step: extent n along the kernel's axis, the least the tile allows
// across it (one tile, one plane): the order is a property of the axis, and the CPU engine's time
// stays small.
GridDims convergence_grid(DerivativeKernelId k, int n);
// The extents of the convergence series (powers of two of kDerivativeExtents: 16 .. 128).
std::vector<int> convergence_extents();

// Least-squares slope of log(error) against log(h): the measured order (about 8 here).
double fitted_order(const std::vector<double>& h, const std::vector<double>& error);

}  // namespace stencil
