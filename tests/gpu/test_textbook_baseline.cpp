// The textbook's listings as printed (bench/textbook/), and the baseline's own launches of the
// lab's kernels (the CUDA backend's, backends/cuda/lab_kernel.h), match the fp64 reference on the GPU: every configuration
// of the seed table at N = 64 and at N = 67 (a multiple of no tile's OUT_TILE_DIM: 2, 4, 6, 8,
// 14, 30, nor of the naive blocks). Each launch starts from a poisoned output, so a listing that
// writes the boundary or leaves an interior cell unwritten fails. No timing assertions: speed is
// reported by `stencil-lab baseline`, not tested.
//
// Linked with stencil_experiments by experiments/CMakeLists.txt (a deferred target_link_libraries).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "tests/gpu/gpu_fixture.h"
#ifdef STENCIL_LAB_HAVE_BASELINE
#include "experiments/baseline.h"
#endif

#ifdef STENCIL_LAB_HAVE_BASELINE
namespace stencil {
namespace {

struct BaselineCase {
    experiments::BaselineConfig config;
    experiments::Side side;
    int n;
};

std::vector<BaselineCase> all_baseline_cases() {
    std::vector<BaselineCase> cases;
    for (int n : {64, 67})
        for (const auto& c : experiments::baseline_configs()) {
            cases.push_back({c, experiments::Side::textbook, n});
            if (c.has_lab) cases.push_back({c, experiments::Side::lab, n});
        }
    return cases;
}

}  // namespace

TEST_CASE("the textbook's listings and the baseline's lab launches match the fp64 reference", "[kernel][gpu][baseline]") {
    test::gpu();  // fails here, with the reason, where there is no usable GPU
    static const std::vector<BaselineCase> cases = all_baseline_cases();
    const BaselineCase c = GENERATE(from_range(cases));
    CAPTURE(std::string(c.side == experiments::Side::textbook ? "textbook " : "lab ") + c.config.label, c.n);
    const CompareResult r = experiments::check_one(c.side, c.config, c.n, /*seed=*/7);
    INFO(r.summary());
    REQUIRE(r.ok);
}

TEST_CASE("the seed table has every configuration of the textbook figures", "[baseline]") {
    const auto configs = experiments::baseline_configs();
    REQUIRE(configs.size() == 10);
    // Every row has the lab's counterpart on the same launch: naive 32x4x2 too (run --block).
    for (const auto& c : configs) {
        CAPTURE(c.label);
        REQUIRE(c.has_lab);
        if (c.kernel == KernelId::naive) {
            const auto g = experiments::lab_launch_geometry(c, 64);
            REQUIRE(g.block == c.naive_block);
        }
    }
}

}  // namespace stencil
#else
TEST_CASE("the textbook baseline needs the CUDA build", "[gpu][baseline]") {
    FAIL("stencil_experiments' baseline is not built (no CUDA backend in this build)");
}
#endif
