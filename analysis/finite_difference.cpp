#include "analysis/finite_difference.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include "core/derivative.h"

namespace stencil::analysis {

namespace {
long long gcd_ll(long long a, long long b) {
    a = a < 0 ? -a : a;
    b = b < 0 ? -b : b;
    while (b) {
        const long long t = a % b;
        a = b;
        b = t;
    }
    return a ? a : 1;
}
Fraction reduce(long long n, long long d) {
    if (d < 0) n = -n, d = -d;
    const long long g = gcd_ll(n, d);
    return {n / g, d / g};
}
Fraction sub(Fraction a, Fraction b) { return reduce(a.num * b.den - b.num * a.den, a.den * b.den); }
Fraction mul(Fraction a, Fraction b) {
    const long long g1 = gcd_ll(a.num, b.den), g2 = gcd_ll(b.num, a.den);
    return reduce((a.num / g1) * (b.num / g2), (a.den / g2) * (b.den / g1));
}
Fraction div(Fraction a, Fraction b) { return mul(a, reduce(b.den, b.num)); }
}  // namespace

std::vector<Fraction> central_derivative_weights(int m) {
    if (m < 1 || m > 6) throw std::invalid_argument("central_derivative_weights: m must be 1..6");
    // Row i (equation for the h^(2i-1) term), column j: 2 j^(2i-1); right-hand side [i == 0].
    std::vector<std::vector<Fraction>> A(m, std::vector<Fraction>(m + 1));
    for (int i = 0; i < m; ++i) {
        for (int j = 1; j <= m; ++j) {
            long long p = 2;
            for (int e = 0; e < 2 * i + 1; ++e) p *= j;
            A[i][j - 1] = {p, 1};
        }
        A[i][m] = {i == 0 ? 1 : 0, 1};
    }
    // Gauss-Jordan elimination, exact (a Vandermonde matrix: every pivot is non-zero).
    for (int col = 0; col < m; ++col) {
        for (int row = 0; row < m; ++row) {
            if (row == col || A[row][col].num == 0) continue;
            const Fraction f = div(A[row][col], A[col][col]);
            for (int k = col; k <= m; ++k) A[row][k] = sub(A[row][k], mul(f, A[col][k]));
        }
    }
    std::vector<Fraction> c(m);
    for (int i = 0; i < m; ++i) c[i] = div(A[i][m], A[i][i]);
    return c;
}

const EighthOrderCoefficients& eighth_order_coefficients() {
    static const EighthOrderCoefficients k = [] {
        const auto w = central_derivative_weights(4);
        return EighthOrderCoefficients{w[0].value(), w[1].value(), w[2].value(), w[3].value()};
    }();
    return k;
}

double central_difference(const std::function<double(double)>& f, double x, double h) {
    return (f(x + h) - f(x - h)) / (2 * h);
}

double convergence_order(double error_coarse, double error_fine, double ratio) {
    return std::log(error_coarse / error_fine) / std::log(ratio);
}

ConvergenceStudy central_difference_study(const std::function<double(double)>& f,
                                          const std::function<double(double)>& df,
                                          const std::vector<double>& x0, double h, int levels) {
    ConvergenceStudy s;
    for (int l = 0; l < levels; ++l, h /= 2) {
        double e = 0;
        for (double x : x0) e = std::max(e, std::abs(central_difference(f, x, h) - df(x)));
        s.h.push_back(h);
        s.error.push_back(e);
    }
    for (int l = 0; l + 1 < levels; ++l) s.order.push_back(convergence_order(s.error[l], s.error[l + 1]));
    return s;
}

std::vector<double> eighth_order_x_derivative(const std::vector<double>& f, int nx, int ny, int nz,
                                              double dx) {
    // core's reference (the kernels' summation order) with the solver's weights over dx, x only.
    const auto& k = eighth_order_coefficients();
    std::array<double, 12> c{};
    c[0] = k.a / dx, c[1] = k.b / dx, c[2] = k.c / dx, c[3] = k.d / dx;
    return derivative_reference(f, {nx, ny, nz}, Axis::x, c);
}

double eighth_order_error(int n) {
    const double two_pi = 2 * std::numbers::pi, dx = 1.0 / n;
    std::vector<double> f((size_t)n * n * n), exact(f.size());
    for (int z = 0; z < n; ++z)
        for (int y = 0; y < n; ++y)
            for (int x = 0; x < n; ++x) {
                const double X = x * dx, Y = y * dx, Z = z * dx;
                const size_t i = ((size_t)z * n + y) * n + x;
                f[i] = std::sin(two_pi * X) * std::cos(two_pi * Y) + std::sin(two_pi * Z);
                exact[i] = two_pi * std::cos(two_pi * X) * std::cos(two_pi * Y);
            }
    const auto df = eighth_order_x_derivative(f, n, n, n, dx);
    double e = 0;
    for (size_t i = 0; i < f.size(); ++i) e = std::max(e, std::abs(df[i] - exact[i]));
    return e;
}

ConvergenceStudy eighth_order_study(int n0, int levels) {
    ConvergenceStudy s;
    for (int l = 0, n = n0; l < levels; ++l, n *= 2) {
        s.h.push_back(1.0 / n);
        s.error.push_back(eighth_order_error(n));
    }
    for (int l = 0; l + 1 < levels; ++l) s.order.push_back(convergence_order(s.error[l], s.error[l + 1]));
    return s;
}

}  // namespace stencil::analysis
