// The numerics behind the stencils (seed texts 000, 001 and 004): finite-difference derivatives and
// their measured order of convergence. Pure functions, fp64.
//
//   central difference     f'(x) ~ (f(x+h) - f(x-h)) / 2h,     error O(h^2): halving h quarters it
//   8th-order derivative   f'_i ~ [a (f_{i+1} - f_{i-1}) + b (f_{i+2} - f_{i-2})
//                                 + c (f_{i+3} - f_{i-3}) + d (f_{i+4} - f_{i-4})] / dx
//                          a = 4/5, b = -1/5, c = 4/105, d = -1/280: a 9-point stencil, O(dx^8)
#pragma once
#include <functional>
#include <vector>

namespace stencil::analysis {

// A fraction num / den in lowest terms (den > 0): the derivative weights come out exact.
struct Fraction {
    long long num = 0, den = 1;
    double value() const { return double(num) / double(den); }
};

// The weights c_1..c_m of the central first derivative of order 2m:
//   f'(x) ~ sum_j c_j (f(x + j h) - f(x - j h)) / h,
// from the Taylor expansion f(x + jh) - f(x - jh) = 2 sum_{n odd} j^n h^n f^(n)(x) / n!: the
// terms n = 1 must sum to f', the terms n = 3, 5, ..., 2m - 1 must vanish. That is the
// Vandermonde system sum_j 2 j^(2i-1) c_j = [i == 1], i = 1..m, solved exactly in fractions.
// m = 1: 1/2 (the central difference); m = 4: 4/5, -1/5, 4/105, -1/280 (text 004).
std::vector<Fraction> central_derivative_weights(int m);

// The 8th-order first-derivative coefficients of 004 (before division by dx), from the solver.
struct EighthOrderCoefficients {
    double a = 0, b = 0, c = 0, d = 0;
};
const EighthOrderCoefficients& eighth_order_coefficients();

double central_difference(const std::function<double(double)>& f, double x, double h);

// Order p from two errors at spacings h and h / ratio: log(e_h / e_{h/ratio}) / log(ratio).
double convergence_order(double error_coarse, double error_fine, double ratio = 2.0);

struct ConvergenceStudy {
    std::vector<double> h;      // spacings, each half the previous
    std::vector<double> error;  // max |approximation - exact|
    std::vector<double> order;  // order[i] from error[i] and error[i+1]
};

// The central difference of f at the points x0 with h, h/2, h/4, ... (`levels` spacings).
ConvergenceStudy central_difference_study(const std::function<double(double)>& f,
                                          const std::function<double(double)>& df,
                                          const std::vector<double>& x0, double h, int levels);

// The x-derivative of a field on a periodic nx x ny x nz grid of spacing dx (x fastest, period
// nx cells: the points x_i = i dx, i = 0..nx-1; 004's code keeps both end points, x_0 = 0 and
// x_{mx-1} = 1, and so divides by dx = 1/(mx-1) and wraps with mx - 1: the same scheme).
std::vector<double> eighth_order_x_derivative(const std::vector<double>& f, int nx, int ny, int nz,
                                              double dx);

// Max error of eighth_order_x_derivative on an n^3 periodic grid of [0, 1)^3 for
// f = sin(2 pi x) cos(2 pi y) (plus a z term), against the exact derivative.
double eighth_order_error(int n);
// Errors on n = n0, 2 n0, 4 n0, ... (levels grids) and the orders between them.
ConvergenceStudy eighth_order_study(int n0, int levels);

}  // namespace stencil::analysis
