// The cardiac2d model (analysis/cardiac2d_model.h) and the versions table's derived facts.
#include <catch2/catch.hpp>

#include "analysis/cardiac2d_model.h"
#include "kernels/catalog.h"
#include "kernels/cardiac2d/versions.h"

using stencil::Precision;
using stencil::Problem;
using namespace stencil::cardiac2d;

TEST_CASE("cardiac2d model: the slides' 60 edge threads load the 64 ghost cells at 16x16", "[analysis]") {
    const GhostAssignment g = ghost_assignment(16);
    REQUIRE(g.edge_threads == 60);
    REQUIRE(g.ghost_loads == 64);
    REQUIRE(g.threads_loading_two == 4);
    REQUIRE(g.ghost_ring_with_corners == 68);
    REQUIRE(g.difference.find("60") != std::string::npos);
    REQUIRE(g.difference.find("64") != std::string::npos);
}

TEST_CASE("cardiac2d model: one thread per cell idles the 4T + 4 ring threads", "[analysis]") {
    const int T = GENERATE(2, 3, 16, 30);
    CAPTURE(T);
    const GhostAssignment g = ghost_assignment(T);
    REQUIRE(g.edge_threads == 4 * T - 4);
    REQUIRE(g.ghost_loads == 4 * T);
    REQUIRE(g.idle_threads == 4 * T + 4);
    REQUIRE(g.idle_share == Approx(double(4 * T + 4) / ((T + 2) * (T + 2))));
}

TEST_CASE("cardiac2d model: the shared-all row's idle threads agree with the model", "[analysis]") {
    const Version& v = version(KernelId::shared_all);
    REQUIRE(v.tile_x == v.tile_y);
    REQUIRE(idle_threads(KernelId::shared_all) == ghost_assignment(v.tile_x).idle_threads);
    REQUIRE(idle_threads(KernelId::shared) == 0);
    REQUIRE(idle_threads(KernelId::fused) == 0);
}

TEST_CASE("cardiac2d versions: every row launches within CUDA's limits and covers the mesh", "[kernel]") {
    for (const Version& v : versions()) {
        CAPTURE(v.name);
        for (int n : {8, 17, 100, 1000}) {
            const Launch l = launch_geometry(v.id, n, Precision::f64);
            REQUIRE(l.block.count() <= 1024);
            REQUIRE(l.smem_bytes <= 48 * 1024);
            REQUIRE((long long)l.grid.x * v.tile_x >= n);
            REQUIRE((long long)l.grid.y * v.tile_y >= n);
        }
    }
    REQUIRE(ghost_assignment(16).edge_threads == 60);
}

TEST_CASE("cardiac2d versions: the catalog lists every row under cardiac2d", "[kernel]") {
    const auto entries = stencil::catalog(Problem::cardiac2d, 1, Precision::f32);
    REQUIRE(entries.size() == versions().size());
    REQUIRE(stencil::has_kernel(Problem::cardiac2d, "sliding-rows"));
    REQUIRE_FALSE(stencil::has_kernel(Problem::cardiac2d, "tiled"));
    REQUIRE(stencil::kernel_names(Problem::cardiac2d) == version_names());
}
