// The block timeline: from the CPU engine's trace (steps) and from an instrumented launch's
// stamps (synthetic here; the GPU's own in tests/gpu/test_block_timeline_cuda.cpp), and its zoom.
#include <catch2/catch.hpp>

#include <algorithm>
#include <tuple>

#include "viewer/core/block_timeline.h"

using namespace stencil;
using namespace stencil::viewer;

TEST_CASE("tiled T=8 from the trace: the halo warps stop at the barrier, the others compute on",
          "[viewer][timeline]") {
    StepperConfig c;
    c.kernel = KernelId::tiled;
    c.tile = 8;
    c.dims = {20, 20, 20};
    c.block = {1, 1, 1};
    const StepperTrace t = trace_block(c);
    REQUIRE(t.ok());
    const BlockTimeline tl = timeline_from_trace(t);
    const double barrier = t.interval_end.at(0);
    bool ordered = true, halo_stop = true, others_go_on = true;
    std::vector<int> idle;  // warps with no compute span
    for (int w = 0; w < (int)tl.warps.size(); ++w) {
        const auto& s = tl.warps[w];
        bool computes = false;
        for (size_t i = 0; i < s.size(); ++i) {
            ordered = ordered && s[i].begin < s[i].end && (i == 0 || s[i - 1].end <= s[i].begin);
            computes = computes || s[i].phase == TimelinePhase::compute;
        }
        if (!computes) idle.push_back(w);
        if (!computes) halo_stop = halo_stop && !s.empty() && s.back().end == barrier;
        else others_go_on = others_go_on && s.back().phase == TimelinePhase::store && s.back().end > barrier;
    }
    // 16 warps of 4 rows of 8 threads: the planes tz = 0 and 7 (warps 0, 1, 14, 15) are all halo.
    // Every warp runs the load's two instructions, so all reach the barrier at the same step: the
    // engine's steps are a logical clock (the GPU's stamps show what the wait costs).
    CAPTURE(tl.warps.size(), idle, tl.barriers, tl.end, tl.total(TimelinePhase::wait));
    REQUIRE((tl.unit == "step" && tl.warps.size() == 16 && ordered && halo_stop && others_go_on &&
             idle == std::vector<int>{0, 1, 14, 15} && tl.barriers == std::vector<double>{barrier} &&
             tl.end == t.last_step() && tl.total(TimelinePhase::wait) == 0));
}

TEST_CASE("a warp with less to do before a barrier waits for the others", "[viewer][timeline]") {
    // A made-up trace of tiled T=8's block (1, 1, 1): thread 0 (warp 0) loads three times before
    // the barrier, thread 32 (warp 1) once; after it both store.
    StepperConfig c;
    c.kernel = KernelId::tiled;
    c.tile = 8;
    c.dims = {20, 20, 20};
    c.block = {1, 1, 1};
    engine::ExecReport rep;
    rep.sites = {0, 1, 2, 3};
    rep.site_source = {{"k.cu", 1, "ld.global.f32"}, {"k.cu", 2, "ld.global.f32"}, {"k.cu", 3, "ld.global.f32"},
                       {"k.cu", 5, "st.global.f32"}};
    const LaunchGeometry g = launch_geometry(c.kernel, c.tile, c.radius, c.precision, c.dims);
    const int block = (1 * g.grid.y + 1) * g.grid.x + 1;
    auto access = [&](int thread, int interval, int site, int seq, engine::Op op) {
        engine::Access a;
        a.block = block, a.thread = thread, a.interval = interval, a.site = site, a.seq = seq, a.op = op;
        a.size = 4, a.buffer = op == engine::Op::load ? 0 : 1, a.offset = 4 * (8 * 400 + 8 * 20 + 8 + seq);
        return a;
    };
    rep.trace = {access(0, 0, 0, 0, engine::Op::load), access(0, 0, 1, 1, engine::Op::load),
                 access(0, 0, 2, 2, engine::Op::load), access(0, 1, 3, 3, engine::Op::store),
                 access(32, 0, 0, 0, engine::Op::load), access(32, 1, 3, 1, engine::Op::store)};
    const StepperTrace t = build_stepper_trace(c, rep);
    const BlockTimeline tl = timeline_from_trace(t);
    using P = TimelinePhase;
    auto spans = [&](int w) {
        std::vector<std::tuple<P, double, double>> v;
        for (const auto& s : tl.warps[w]) v.emplace_back(s.phase, s.begin, s.end);
        return v;
    };
    CAPTURE(t.interval_end, tl.barriers);
    REQUIRE((t.last_step() == 4 && t.interval_end == std::vector<int>{3, 4} &&
             spans(0) == std::vector<std::tuple<P, double, double>>{{P::load, 0, 3}, {P::store, 3, 4}} &&
             spans(1) == std::vector<std::tuple<P, double, double>>{{P::load, 0, 1}, {P::wait, 1, 3}, {P::store, 3, 4}} &&
             tl.total(P::wait) == 2 && tl.barriers == std::vector<double>{3}));
}

TEST_CASE("timeline from stamps: spans between the marks, the barrier at the first release", "[viewer][timeline]") {
    BlockStamps s;
    s.unit = "cycles";
    // warp 0: loads 100..300, waits 310..500, computes 500..900, stores 900..950 (start at 100)
    // warp 1, a halo warp: loads 120..200, waits 200..520, computes nothing, done at 530
    s.warps = {{{100, 300, 310, 500, 900, 950}}, {{120, 200, 200, 520, 520, 530}}};
    const BlockTimeline tl = timeline_from_stamps(s);
    auto phases = [&](int w) {
        std::vector<TimelinePhase> p;
        for (const auto& x : tl.warps[w]) p.push_back(x.phase);
        return p;
    };
    using P = TimelinePhase;
    REQUIRE((tl.warps.size() == 2 && phases(0) == std::vector<P>{P::load, P::compute, P::wait, P::compute, P::store} &&
             phases(1) == std::vector<P>{P::load, P::wait, P::store} && tl.barriers == std::vector<double>{400} &&
             tl.end == 850 && tl.total(P::wait) == 190 + 320 && tl.warps[1][0].begin == 20));
}

TEST_CASE("timeline from a z-march's stamps: each plane's barrier and the plane shift's between planes",
          "[viewer][timeline]") {
    BlockStamps s;
    s.unit = "cycles";
    // Two planes. warp 0 computes: plane 0 loads 0..10, waits 12..20, computes 20..30, stores
    // 30..35, waits for the shift 35..40; plane 1 the same 40 cycles later. Warp 1 is a halo warp.
    s.warps = {{{0, 10, 12, 20, 30, 35}, {40, 50, 52, 60, 70, 75}},
               {{2, 8, 8, 21, 21, 22}, {41, 48, 48, 61, 61, 62}}};
    const BlockTimeline tl = timeline_from_stamps(s);
    using P = TimelinePhase;
    std::vector<std::tuple<P, double, double, int>> halo;
    for (const auto& x : tl.warps.at(1)) halo.emplace_back(x.phase, x.begin, x.end, x.interval);
    const std::vector<std::tuple<P, double, double, int>> want{
        {P::load, 2, 8, 0}, {P::wait, 8, 21, 0}, {P::store, 21, 22, 1}, {P::wait, 22, 41, 1},
        {P::load, 41, 48, 2}, {P::wait, 48, 61, 2}, {P::store, 61, 62, 3}};
    CAPTURE(tl.barriers, tl.end, tl.total(P::wait));
    REQUIRE((halo == want && tl.barriers == std::vector<double>{20, 40, 60} && tl.end == 75 &&
             tl.total(P::wait) == (8 + 5 + 8) + (13 + 19 + 13)));
}

TEST_CASE("the timeline panel offers the kernels the GPU can stamp: tiled and coarsened", "[viewer][timeline]") {
    REQUIRE(gpu_timeline_kernels() == std::vector<KernelId>{KernelId::tiled, KernelId::coarsened});
}

TEST_CASE("zooming keeps the pointer's time in place and the window inside the block", "[viewer][timeline]") {
    const TimeWindow all{0, 1000};
    const TimeWindow in = zoom_window(all, 250, 4, 1000);
    const TimeWindow edge = zoom_window(all, 0, 4, 1000);
    const TimeWindow out = zoom_window(in, 250, 0.1, 1000);
    const TimeWindow tiny = zoom_window({0, 2}, 1, 100, 1000);
    CAPTURE(in.from, in.to, edge.from, edge.to, out.from, out.to, tiny.from, tiny.to);
    REQUIRE((in.to - in.from == 250 && in.from == Approx(187.5) && edge.from == 0 && edge.to == 250 &&
             out.from == 0 && out.to == 1000 && tiny.to - tiny.from == 1));
}
