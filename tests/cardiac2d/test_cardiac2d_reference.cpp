// The fp64 reference of cardiac2d (core/cardiac2d.h) and its check (core/cardiac2d_check.h), with
// no kernel: the assignment's formulas, the boundary, the statistics, and a check that fails when
// it should.
#include <catch2/catch.hpp>

#include <cmath>

#include "core/cardiac2d.h"
#include "core/cardiac2d_check.h"
#include "core/error.h"

using stencil::Precision;
using stencil::Problem;
using stencil::UserError;
using namespace stencil::cardiac2d;

TEST_CASE("cardiac2d: dt is the assignment's stable step and alpha follows from it", "[reference]") {
    const int n = GENERATE(8, 100, 1000);
    CAPTURE(n);
    const Discretisation d = discretise(n);
    const double dx = 1.0 / (n - 1), rp = 8.0 * 1.1 * 1.1 / 4;
    const double dte = dx * dx / (4 * 5e-5 + dx * dx * (rp + 8.0)), dtr = 1 / (0.01 + (0.07 / 0.3) * rp);
    REQUIRE(d.dt == Approx(0.95 * std::min(dte, dtr)).epsilon(1e-14));
    REQUIRE(d.alpha == Approx(5e-5 * d.dt / (dx * dx)).epsilon(1e-14));
}

TEST_CASE("cardiac2d: the spiral's start, its statistics and the no-flux ghosts", "[reference]") {
    const int n = 10;
    State s = spiral_initial_state(n);
    // E = 1 on columns 6..10 of every row: half the cells, so L2 = sqrt(1/2).
    const Statistics st = statistics(s);
    REQUIRE(st.max_abs_E == 1.0);
    REQUIRE(st.l2_E == Approx(std::sqrt(0.5)).epsilon(1e-15));
    REQUIRE(s.E[s.index(5, 3)] == 0.0);
    REQUIRE(s.E[s.index(6, 3)] == 1.0);
    REQUIRE(s.R[s.index(3, 5)] == 0.0);
    REQUIRE(s.R[s.index(3, 6)] == 1.0);
    for (int y = 1; y <= n; ++y)
        for (int x = 1; x <= n; ++x) s.E[s.index(x, y)] = 100 * y + x;
    fill_ghosts(n, s.E);
    REQUIRE(s.E[s.index(0, 4)] == s.E[s.index(2, 4)]);
    REQUIRE(s.E[s.index(n + 1, 4)] == s.E[s.index(n - 1, 4)]);
    REQUIRE(s.E[s.index(7, 0)] == s.E[s.index(7, 2)]);
    REQUIRE(s.E[s.index(7, n + 1)] == s.E[s.index(7, n - 1)]);
}

TEST_CASE("cardiac2d: a uniform mesh steps by the ODE alone (its Laplacian is zero)", "[reference]") {
    const int n = 12;
    const StepCoefficients c = step_coefficients(n, Precision::f64);
    State s = spiral_initial_state(n);
    const double e0 = 0.6, r0 = 0.25;
    for (double& v : s.E) v = e0;
    for (double& v : s.R) v = r0;
    reference_step(c, s);
    // The ODE written out by hand from slide 12.
    const double e = e0 - c.dt * (8.0 * e0 * (e0 - 0.1) * (e0 - 1) + e0 * r0);
    const double r = r0 + c.dt * (0.01 + 0.07 * r0 / (e + 0.3)) * (-r0 - 8.0 * e * (e - 0.1 - 1));
    for (int y = 1; y <= n; ++y)
        for (int x = 1; x <= n; ++x) {
            REQUIRE(s.E[s.index(x, y)] == Approx(e).epsilon(1e-15));
            REQUIRE(s.R[s.index(x, y)] == Approx(r).epsilon(1e-15));
        }
}

TEST_CASE("cardiac2d: the f32 rounding bound is tight enough to catch one ulp-scale slip", "[reference]") {
    const int n = 16;
    State warm = spiral_initial_state(n);
    reference_steps(step_coefficients(n, Precision::f64), warm, kWarmSteps);
    warm = rounded(warm, Precision::f32);
    const StepCoefficients c = step_coefficients(n, Precision::f32);
    const StepBound b = one_step_bound(c, warm, Precision::f32);
    State want = warm;
    reference_step(c, want);
    // The reference against itself passes; the bound is small (a few f32 ulps of O(1) values).
    REQUIRE(compare(want, want, b).ok());
    double largest = 0;
    for (double v : b.E) largest = std::max(largest, v);
    REQUIRE(largest > 0);
    REQUIRE(largest < 1e-5);
    // One cell off by twice its bound fails, and is named.
    State got = want;
    const long long k = got.index(5, 7);
    got.E[k] += 2 * b.E[k] + 1e-12;
    const Comparison cmp = compare(got, want, b);
    REQUIRE(cmp.failed == 1);
    REQUIRE((cmp.first_x == 5 && cmp.first_y == 7));
}

namespace {
// A stepper that is wrong in one way: the reference with alpha off by a factor (a kernel that
// forgot the 4 * centre term is off by more).
struct SkewedStepper : Stepper {
    double alpha_factor = 1;
    std::string backend_name() const override { return "test"; }
    void advance(KernelId, Precision p, State& s, int steps) override {
        StepCoefficients c = step_coefficients(s.n, p);
        c.alpha *= alpha_factor;
        reference_steps(c, s, steps);
    }
};
}  // namespace

TEST_CASE("cardiac2d: the check passes the reference and fails a skewed step", "[reference]") {
    SkewedStepper exact;
    REQUIRE(check_kernel(exact, KernelId::fused, Precision::f64, 16, 5).ok());
    SkewedStepper skewed;
    skewed.alpha_factor = 1.001;
    const CheckReport rep = check_kernel(skewed, KernelId::fused, Precision::f32, 16, 5);
    CAPTURE(rep.one_step.summary(), rep.k_steps.summary());
    REQUIRE_FALSE(rep.one_step.ok());
}

TEST_CASE("cardiac2d: sizes outside the table's range are refused with the range", "[reference]") {
    REQUIRE(size_error(7).has_value());
    REQUIRE(size_error(kMaxSide + 1).has_value());
    REQUIRE(size_error(7)->find("between 8 and 16384") != std::string::npos);
    REQUIRE_FALSE(size_error(8).has_value());
}
