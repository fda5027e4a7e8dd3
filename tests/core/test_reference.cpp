// The fp64 reference, the compare and the version table: the oracles everything else is checked
// against, so they are checked first and independently.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "core/compare.h"
#include "core/host_memory.h"
#include "core/reference.h"
#include "core/stats.h"
#include "kernels/versions.h"

using namespace stencil;

TEST_CASE("the Laplacian of a quadratic is constant", "[reference]") {
    // f = x^2 + 2y^2 + 3z^2: its discrete Laplacian is 2 + 4 + 6 = 12 exactly at every interior
    // cell for every order 2r scheme (they are all exact on quadratics).
    const int radius = GENERATE(1, 2, 3, 4);
    CAPTURE(radius);
    const GridDims d{13, 11, 2 * radius + 3};
    auto in = sampled_field<double>(d, [](double x, double y, double z) { return x * x + 2 * y * y + 3 * z * z; });
    const auto ref = reference_stencil(in, laplacian_weights(radius));
    double worst = 0;
    for (int z = radius; z < d.nz - radius; ++z)
        for (int y = radius; y < d.ny - radius; ++y)
            for (int x = radius; x < d.nx - radius; ++x)
                worst = std::max(worst, std::fabs(ref.value[in.index(x, y, z)] - 12.0));
    REQUIRE(worst < 1e-9);
}

TEST_CASE("the reference on small integers matches a hand count", "[reference]") {
    // One interior cell, computed by hand from the textbook's c0..c6 order.
    const GridDims d{3, 3, 3};
    Field<float> in(d);
    for (size_t n = 0; n < in.data.size(); ++n) in.data[n] = static_cast<float>(n);  // value = index
    StencilWeights w;
    w.radius = 1;
    w.c = {2, 3, 5, 7, 11, 13, 17};  // c0..c6
    const auto ref = reference_stencil(in, w);
    // centre 13; x-1 12, x+1 14; y-1 10, y+1 16; z-1 4, z+1 22
    const double expected = 2 * 13 + 3 * 12 + 5 * 14 + 7 * 10 + 11 * 16 + 13 * 4 + 17 * 22;
    REQUIRE(ref.value[13] == expected);
    REQUIRE(ref.value[0] == 0.0);  // boundary keeps the input
}

TEST_CASE("compare catches NaN, unwritten, off-by-one and boundary cells", "[reference]") {
    const GridDims d{9, 8, 7};
    const auto in = random_field<float>(d, 7);
    const auto w = random_weights(1, 3).rounded_to(Precision::f32);
    const auto ref = reference_stencil(in, w);

    // A correct fp32 result passes.
    Field<float> good(d);
    for (size_t n = 0; n < good.data.size(); ++n) good.data[n] = static_cast<float>(ref.value[n]);
    REQUIRE(compare_with_reference(good, ref, Precision::f32).ok);

    SECTION("an unwritten (poisoned) interior cell fails") {
        auto bad = good;
        bad.at(4, 3, 2) = std::numeric_limits<float>::quiet_NaN();
        auto r = compare_with_reference(bad, ref, Precision::f32);
        REQUIRE((!r.ok && r.bad_cells == 1 && r.nan_cells == 1 && r.first_bad->x == 4 &&
                 r.first_bad->y == 3 && r.first_bad->z == 2));
    }
    SECTION("a poisoned output that nobody wrote fails everywhere inside") {
        auto r = compare_with_reference(poisoned_output(in, 1), ref, Precision::f32);
        REQUIRE((!r.ok && r.bad_cells == 7 * 6 * 5 && r.boundary_changed == 0));
    }
    SECTION("a value shifted by one cell fails") {
        auto bad = good;
        bad.at(3, 3, 3) = good.at(4, 3, 3);
        auto r = compare_with_reference(bad, ref, Precision::f32);
        REQUIRE((!r.ok && r.first_bad->x == 3));
    }
    SECTION("a few ulps beyond the rounding bound fail") {
        auto bad = good;
        const size_t n = bad.index(2, 2, 2);
        bad.data[n] = static_cast<float>(ref.value[n] + 4 * rounding_gamma(Precision::f32, 1) * ref.magnitude[n]);
        REQUIRE_FALSE(compare_with_reference(bad, ref, Precision::f32).ok);
    }
    SECTION("a written boundary cell fails") {
        auto bad = good;
        bad.at(0, 3, 3) += 1.0f;
        auto r = compare_with_reference(bad, ref, Precision::f32);
        REQUIRE((!r.ok && r.boundary_changed == 1 && r.first_bad->kind == CellKind::boundary));
    }
    SECTION("Inf fails") {
        auto bad = good;
        bad.at(5, 5, 5) = std::numeric_limits<float>::infinity();
        REQUIRE_FALSE(compare_with_reference(bad, ref, Precision::f32).ok);
    }
}

TEST_CASE("fp32 evaluation in the textbook order stays within the bound", "[reference]") {
    const int radius = GENERATE(1, 2, 3, 4);
    CAPTURE(radius);
    const GridDims d{17, 15, 2 * radius + 4};
    const auto in = random_field<float>(d, 11 + radius);
    const auto w = random_weights(radius, 5).rounded_to(Precision::f32);
    const auto ref = reference_stencil(in, w);
    // Evaluate in float, term by term, as the kernels do.
    Field<float> got = poisoned_output(in, radius);
    const auto pts = star_points(radius);
    for (int z = radius; z < d.nz - radius; ++z)
        for (int y = radius; y < d.ny - radius; ++y)
            for (int x = radius; x < d.nx - radius; ++x) {
                float s = 0;
                for (const auto& p : pts)
                    s += static_cast<float>(w.c[p.coefficient]) * in.at(x + p.dx, y + p.dy, z + p.dz);
                got.at(x, y, z) = s;
            }
    auto r = compare_with_reference(got, ref, Precision::f32);
    CAPTURE(r.summary());
    REQUIRE(r.ok);
}

TEST_CASE("the median of an even count is the mean of the middle two", "[reference]") {
    REQUIRE(summarize({4, 1, 3, 2}).median == 2.5);
    REQUIRE(summarize({5, 1, 3}).median == 3);
    auto s = summarize({2, 9, 4, 7});
    REQUIRE((s.min == 2 && s.max == 9 && s.count == 4));
}

TEST_CASE("tile rules name the bound that is broken", "[kernel]") {
    REQUIRE_FALSE(tile_error(KernelId::tiled, 8, 1, Precision::f32));
    REQUIRE(tile_error(KernelId::tiled, 11, 1, Precision::f32)->find("1331 threads") != std::string::npos);
    REQUIRE(tile_error(KernelId::tiled, 2, 1, Precision::f32)->find("must exceed 2r") != std::string::npos);
    REQUIRE(tile_error(KernelId::coarsened, 32, 4, Precision::f64)->find("shared memory") != std::string::npos);
    REQUIRE_FALSE(tile_error(KernelId::register_tiled, 32, 4, Precision::f64));
    REQUIRE(tile_error(KernelId::coarsened, 13, 1, Precision::f32)->find("not compiled") != std::string::npos);
    // Largest tiled T is 10 (1000 threads), for every radius.
    for (int r = 1; r <= 4; ++r) REQUIRE(runnable_tiles(KernelId::tiled, r, Precision::f32).back() == 10);
    const auto geo = launch_geometry(KernelId::tiled, 8, 1, Precision::f32, {100, 15, 17});
    REQUIRE((geo.grid.x == 17 && geo.grid.y == 3 && geo.grid.z == 3 && geo.smem_bytes == 2048));
    REQUIRE(grid_error({2, 64, 64}, 1));
    REQUIRE_FALSE(grid_error({3, 3, 3}, 1));
}

TEST_CASE("a grid the host cannot hold is refused in a sentence, before anything is allocated", "[reference]") {
    // 512^3 fp32: 4 + 4 + 16 = 24 B per cell, 3 GiB in all.
    const GridDims big{512, 512, 512};
    const long long need = big.cells() * 24;
    REQUIRE(checked_run_bytes_per_cell(Precision::f32) == 24);
    REQUIRE(checked_run_bytes_per_cell(Precision::f64) == 32);
    CHECK_FALSE(host_memory_error(big, Precision::f32, need * 2));  // plenty
    const auto too_little = host_memory_error(big, Precision::f32, need);  // no room to spare
    REQUIRE(too_little);
    CHECK(too_little->find("3072 MiB") != std::string::npos);
    CHECK_FALSE(host_memory_error(big, Precision::f32, 0));  // unknown: not refused
    CHECK(available_host_memory() > 0);  // Linux always says
}
