// Runs that talk (viewer/core/jobs.h): progress moves within a run (its stages), a cancelled job
// says "cancelling..." until it stops, and CPU runs carry the engine's instructions per second.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <thread>

#include "viewer/core/jobs.h"

using namespace stencil;
using namespace stencil::viewer;

TEST_CASE("runs: stages reported within a run, the error's bound and the CPU's instruction rate", "[viewer][jobs]") {
    auto b = make_backend("cpu", nullptr);
    REQUIRE(b);
    const LaunchRequest req{KernelId::tiled, 8, 1, Precision::f32, {20, 20, 20}};
    std::vector<RunStage> stages;
    double last = -1;
    bool rising = true;
    const RunRecord r = run_one(*b, req, 0, 2, true, nullptr, [&](RunStage s, double f) {
        stages.push_back(s);
        rising &= f >= last;
        last = f;
    });
    const auto n = cpu_instructions(*b->engine(), req);
    CAPTURE(r.error, stages.size());
    // At least check, time and copy, in order; the rate is the count over the median time.
    REQUIRE((r.ok && stages.size() >= 4 && rising && std::count(stages.begin(), stages.end(), RunStage::timing) >= 1 &&
             r.bound > r.max_rel_err && n && *n > 0 &&
             r.instructions_per_s == Approx(double(*n) / (r.ms_median * 1e-3))));
}

TEST_CASE("runs: the status line says where a run is, and cancelling", "[viewer][jobs]") {
    REQUIRE(run_status_line("tiled T=8 r=1 f32 on cpu", 2, 5, "timing", false) == "tiled T=8 r=1 f32 on cpu (2 of 5): timing");
    REQUIRE(run_status_line("tiled T=8", 2, 5, "timing", true).rfind("cancelling...", 0) == 0);
}

TEST_CASE("runs: Cancel shows cancelling... and stops a sweep early", "[viewer][jobs]") {
    JobRunner j;
    JobOptions o;
    o.backend = "cpu";
    o.reps = 2;
    o.runs = sweep_requests(KernelId::tiled, 1, Precision::f32, {48, 48, 48});
    REQUIRE(o.runs.size() >= 3);
    REQUIRE(j.start(o));
    // Wait until the first run is under way (its stage reported), then cancel.
    for (int i = 0; i < 500 && j.status().find("(1 of") == std::string::npos; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    j.cancel();
    const bool said = j.cancelling() && j.status().rfind("cancelling...", 0) == 0;
    j.wait();
    const auto done = j.take_finished();
    REQUIRE((said && !j.cancelling() && done.size() < o.runs.size() &&
             j.status().find("cancelled after") != std::string::npos));
}
