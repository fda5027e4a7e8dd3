#include "core/cardiac2d_check.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace stencil::cardiac2d {

namespace {

double unit_roundoff(Precision p) { return p == Precision::f32 ? 0x1p-24 : 0x1p-53; }
// Below the normal range an operation's error is absolute: at most half the subnormal spacing
// (2^-150 in f32; in f64 the whole spacing 2^-1074, since half of it is no double).
// (The diffusion's tail far from the wave decays into subnormal numbers in f32.)
double underflow_unit(Precision p) { return p == Precision::f32 ? 0x1p-150 : 0x1p-1074; }
double gamma(int k, double u) { return k * u / (1 - k * u); }

// First-order bound of one cell's step with unit roundoff u. The names follow the kernels'
// (aliev_panfilov.cuh); M_* are the expressions with every term taken by its magnitude, D_* the
// magnitudes of the derivatives that carry an earlier error into a later result.
void cell_bound(const StepCoefficients& c, double center, double east, double west, double south, double north,
                double r, double u, double eta, double& bound_e, double& bound_r) {
    using std::abs;
    // PDE: 7 operations (3 additions, 4 * center, the subtraction, alpha *, the final addition).
    const double e1 = center + c.alpha * (east + west - 4 * center + south + north);
    const double M_pde = abs(center) + abs(c.alpha) * (abs(east) + abs(west) + 4 * abs(center) + abs(south) + abs(north));
    const double err1 = gamma(7, u) * M_pde + 7 * eta;
    // E's ODE: 9 operations; its input e1 carries err1.
    const double e2 = e1 - c.dt * (c.kk * e1 * (e1 - c.a) * (e1 - 1) + e1 * r);
    const double M_e = abs(e1) + abs(c.dt) * (abs(c.kk) * abs(e1) * (abs(e1) + abs(c.a)) * (abs(e1) + 1) + abs(e1) * abs(r));
    const double D_e = 1 + abs(c.dt) * (abs(c.kk) * abs(3 * e1 * e1 - 2 * (1 + c.a) * e1 + c.a) + abs(r));
    const double err2 = D_e * err1 + gamma(9, u) * M_e + 9 * eta;
    // R's ODE: 12 operations; its input e2 carries err2. The division by (e2 + M2) multiplies the
    // relative error of that sum by kappa = (|e2| + |M2|) / |e2 + M2| (1 unless they cancel).
    const double s = e2 + c.M2;
    const double kappa = (abs(e2) + abs(c.M2)) / abs(s);
    const double g = c.epsilon + c.M1 * r / s;
    const double h = -r - c.kk * e2 * (e2 - c.b - 1);
    const double M_r = abs(r) + abs(c.dt) * (abs(c.epsilon) + abs(c.M1 * r / s) * (1 + kappa)) *
                                    (abs(r) + abs(c.kk) * abs(e2) * (abs(e2) + abs(c.b) + 1));
    const double D_r = abs(c.dt) * (abs(c.M1 * r) / (s * s) * abs(h) + abs(g) * abs(c.kk) * abs(2 * e2 - c.b - 1));
    const double err_r = D_r * err2 + gamma(12, u) * M_r + 12 * eta;
    bound_e = err2;
    bound_r = err_r;
}

}  // namespace

StepBound one_step_bound(const StepCoefficients& c, const State& in, Precision p) {
    State s = in;
    fill_ghosts(s.n, s.E);
    const long long W = s.width();
    StepBound b;
    b.E.assign(s.E.size(), 0.0);
    b.R.assign(s.E.size(), 0.0);
    for (int y = 1; y <= s.n; ++y)
        for (int x = 1; x <= s.n; ++x) {
            const long long k = s.index(x, y);
            double de = 0, dr = 0, de64 = 0, dr64 = 0;
            cell_bound(c, s.E[k], s.E[k + 1], s.E[k - 1], s.E[k + W], s.E[k - W], s.R[k], unit_roundoff(p), underflow_unit(p), de, dr);
            cell_bound(c, s.E[k], s.E[k + 1], s.E[k - 1], s.E[k + W], s.E[k - W], s.R[k], unit_roundoff(Precision::f64), underflow_unit(Precision::f64),
                       de64, dr64);
            b.E[k] = 2 * (de + de64);
            b.R[k] = 2 * (dr + dr64);
        }
    return b;
}

// Measured on the CPU engine (every kernel, n = 16, 33, 64 for 10..1000 steps; fused at n = 128
// and 256): the largest error grows about linearly, at most 2.3e-8 per step in f32 and 2.2e-17 in
// f64. The tolerance allows about 9 and 18 times that; it is stated for up to kMaxCheckedSteps.
double k_step_tolerance(Precision p, int steps) {
    const double per_step = p == Precision::f32 ? 2e-7 : 4e-16;
    return per_step * std::max(steps, 1);
}
double statistics_tolerance(Precision p, int steps) { return k_step_tolerance(p, steps); }

std::string Comparison::summary() const {
    if (ok())
        return fmt::format("all cells within bound (max |error| E {:.3g}, R {:.3g})", max_error_E, max_error_R);
    return fmt::format("{} values over their bound, first at (x {}, y {}): got {:.9g}, want {:.9g}, bound {:.3g} "
                       "(max |error| E {:.3g}, R {:.3g})",
                       failed, first_x, first_y, first_got, first_want, first_bound, max_error_E, max_error_R);
}

namespace {
template <class BoundOf>
Comparison compare_with(const State& got, const State& want, BoundOf bound_of) {
    Comparison c;
    for (int y = 1; y <= want.n; ++y)
        for (int x = 1; x <= want.n; ++x) {
            const long long k = want.index(x, y);
            for (int field = 0; field < 2; ++field) {
                const double g = field == 0 ? got.E[k] : got.R[k];
                const double w = field == 0 ? want.E[k] : want.R[k];
                const double bound = bound_of(field, k);
                const double err = std::abs(g - w);
                double& worst = field == 0 ? c.max_error_E : c.max_error_R;
                if (std::isnan(err)) worst = err;
                else if (!std::isnan(worst)) worst = std::max(worst, err);
                if (err <= bound) continue;  // (NaN fails here)
                if (c.failed++ == 0) c.first_x = x, c.first_y = y, c.first_got = g, c.first_want = w, c.first_bound = bound;
            }
        }
    return c;
}
}  // namespace

Comparison compare(const State& got, const State& want, const StepBound& bound) {
    return compare_with(got, want, [&](int field, long long k) { return field == 0 ? bound.E[k] : bound.R[k]; });
}
Comparison compare(const State& got, const State& want, double tolerance) {
    return compare_with(got, want, [&](int, long long) { return tolerance; });
}

CheckReport check_kernel(Stepper& stepper, KernelId k, Precision p, int n, int steps) {
    CheckReport rep;
    rep.kernel = k;
    rep.precision = p;
    rep.n = n;
    rep.steps = steps;
    const StepCoefficients c = step_coefficients(n, p);

    // One step from a developed state: after kWarmSteps, E and R hold values other than 0 and 1.
    State warm = spiral_initial_state(n);
    reference_steps(step_coefficients(n, Precision::f64), warm, kWarmSteps);
    warm = rounded(warm, p);
    const StepBound bound = one_step_bound(c, warm, p);
    State want = warm;
    reference_step(c, want);
    State got = warm;
    stepper.advance(k, p, got, 1);
    rep.one_step = compare(got, want, bound);

    // K steps from the start, against the fp64 reference with the kernel's own rounded constants.
    State ref = spiral_initial_state(n);
    State dev = ref;
    reference_steps(c, ref, steps);
    stepper.advance(k, p, dev, steps);
    rep.tolerance = k_step_tolerance(p, steps);
    rep.k_steps = compare(dev, ref, rep.tolerance);
    rep.got = statistics(dev);
    rep.want = statistics(ref);
    rep.statistics_tolerance = statistics_tolerance(p, steps);
    const auto close = [&](double g, double w) { return std::abs(g - w) <= rep.statistics_tolerance * std::max(1.0, std::abs(w)); };
    rep.statistics_ok = close(rep.got.max_abs_E, rep.want.max_abs_E) && close(rep.got.l2_E, rep.want.l2_E);
    return rep;
}

}  // namespace stencil::cardiac2d
