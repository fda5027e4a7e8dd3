// Text 004's derivative without a kernel: the table's facts, the reference's weights and order,
// the check's bound (it passes what rounding allows and fails a few ulps more), and the model's
// tile table read from the kernels' table (reload shares pinned).
#include <catch2/catch.hpp>

#include <cmath>

#include "analysis/derivative_tiles.h"
#include "analysis/finite_difference.h"
#include "core/derivative.h"
#include "tests/derivative/derivative_run.h"

using namespace stencil;

TEST_CASE("derivative table: the post's launch shapes at 64^3", "[derivative][table]") {
    const GridDims g{64, 64, 64};
    struct Want {
        DerivativeKernelId k;
        Dim3 grid, block;
        long long smem_f32;
    };
    // derivative_x: blocks (mx, sPencils), grid (my / sPencils, mz); the lPencils y/z kernels keep
    // the same 256 threads as (lPencils, my * sPencils / lPencils).
    const Want wants[] = {
        {DerivativeKernelId::x_small, {16, 64, 1}, {64, 4, 1}, 4 * 72 * 4},
        {DerivativeKernelId::x_large, {2, 64, 1}, {64, 4, 1}, 32 * 72 * 4},
        {DerivativeKernelId::x_tile, {4, 4, 64}, {16, 16, 1}, 16 * 24 * 4},
        {DerivativeKernelId::y_small, {16, 64, 1}, {4, 64, 1}, 72 * 4 * 4},
        {DerivativeKernelId::y_large, {2, 64, 1}, {32, 8, 1}, 72 * 32 * 4},
        {DerivativeKernelId::z_small, {16, 64, 1}, {4, 64, 1}, 72 * 4 * 4},
        {DerivativeKernelId::z_large, {2, 64, 1}, {32, 8, 1}, 72 * 32 * 4},
    };
    for (const Want& w : wants) {
        const DerivativeLaunch l = derivative_launch(w.k, g, Precision::f32);
        CAPTURE(derivative_version(w.k).name);
        CHECK((l.grid.x == w.grid.x && l.grid.y == w.grid.y && l.grid.z == w.grid.z));
        CHECK((l.block.x == w.block.x && l.block.y == w.block.y && l.block.z == w.block.z));
        CHECK(l.smem_bytes == w.smem_f32);
        // every cell gets exactly one thread-step: blocks x threads x cells per thread = cells
        const auto& v = derivative_version(w.k);
        const long long across_steps = v.axis == Axis::x ? v.tile_across / v.threads_across : 1;
        CHECK(l.grid.count() * l.block.count() * v.cells_per_thread * across_steps == g.cells());
    }
}

TEST_CASE("derivative table: the grids a kernel refuses, in one sentence", "[derivative][table]") {
    CHECK_FALSE(derivative_grid_error(DerivativeKernelId::x_small, {64, 64, 64}, Precision::f32));
    const auto unbuilt = derivative_grid_error(DerivativeKernelId::x_small, {100, 64, 64}, Precision::f32);
    REQUIRE(unbuilt);
    CHECK_THAT(*unbuilt, Catch::Contains("x extent 100 is not built"));
    const auto across = derivative_grid_error(DerivativeKernelId::y_large, {48, 64, 64}, Precision::f32);
    REQUIRE(across);
    CHECK_THAT(*across, Catch::Contains("not a multiple of the tile's 32 pencils"));
    // 32 pencils of 256 + 8 doubles: 67584 B, over the 48 KiB of static shared memory
    const auto smem = derivative_grid_error(DerivativeKernelId::z_large, {256, 256, 256}, Precision::f64);
    REQUIRE(smem);
    CHECK_THAT(*smem, Catch::Contains("67584 B of shared memory"));
    // nx must hold 32 pencils (no 16^3), and 32 x (N + 8) doubles fit 48 KiB up to N = 184
    CHECK(derivative_cubic_sizes(DerivativeKernelId::z_large, Precision::f64) == std::vector<int>{32, 64, 96, 128});
    CHECK(derivative_cubic_sizes(DerivativeKernelId::x_small, Precision::f32).back() == 256);
}

TEST_CASE("the 8th-order weights are the solver's", "[derivative][reference]") {
    const auto w = analysis::central_derivative_weights(4);
    for (int j = 0; j < 4; ++j) CHECK(kEighthOrderWeights[j] == w[j].value());
    // divided by the spacing 1/n: the post's ax = 4/5 * dsinv
    const auto c = derivative_coefficient_values({64, 32, 16});
    CHECK(c[0] == 0.8 * 64);
    CHECK(c[4] == 0.8 * 32);
    CHECK(c[11] == -1.0 / 280 * 16);
}

TEST_CASE("the reference converges at order 8 in each axis", "[derivative][reference]") {
    const Axis axis = GENERATE(Axis::x, Axis::y, Axis::z);
    std::vector<double> h, err;
    for (int n : {16, 32, 64}) {
        const GridDims g{axis == Axis::x ? n : 4, axis == Axis::y ? n : 4, axis == Axis::z ? n : 4};
        h.push_back(grid_spacing(n));
        err.push_back(error_against_exact(derivative_reference(sampled_test_field(g), g, axis), g, axis).max);
    }
    CAPTURE(to_string(axis), err);
    CHECK(fitted_order(h, err) == Approx(8).margin(0.3));
}

TEST_CASE("the check passes rounding and fails a few ulps more", "[derivative][reference]") {
    const GridDims g{32, 4, 4};
    const auto in = derivative_test::random_values(g.cells(), 11);
    std::vector<float> in32(in.begin(), in.end());
    const std::vector<double> widened(in32.begin(), in32.end());
    // An fp32 evaluation in the kernels' order passes...
    const auto c = rounded_coefficients(g, Precision::f32);
    std::vector<double> out(widened.size());
    for (int z = 0; z < g.nz; ++z)
        for (int y = 0; y < g.ny; ++y)
            for (int x = 0; x < g.nx; ++x) {
                const auto at = [&](int d) { return in32[(std::size_t(z) * g.ny + y) * g.nx + (x + d + g.nx) % g.nx]; };
                float s = float(c[0]) * (at(1) - at(-1));
                s = s + float(c[1]) * (at(2) - at(-2));
                s = s + float(c[2]) * (at(3) - at(-3));
                s = s + float(c[3]) * (at(4) - at(-4));
                out[(std::size_t(z) * g.ny + y) * g.nx + x] = s;
            }
    const DerivativeCheck good = check_derivative(widened, out, g, Axis::x, Precision::f32);
    INFO(good.summary());
    CHECK(good.ok);
    // ... a cell off by 16 ulps of its largest term, a NaN, or the wrong axis do not.
    auto bad = out;
    bad[37] += 16 * 0x1p-23 * std::abs(c[0]);
    CHECK_FALSE(check_derivative(widened, bad, g, Axis::x, Precision::f32).ok);
    bad = out;
    bad[5] = std::nan("");
    const DerivativeCheck nan = check_derivative(widened, bad, g, Axis::x, Precision::f32);
    CHECK((!nan.ok && nan.failed == 1 && nan.bad_x == 5 && nan.bad_y == 0));
    CHECK_FALSE(check_derivative(widened, out, g, Axis::y, Precision::f32).ok);
}

TEST_CASE("the model's tile table reads the kernels' table: reload shares 0.5 and 0", "[derivative][analysis]") {
    const auto table = analysis::derivative_tile_table(kPostExtent, 4);
    const auto& square = analysis::derivative_tile(table, "16x16");
    const auto& pencil = analysis::derivative_tile(table, "64x4");
    CHECK(square.shape.reload_share == 0.5);  // 8 x 16 of 16 x 16 loaded twice
    CHECK(square.shape.reloaded == 8 * 16);
    CHECK(pencil.shape.reload_share == 0);
    CHECK(pencil.shape.fully_coalesced);
    CHECK_FALSE(square.shape.fully_coalesced);
    CHECK(square.kernel == "x-tile16x16");
    CHECK(pencil.kernel == "x-spencils");
    CHECK(analysis::derivative_tile(table, "64x32").kernel == "x-lpencils");
}
