// Every derivative kernel of text 004 on the CPU backend (NVRTC's PTX on the PTX engine) against
// the fp64 reference with the rounding bound of core/derivative.h: fp32 on the post's 64^3 grid,
// fp64 on 32^3 (the engine interprets about 10^7 instructions a second: the suite stays under a
// minute), plus a grid that is not a cube. And the dx^8 order measured on the kernels' own fp64
// output.
#include <catch2/catch.hpp>

#include "core/derivative.h"
#include "tests/derivative/derivative_run.h"

using namespace stencil;

namespace {
const char* name(DerivativeKernelId k) { return derivative_version(k).name; }
}  // namespace

TEST_CASE("derivative kernels on the CPU engine match the fp64 reference", "[derivative][kernel]") {
    const DerivativeVersion& v = GENERATE(from_range(kDerivativeTable.begin(), kDerivativeTable.end()));
    const Precision p = GENERATE(Precision::f32, Precision::f64);
    const int n = p == Precision::f32 ? kPostExtent : 32;
    const DerivativeRequest req{v.id, p, {n, n, n}};
    CAPTURE(v.name, to_string(p), n);
    const auto run = derivative_test::run_cpu(req, derivative_test::random_values(req.dims.cells(), 7));
    const std::string first = run.report.diagnostics.empty() ? "" : run.report.diagnostics.front().message;
    INFO(first);
    REQUIRE(run.report.ok);
    const DerivativeCheck check = check_derivative(run.in, run.out, req.dims, v.axis, p);
    INFO(check.summary());
    REQUIRE(check.ok);
}

TEST_CASE("derivative kernels on grids that are not cubes", "[derivative][kernel]") {
    // Extent 32 along the axis, the others as small as the tile allows and different from it:
    // an index that mixes up mx, my and mz reads the wrong cells.
    const DerivativeVersion& v = GENERATE(from_range(kDerivativeTable.begin(), kDerivativeTable.end()));
    GridDims g = convergence_grid(v.id, 32);
    if (v.axis == Axis::x) g.nz = 3;
    if (v.axis == Axis::y) g.nz = 2, g.nx *= 2;
    if (v.axis == Axis::z) g.ny = 3;
    CAPTURE(v.name, g.nx, g.ny, g.nz);
    const DerivativeRequest req{v.id, Precision::f64, g};
    const auto run = derivative_test::run_cpu(req, derivative_test::random_values(g.cells(), 3));
    REQUIRE(run.report.ok);
    const DerivativeCheck check = check_derivative(run.in, run.out, g, v.axis, Precision::f64);
    INFO(check.summary());
    REQUIRE(check.ok);
}

TEST_CASE("derivative kernels have no shared-memory race and read no unwritten shared cell", "[derivative][kernel]") {
    // The periodic images are copied inside shared memory from other threads' cells: the barriers
    // around that copy are what this checks (the engine's shadow of shared memory, threads run in
    // reverse order and then at random).
    const DerivativeVersion& v = GENERATE(from_range(kDerivativeTable.begin(), kDerivativeTable.end()));
    const engine::Schedule schedule = GENERATE(engine::Schedule::reversed, engine::Schedule::random);
    CAPTURE(v.name, int(schedule));
    engine::ExecOptions opt;
    opt.check_shared = true;
    opt.schedule = schedule;
    const GridDims g = convergence_grid(v.id, 32);
    const auto run = derivative_test::run_cpu({v.id, Precision::f32, g}, derivative_test::random_values(g.cells(), 1), opt);
    INFO(run.report.summary());
    REQUIRE(run.report.clean());
    CHECK(check_derivative(run.in, run.out, g, v.axis, Precision::f32).ok);
}

TEST_CASE("the dx^8 convergence measured on the kernels' own fp64 output", "[derivative][convergence]") {
    const DerivativeVersion& v = GENERATE(from_range(kDerivativeTable.begin(), kDerivativeTable.end()));
    std::vector<double> h, err;
    for (int n : convergence_extents()) {
        const GridDims g = convergence_grid(v.id, n);
        const auto run = derivative_test::run_cpu({v.id, Precision::f64, g}, sampled_test_field(g));
        REQUIRE(run.report.ok);
        h.push_back(grid_spacing(n));
        err.push_back(error_against_exact(run.out, g, v.axis).max);
    }
    const double order = fitted_order(h, err);
    CAPTURE(name(v.id), order, err);
    REQUIRE(h.size() >= 4);
    CHECK(order > 7.5);
    CHECK(order < 8.5);
}
