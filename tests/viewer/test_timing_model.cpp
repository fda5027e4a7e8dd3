// The modelled timeline (viewer/core/timing_model.h): the CPU engine's trace of a block replayed
// with a GPU's costs, so a laptop shows where warps wait at barriers.
#include <catch2/catch.hpp>

#include <algorithm>

#include "viewer/core/timing_model.h"
#include "tests/viewer/viewer_test_support.h"

using namespace stencil;
using namespace stencil::viewer;
using stencil::viewer::test::traced;

namespace {
double phase_time(const std::vector<TimelineSpan>& w, TimelinePhase p) {
    double t = 0;
    for (const auto& s : w) t += s.phase == p ? s.end - s.begin : 0;
    return t;
}
}  // namespace

TEST_CASE("modelled tiled T=8: warps queue on the memory pipe, the early ones wait at the barrier", "[viewer][timeline]") {
    const StepperTrace t = traced(KernelId::tiled, 8);
    REQUIRE(t.ok());
    const BlockTimeline tl = timeline_modelled(t);
    CHECK(tl.modelled);
    CHECK(tl.unit == "cycles");
    REQUIRE(tl.warps.size() == 16);
    REQUIRE(tl.barriers.size() == 1);
    // Every warp's spans in time order, none overlapping, none past the end.
    for (const auto& w : tl.warps)
        for (size_t i = 0; i < w.size(); ++i) {
            CHECK(w[i].begin < w[i].end);
            if (i > 0) CHECK(w[i - 1].end <= w[i].begin);
            CHECK(w[i].end <= tl.end + 1e-9);
        }
    // The first warp's loads leave the pipe first: it waits longest; the last one hardly at all.
    const double first = phase_time(tl.warps.front(), TimelinePhase::wait);
    const double last = phase_time(tl.warps.back(), TimelinePhase::wait);
    CAPTURE(first, last, tl.end);
    CHECK(first > last);
    CHECK(first > 100);
    CHECK(tl.total(TimelinePhase::wait) > 0.05 * (tl.total(TimelinePhase::load) + tl.total(TimelinePhase::wait)));
    // Halo warps (whole rows of the tile's faces) compute and store nothing after the barrier.
    int idle_after = 0;
    for (const auto& w : tl.warps) idle_after += phase_time(w, TimelinePhase::store) == 0;
    CHECK(idle_after == 4);
}

TEST_CASE("modelled coarsened: a wait at each of the z-march's barriers", "[viewer][timeline]") {
    const StepperTrace t = traced(KernelId::coarsened, 8);
    REQUIRE(t.ok());
    const BlockTimeline tl = timeline_modelled(t);
    CHECK(tl.barriers.size() == 12);
    CHECK(std::is_sorted(tl.barriers.begin(), tl.barriers.end()));
    int waits = 0;
    for (const auto& w : tl.warps)
        for (const auto& s : w) waits += s.phase == TimelinePhase::wait;
    CHECK(waits >= 12);
}

TEST_CASE("the model's costs move its clock: a slower memory makes a longer block", "[viewer][timeline]") {
    const StepperTrace t = traced(KernelId::tiled, 8);
    TimingModel slow;
    slow.global_latency *= 2;
    slow.cycles_per_sector *= 2;
    const double fast_end = timeline_modelled(t).end, slow_end = timeline_modelled(t, slow).end;
    CAPTURE(fast_end, slow_end);
    CHECK(slow_end > fast_end);
    // No trace: no timeline, no crash.
    CHECK(timeline_modelled(StepperTrace{}).empty());
}
