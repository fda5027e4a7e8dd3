#include "core/cardiac2d.h"

#include <algorithm>
#include <cmath>

namespace stencil::cardiac2d {

Discretisation discretise(int n) {
    using AP = AlievPanfilov;
    Discretisation d;
    d.n = n;
    d.dx = 1.0 / (n - 1);
    const double rp = AP::kk * (AP::b + 1) * (AP::b + 1) / 4;
    const double dte = (d.dx * d.dx) / (AP::d * 4 + (d.dx * d.dx) * (rp + AP::kk));
    const double dtr = 1 / (AP::epsilon + (AP::M1 / AP::M2) * rp);
    d.dt = dte < dtr ? 0.95 * dte : 0.95 * dtr;
    d.alpha = AP::d * d.dt / (d.dx * d.dx);
    return d;
}

namespace {
double round_to(double v, Precision p) { return p == Precision::f32 ? double(float(v)) : v; }
}  // namespace

StepCoefficients step_coefficients(int n, Precision p) {
    using AP = AlievPanfilov;
    const Discretisation d = discretise(n);
    // The kernels take alpha and dt as `real` parameters, and round the constants to `real`.
    const auto r = [p](double v) { return round_to(v, p); };
    return {r(AP::a), r(AP::b), r(AP::kk), r(AP::M1), r(AP::M2), r(AP::epsilon), r(d.alpha), r(d.dt)};
}

State spiral_initial_state(int n) {
    State s;
    s.n = n;
    s.E.assign(static_cast<std::size_t>(s.width()) * s.width(), 0.0);
    s.R = s.E;
    for (int y = 1; y <= n; ++y)
        for (int x = n / 2 + 1; x <= n; ++x) s.E[s.index(x, y)] = 1.0;
    for (int y = n / 2 + 1; y <= n; ++y)
        for (int x = 1; x <= n; ++x) s.R[s.index(x, y)] = 1.0;
    return s;
}

void fill_ghosts(int n, std::vector<double>& E) {
    const long long W = n + 2;
    for (int t = 1; t <= n; ++t) {
        E[t * W + 0] = E[t * W + 2];
        E[t * W + n + 1] = E[t * W + n - 1];
        E[0 * W + t] = E[2 * W + t];
        E[(n + 1) * W + t] = E[(n - 1) * W + t];
    }
}

void reference_step(const StepCoefficients& c, State& s) {
    const int n = s.n;
    const long long W = s.width();
    fill_ghosts(n, s.E);
    std::vector<double> E = s.E;  // the new E; its ghosts are refilled before the next step
    const std::vector<double>& E_prev = s.E;
    for (int j = 1; j <= n; ++j)
        for (int i = 1; i <= n; ++i) {
            const long long k = j * W + i;
            // The slides' order of the sum (kernels/cardiac2d/aliev_panfilov.cuh writes the same).
            E[k] = E_prev[k] + c.alpha * (E_prev[k + 1] + E_prev[k - 1] - 4 * E_prev[k] + E_prev[k + W] + E_prev[k - W]);
        }
    for (int j = 1; j <= n; ++j)
        for (int i = 1; i <= n; ++i) {
            const long long k = j * W + i;
            double e = E[k], r = s.R[k];
            e = e - c.dt * (c.kk * e * (e - c.a) * (e - 1) + e * r);
            r = r + c.dt * (c.epsilon + c.M1 * r / (e + c.M2)) * (-r - c.kk * e * (e - c.b - 1));
            E[k] = e;
            s.R[k] = r;
        }
    s.E = std::move(E);
}

void reference_steps(const StepCoefficients& c, State& s, int steps) {
    for (int i = 0; i < steps; ++i) reference_step(c, s);
}

State rounded(const State& s, Precision p) {
    State out = s;
    for (double& v : out.E) v = round_to(v, p);
    for (double& v : out.R) v = round_to(v, p);
    return out;
}

Statistics statistics(const State& s) {
    Statistics st;
    double sum_sq = 0;
    for (int y = 1; y <= s.n; ++y)
        for (int x = 1; x <= s.n; ++x) {
            const double e = s.E[s.index(x, y)];
            st.max_abs_E = std::max(st.max_abs_E, std::abs(e));
            sum_sq += e * e;
        }
    st.l2_E = std::sqrt(sum_sq / (double(s.n) * s.n));
    return st;
}

}  // namespace stencil::cardiac2d
