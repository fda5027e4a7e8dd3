// The roofline view's content (viewer/core/roofline.h): the committed H100 sweep's own ceilings,
// points labelled with kernel and T under them, intensities from the DRAM counters.
#include <catch2/catch.hpp>

#include <algorithm>

#include "core/run.h"
#include "viewer/core/roofline.h"
#include "tests/viewer/viewer_test_support.h"

using namespace stencil;
using namespace stencil::viewer;
using stencil::viewer::test::committed_sweep;

TEST_CASE("roofline: the sweep's copy and FMA figures are the ceilings, every run under them", "[viewer][roofline]") {
    const ResultsFile file = load_results(committed_sweep());
    const Ceilings c = ceilings_from_file(file);
    REQUIRE((c.memory_gbps.value_or(0) == Approx(2705.164) && c.compute_gflops.value_or(0) == Approx(62907.41)));
    const RooflineFigure f = roofline_figure(file.runs, c, 1, Precision::f32);
    REQUIRE((f.ridge == Approx(62907.41 / 2705.164) && f.note.empty()));
    // The ceilings come first: the memory line ends at the ridge, the compute line starts there.
    REQUIRE((f.series.size() >= 3 && f.series[0].y.back() == Approx(*c.compute_gflops) &&
             f.series[1].x.front() == Approx(f.ridge)));
    int labelled = 0, timed = 0;
    bool under = true;
    for (const auto& r : file.runs) timed += roofline_point(r).has_value();
    for (size_t s = 2; s < f.series.size(); ++s) {
        const Series& S = f.series[s];
        for (size_t i = 0; i < S.x.size(); ++i) {
            CAPTURE(S.labels[i], S.x[i], S.y[i]);
            labelled += S.labels[i].rfind(S.name + " T=", 0) == 0;
            // Below min(bandwidth x intensity, peak), with 10% for the copy's own spread.
            under &= S.y[i] <= 1.1 * std::min(*c.memory_gbps * S.x[i], *c.compute_gflops);
        }
    }
    REQUIRE((f.points == timed && timed >= 10 && labelled == f.points && under && f.dram_points >= 10));
}

TEST_CASE("roofline: a run's point, DRAM intensity or the compulsory traffic's", "[viewer][roofline]") {
    RunRecord r;
    r.kernel = "tiled";
    r.dims = {64, 64, 64};
    r.flops = 1e9;
    r.ms_median = 2;  // 1e9 FLOP in 2 ms = 500 GFLOP/s
    auto p = roofline_point(r);
    REQUIRE((p && p->gflops == Approx(500) && !p->dram && p->intensity == Approx(1e9 / minimum_bytes(r.dims, Precision::f32))));
    r.dram.read_bytes = 4e8;
    r.dram.write_bytes = 1e8;
    p = roofline_point(r);
    REQUIRE((p && p->dram && p->intensity == Approx(2.0)));
    r.error = "check failed";
    REQUIRE(!roofline_point(r));
}

TEST_CASE("roofline: without ceilings it says so, and the runs' own copies stand in for memory", "[viewer][roofline]") {
    RunRecord a;
    a.kernel = "coarsened";
    a.tile = 32;
    a.dims = {64, 64, 64};
    a.flops = 1e8;
    a.ms_median = 1;
    a.copy_gbps = 100;
    RunRecord b = a;
    b.copy_gbps = 300;
    RunRecord c = a;
    c.copy_gbps = 200;
    const RooflineFigure f = roofline_figure({a, b, c}, Ceilings{}, 1, Precision::f32);
    REQUIRE((f.used.memory_gbps.value_or(0) == 200 && !f.used.compute_gflops && f.ridge == 0 &&
             f.note.find("no compute ceiling") != std::string::npos && f.points == 3));
    // Nothing at all: both ceilings missing and no point, each said.
    const RooflineFigure e = roofline_figure({}, Ceilings{}, 1, Precision::f32);
    REQUIRE((e.points == 0 && e.note.find("no memory ceiling: no sweep loaded") != std::string::npos &&
             e.note.find("No timed runs") != std::string::npos));
}

TEST_CASE("roofline: ceilings measured here on the CPU backend: a copy, and no FMA peak said why", "[viewer][roofline]") {
    const Ceilings c = measure_ceilings("cpu", Precision::f32);
    REQUIRE((c.memory_gbps.value_or(0) > 0 && !c.compute_gflops &&
             c.compute_source.find("CPU backend") != std::string::npos));
}
