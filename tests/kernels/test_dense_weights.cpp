// The dense cube conv27 multiplies (kernels/dense_weights.h): the star's weights on the centre and
// the axes, zeros everywhere else, each in the cell the kernel's loop reads it from.
#include <catch2/catch.hpp>

#include <vector>

#include "kernels/dense_weights.h"
#include "kernels/versions.h"

using namespace stencil;

TEST_CASE("the dense cube holds the star's weights on the axes and zeros elsewhere", "[versions]") {
    const int r = GENERATE(1, 2, 4);
    // Distinct non-zero star weights: c_n = n + 1, so a misplaced one is seen.
    std::vector<double> star(kMaxCoefficients);
    for (int n = 0; n < kMaxCoefficients; ++n) star[n] = n + 1;
    const int edge = 2 * r + 1;
    std::vector<double> cube(edge * edge * edge, -99.0);
    fill_dense_weights(star.data(), r, cube.data());
    CAPTURE(r);
    int zeros = 0;
    for (double v : cube) zeros += v == 0;
    REQUIRE(zeros == edge * edge * edge - (6 * r + 1));
    // x fastest: the centre, then each axis neighbour by hand (c1 x-1, c2 x+1, c3 y-1, c4 y+1,
    // c5 z-1, c6 z+1, then the same six at distance 2, ...).
    const int centre = (r * edge + r) * edge + r;
    REQUIRE(cube[centre] == 1);
    for (int d = 1; d <= r; ++d) {
        const int base = 6 * (d - 1);
        CAPTURE(d);
        REQUIRE(cube[centre - d] == base + 2);
        REQUIRE(cube[centre + d] == base + 3);
        REQUIRE(cube[centre - d * edge] == base + 4);
        REQUIRE(cube[centre + d * edge] == base + 5);
        REQUIRE(cube[centre - d * edge * edge] == base + 6);
        REQUIRE(cube[centre + d * edge * edge] == base + 7);
    }
    // A corner and an edge cell of the cube are off the axes.
    REQUIRE(cube[0] == 0);
    REQUIRE(cube[dense_index(1, 1, 0, r)] == 0);
}

TEST_CASE("fp32 cubes round each weight as the star kernels do", "[versions]") {
    std::vector<double> star(kMaxCoefficients, 0.0);
    star[0] = 0.1;
    star[1] = 1.0 / 3;
    std::vector<float> cube(27);
    fill_dense_weights(star.data(), 1, cube.data());
    REQUIRE(cube[13] == 0.1f);
    REQUIRE(cube[12] == static_cast<float>(1.0 / 3));
}

TEST_CASE("conv27 is a row of the star3d table, after streaming", "[versions]") {
    const KernelVersion* v = find_version("conv27");
    REQUIRE(v != nullptr);
    REQUIRE(v->id == KernelId::conv27);
    REQUIRE(v->problem == Problem::star3d);
    REQUIRE(static_cast<int>(KernelId::conv27) == static_cast<int>(KernelId::streaming) + 1);
    REQUIRE(v->weights == WeightLayout::dense_cube);
    REQUIRE(version(KernelId::naive).weights == WeightLayout::star);
    REQUIRE(executed_points(KernelId::conv27, 1) == 27);
    REQUIRE(executed_flops_per_point(KernelId::conv27, 1) == 53);
    REQUIRE(executed_points(KernelId::naive, 1) == 7);
    // naive's launch: T^3 threads, any block edge up to 10 (1000 threads), no template T.
    REQUIRE_FALSE(v->tile_is_template);
    REQUIRE(runnable_tiles(KernelId::conv27, 2, Precision::f64) == runnable_tiles(KernelId::naive, 2, Precision::f64));
}
