#include "core/derivative.h"

#include "core/parallel.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

namespace stencil {

namespace {

double unit_roundoff(Precision p) { return p == Precision::f32 ? 0x1p-24 : 0x1p-53; }
double gamma_m(int m, double u) { return m * u / (1 - m * u); }

// Roundings on the way to one output (see the header): difference, product, three sums.
constexpr int kRoundings = 5;

// Strides of the cells one step apart along `axis`, and the extent.
struct AxisWalk {
    long long stride;
    int extent;
};
AxisWalk walk(GridDims g, Axis a) {
    switch (a) {
        case Axis::x: return {1, g.nx};
        case Axis::y: return {g.nx, g.ny};
        case Axis::z: return {(long long)g.nx * g.ny, g.nz};
    }
    return {1, g.nx};
}

// Calls fn(cell, base, pos) for every cell: base is the index of the cell's row along `axis` at
// position 0, pos its position along the axis. fn writes only its own cell: large grids are
// walked in slabs of z-planes, one thread each (a checker's 64 x 512 x 512 case is 16.7 M cells).
template <class Fn>
void for_each_cell(GridDims g, Axis a, Fn fn) {
    const long long stride = walk(g, a).stride;
    // Small grids on the calling thread: starting threads would cost more than the walk.
    const int slabs = g.cells() < (1 << 20) ? 1 : slab_count(g.nz, 1);
    for_each_slab(g.nz, slabs, [&](int, int z0, int z1) {
        for (int z = z0; z < z1; ++z)
            for (int y = 0; y < g.ny; ++y)
                for (int x = 0; x < g.nx; ++x) {
                    const long long cell = ((long long)z * g.ny + y) * g.nx + x;
                    const int pos = a == Axis::x ? x : a == Axis::y ? y : z;
                    fn(cell, cell - pos * stride, pos);
                }
    });
}

constexpr double kTwoPi = 2 * std::numbers::pi;
constexpr double kPhase[3] = {1, 2, 3};

}  // namespace

std::array<double, 12> rounded_coefficients(GridDims g, Precision p) {
    std::array<double, 12> c = derivative_coefficient_values(g);
    if (p == Precision::f32)
        for (double& v : c) v = static_cast<float>(v);
    return c;
}

std::vector<double> derivative_reference(const std::vector<double>& f, GridDims g, Axis axis,
                                         const std::array<double, 12>& c) {
    const auto [stride, n] = walk(g, axis);
    const double* w = &c[4 * static_cast<int>(axis)];
    std::vector<double> df(f.size());
    for_each_cell(g, axis, [&](long long cell, long long base, int pos) {
        const auto at = [&](int d) { return f[base + ((pos + d) % n + n) % n * stride]; };
        df[cell] = w[0] * (at(1) - at(-1)) + w[1] * (at(2) - at(-2)) + w[2] * (at(3) - at(-3)) +
                   w[3] * (at(4) - at(-4));
    });
    return df;
}

std::vector<double> derivative_reference(const std::vector<double>& f, GridDims g, Axis axis) {
    return derivative_reference(f, g, axis, derivative_coefficient_values(g));
}

DerivativeExpected derivative_expected(const std::vector<double>& in, GridDims g, Axis axis, Precision p) {
    const auto c = rounded_coefficients(g, p);
    DerivativeExpected e;
    e.value = derivative_reference(in, g, axis, c);
    e.bound.assign(e.value.size(), 0);
    const auto [stride, n] = walk(g, axis);
    const double* w = &c[4 * static_cast<int>(axis)];
    const double gamma = gamma_m(kRoundings, unit_roundoff(p)) + gamma_m(kRoundings, unit_roundoff(Precision::f64));
    for_each_cell(g, axis, [&](long long cell, long long base, int pos) {
        const auto at = [&](int d) { return std::abs(in[base + ((pos + d) % n + n) % n * stride]); };
        double terms = 0;
        for (int j = 1; j <= 4; ++j) terms += std::abs(w[j - 1]) * (at(j) + at(-j));
        e.bound[cell] = gamma * terms;
    });
    return e;
}

DerivativeCheck check_derivative(const std::vector<double>& in, const std::vector<double>& out, GridDims g,
                                 Axis axis, Precision p) {
    const DerivativeExpected e = derivative_expected(in, g, axis, p);
    DerivativeCheck r;
    r.cells = g.cells();
    r.gamma = gamma_m(kRoundings, unit_roundoff(p)) + gamma_m(kRoundings, unit_roundoff(Precision::f64));
    for (long long cell = 0; cell < r.cells; ++cell) {
        const double err = std::abs(out[cell] - e.value[cell]);
        const double terms = e.bound[cell] / r.gamma;
        const bool pass = err <= e.bound[cell];  // false for NaN
        if (std::isfinite(err)) {
            r.max_abs_err = std::max(r.max_abs_err, err);
            if (terms > 0) r.max_rel_err = std::max(r.max_rel_err, err / terms);
        } else {
            r.max_abs_err = r.max_rel_err = std::numeric_limits<double>::infinity();
        }
        if (!pass && r.failed++ == 0) {
            r.bad_x = int(cell % g.nx);
            r.bad_y = int(cell / g.nx % g.ny);
            r.bad_z = int(cell / ((long long)g.nx * g.ny));
            r.bad_got = out[cell];
            r.bad_ref = e.value[cell];
        }
    }
    r.ok = r.failed == 0;
    return r;
}

std::string DerivativeCheck::summary() const {
    if (ok)
        return fmt::format("all {} cells within the rounding bound (max |got - ref| {:.3g}, {:.3g} of the terms' "
                           "magnitude; bound {:.3g})",
                           cells, max_abs_err, max_rel_err, gamma);
    return fmt::format("{} of {} cells outside the rounding bound; first at ({}, {}, {}): got {} expected {} (max "
                       "|got - ref| {:.3g}, {:.3g} of the terms' magnitude; bound {:.3g})",
                       failed, cells, bad_x, bad_y, bad_z, bad_got, bad_ref, max_abs_err, max_rel_err, gamma);
}

std::vector<double> sampled_test_field(GridDims g) {
    std::vector<double> f(static_cast<std::size_t>(g.cells()));
    for (int z = 0; z < g.nz; ++z)
        for (int y = 0; y < g.ny; ++y)
            for (int x = 0; x < g.nx; ++x)
                f[((std::size_t)z * g.ny + y) * g.nx + x] = std::sin(kTwoPi * x / g.nx + kPhase[0]) *
                                                            std::sin(kTwoPi * y / g.ny + kPhase[1]) *
                                                            std::sin(kTwoPi * z / g.nz + kPhase[2]);
    return f;
}

std::vector<double> exact_test_derivative(GridDims g, Axis axis) {
    std::vector<double> df(static_cast<std::size_t>(g.cells()));
    const int a = static_cast<int>(axis);
    for (int z = 0; z < g.nz; ++z)
        for (int y = 0; y < g.ny; ++y)
            for (int x = 0; x < g.nx; ++x) {
                const double t[3] = {kTwoPi * x / g.nx + kPhase[0], kTwoPi * y / g.ny + kPhase[1],
                                     kTwoPi * z / g.nz + kPhase[2]};
                double v = kTwoPi;  // d/dx sin(2 pi x + phase) = 2 pi cos(...)
                for (int i = 0; i < 3; ++i) v *= i == a ? std::cos(t[i]) : std::sin(t[i]);
                df[((std::size_t)z * g.ny + y) * g.nx + x] = v;
            }
    return df;
}

ErrorNorms error_against_exact(const std::vector<double>& df, GridDims g, Axis axis) {
    const std::vector<double> exact = exact_test_derivative(g, axis);
    ErrorNorms e;
    double sum = 0;
    for (std::size_t i = 0; i < exact.size(); ++i) {
        const double d = std::abs(df[i] - exact[i]);
        e.max = std::isnan(d) ? d : std::max(e.max, d);
        sum += d * d;
    }
    e.rms = exact.empty() ? 0 : std::sqrt(sum / double(exact.size()));
    return e;
}

GridDims convergence_grid(DerivativeKernelId k, int n) {
    const auto& v = derivative_version(k);
    switch (v.axis) {
        case Axis::x: return {n, v.tile_across, 1};
        case Axis::y: return {v.tile_across, n, 1};
        case Axis::z: return {v.tile_across, 1, n};
    }
    return {n, 1, 1};
}

std::vector<int> convergence_extents() {
    std::vector<int> out;
    for (int n : kDerivativeExtents)
        if (n <= 128 && (n & (n - 1)) == 0) out.push_back(n);
    return out;
}

double fitted_order(const std::vector<double>& h, const std::vector<double>& error) {
    const std::size_t m = std::min(h.size(), error.size());
    if (m < 2) return std::numeric_limits<double>::quiet_NaN();
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (std::size_t i = 0; i < m; ++i) {
        const double x = std::log(h[i]), y = std::log(error[i]);
        sx += x, sy += y, sxx += x * x, sxy += x * y;
    }
    return (m * sxy - sx * sy) / (m * sxx - sx * sx);
}

}  // namespace stencil
