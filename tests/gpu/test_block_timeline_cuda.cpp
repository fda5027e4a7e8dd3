// The GPU's own timeline of one block (backends/cuda/block_timeline.h): the instrumented tiled
// kernel's stamps obey the barrier (no warp leaves it before every warp has arrived), each warp's
// six marks are in order, the halo-only warps of an 8^3 tile compute nothing, and the launch's
// outputs are the kernel's (within the fp64 reference's bound). The coarsened kernel's the same,
// plane by plane of its z-march, with the plane shift's second barrier.
#include <catch2/catch.hpp>

#include <algorithm>

#include "backends/cuda/block_timeline.h"
#include "tests/gpu/gpu_fixture.h"

namespace stencil {

TEST_CASE("the instrumented tiled launch: ordered marks, the barrier's rule, halo warps idle", "[timeline][gpu]") {
    test::gpu();  // fails with the reason where there is no GPU
    const int T = GENERATE(8, 10);
    const Precision p = GENERATE(Precision::f32, Precision::f64);
    LaunchRequest req;
    req.kernel = KernelId::tiled;
    req.tile = T;
    req.radius = 1;
    req.precision = p;
    req.dims = {64, 64, 64};
    const RecordedTimeline t = record_block_timeline(req, 1, 1, 1);
    CAPTURE(T, to_string(p), t.device, t.check, t.warps);
    bool ordered = true;
    std::uint64_t last_arrival = 0, first_release = UINT64_MAX;
    int idle_warps = 0;
    for (int w = 0; w < t.warps; ++w) {
        for (int m = 1; m < kTimelineMarks; ++m)
            ordered = ordered && t.at(t.cycles, w, m) >= t.at(t.cycles, w, m - 1) && t.at(t.ns, w, m) >= t.at(t.ns, w, m - 1);
        last_arrival = std::max(last_arrival, t.at(t.cycles, w, 2));
        first_release = std::min(first_release, t.at(t.cycles, w, 3));
        idle_warps += t.at(t.cycles, w, 4) == t.at(t.cycles, w, 3);  // computed == released: no compute
    }
    // A warp none of whose threads is an inner one (R <= t < T - R on every axis) computes
    // nothing: at T = 8 the halo planes tz = 0 and 7, two warps each.
    int expected_idle = 0;
    for (int w = 0; w < t.warps; ++w) {
        bool computes = false;
        for (int th = 32 * w; th < std::min(32 * (w + 1), T * T * T); ++th) {
            const int x = th % T, y = th / T % T, z = th / (T * T);
            computes = computes || (std::min({x, y, z}) >= 1 && std::max({x, y, z}) < T - 1);
        }
        expected_idle += !computes;
    }
    CHECK((T != 8 || expected_idle == 4));
    CAPTURE(ordered, last_arrival, first_release, idle_warps);
    REQUIRE((t.output_ok && t.warps == (T * T * T + 31) / 32 && ordered && first_release >= last_arrival &&
             idle_warps == expected_idle && t.at(t.cycles, 0, 0) > 0));
}

TEST_CASE("the instrumented coarsened launch: each plane's marks in order, both barriers per plane kept",
          "[timeline][gpu]") {
    test::gpu();
    const int T = GENERATE(8, 32);
    const Precision p = GENERATE(Precision::f32, Precision::f64);
    LaunchRequest req;
    req.kernel = KernelId::coarsened;
    req.tile = T;
    req.radius = 1;
    req.precision = p;
    req.dims = {64, 64, 64};
    const RecordedTimeline t = record_block_timeline(req, 1, 1, 1);
    CAPTURE(T, to_string(p), t.device, t.check, t.warps, t.planes);
    // A warp's marks are one sequence, plane after plane.
    bool ordered = true;
    for (int w = 0; w < t.warps; ++w)
        for (int i = 1; i < t.planes * kTimelineMarks; ++i) {
            const int pl = i / kTimelineMarks, m = i % kTimelineMarks;
            const int ppl = (i - 1) / kTimelineMarks, pm = (i - 1) % kTimelineMarks;
            ordered = ordered && t.at(t.cycles, w, pl, m) >= t.at(t.cycles, w, ppl, pm) &&
                      t.at(t.ns, w, pl, m) >= t.at(t.ns, w, ppl, pm);
        }
    // Per plane: no warp leaves the load barrier before every warp arrived at it, and no warp
    // starts the next plane before every warp has stored this one (the shift's barrier).
    int barriers_kept = 0;
    for (int pl = 0; pl < t.planes; ++pl) {
        std::uint64_t last_arrival = 0, first_release = UINT64_MAX, last_store = 0, first_next = UINT64_MAX;
        for (int w = 0; w < t.warps; ++w) {
            last_arrival = std::max(last_arrival, t.at(t.cycles, w, pl, 2));
            first_release = std::min(first_release, t.at(t.cycles, w, pl, 3));
            last_store = std::max(last_store, t.at(t.cycles, w, pl, 5));
            if (pl + 1 < t.planes) first_next = std::min(first_next, t.at(t.cycles, w, pl + 1, 0));
        }
        barriers_kept += first_release >= last_arrival && first_next >= last_store;
    }
    // A warp of the T^2 block with no inner thread (R <= x, y < T - R) computes on no plane: at
    // T = 32 a warp is one row, so rows 0 and 31.
    int expected_idle = 0, idle = 0;
    for (int w = 0; w < t.warps; ++w) {
        bool computes = false, computed = false;
        for (int th = 32 * w; th < std::min(32 * (w + 1), T * T); ++th) {
            const int x = th % T, y = th / T;
            computes = computes || (std::min(x, y) >= 1 && std::max(x, y) < T - 1);
        }
        for (int pl = 0; pl < t.planes; ++pl) computed = computed || t.at(t.cycles, w, pl, 4) > t.at(t.cycles, w, pl, 3);
        expected_idle += !computes;
        idle += !computed;
    }
    CHECK((T != 32 || expected_idle == 2));
    CAPTURE(ordered, barriers_kept, idle, expected_idle);
    REQUIRE((t.output_ok && t.planes == T - 2 && t.warps == (T * T + 31) / 32 && ordered &&
             barriers_kept == t.planes && idle == expected_idle && t.at(t.cycles, 0, 0, 0) > 0));
}

TEST_CASE("the GPU timeline refuses another kernel and a block outside the grid, in words", "[timeline][gpu]") {
    test::gpu();
    LaunchRequest req;
    req.kernel = KernelId::naive;
    REQUIRE_THROWS_WITH(record_block_timeline(req, 0, 0, 0), Catch::Contains("instruments the tiled and coarsened"));
    req.kernel = KernelId::tiled;
    req.tile = 8;
    req.dims = {20, 20, 20};
    REQUIRE_THROWS_WITH(record_block_timeline(req, 9, 0, 0), Catch::Contains("outside the launch grid"));
}

}  // namespace stencil
