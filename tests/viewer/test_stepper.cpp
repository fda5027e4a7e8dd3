// The stepper's state after k steps, from real CPU-backend traces of small grids; the kernel
// source's barrier intervals; warp maps; results JSON; runs on a worker thread.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>

#include "core/error.h"
#include "viewer/core/jobs.h"
#include "viewer/core/kernel_source.h"
#include "viewer/core/report.h"
#include "viewer/core/results.h"
#include "viewer/core/stepper.h"
#include "viewer/core/warp_map.h"
#include "tests/viewer/viewer_test_support.h"

using namespace stencil;
using namespace stencil::viewer;
using stencil::viewer::test::traced;

namespace {
int count(const std::vector<std::uint8_t>& v, int at_least = 1) {
    return (int)std::count_if(v.begin(), v.end(), [&](auto x) { return x >= at_least; });
}
int count_threads(const StepperState& s, ThreadState t) { return (int)std::count(s.threads.begin(), s.threads.end(), t); }
}  // namespace

TEST_CASE("tiled T=8: the load interval fills the tile, then 216 threads compute and 296 idle", "[viewer][stepper]") {
    const StepperTrace t = traced(KernelId::tiled, 8);
    REQUIRE(t.ok());
    const StepperState before = stepper_state(t, 0);
    const StepperState loaded = stepper_state(t, t.interval_end.at(0));
    const StepperState end = stepper_state(t, t.last_step());
    CAPTURE(t.intervals, loaded.global_loads, count(loaded.loads), count(loaded.shared), end.global_stores,
            end.shared_loads, count_threads(end, ThreadState::computing), count_threads(end, ThreadState::idle));
    REQUIRE((t.intervals == 2 && before.global_loads == 0 && count(before.loads) == 0 &&
             loaded.global_loads == 512 && count(loaded.loads) == 512 && count(loaded.shared) == 512 &&
             loaded.global_stores == 0 && end.global_stores == 216 && end.shared_loads == 216 * 7 &&
             end.flops == 216 * 13 && count(end.written) == 216 &&
             count_threads(end, ThreadState::computing) == 216 && count_threads(end, ThreadState::idle) == 296 &&
             end.global_loads == t.model.global_loads && end.shared_loads == t.model.shared_loads));
}

TEST_CASE("stepping is monotone: counts never fall as k grows", "[viewer][stepper]") {
    const auto k = GENERATE(KernelId::naive, KernelId::tiled, KernelId::coarsened, KernelId::register_tiled);
    const StepperTrace t = traced(k, k == KernelId::naive ? 4 : 6, {15, 16, 17});
    CAPTURE(version(k).name, t.error);
    REQUIRE(t.ok());
    bool monotone = true;
    long long last = -1;
    for (int s = 0; s <= t.last_step(); ++s) {
        const auto st = stepper_state(t, s);
        const long long total = st.global_loads + st.shared_loads + st.shared_stores + st.global_stores;
        monotone = monotone && total > last;
        last = total;
    }
    REQUIRE((monotone && last == (long long)t.acc.size()));
}

TEST_CASE("naive: neighbours are loaded again by other threads", "[viewer][stepper]") {
    const StepperTrace t = traced(KernelId::naive, 4, {16, 16, 16});
    const StepperState end = stepper_state(t, t.last_step());
    CAPTURE(t.intervals, end.global_loads, count(end.loads, 2));
    REQUIRE((t.intervals == 1 && end.global_loads == 64 * 7 && count(end.loads, 2) == 64 && end.shared_loads == 0));
}

TEST_CASE("z-marching kernels: planes in shared memory or registers, model counts for an interior block",
          "[viewer][stepper]") {
    const auto k = GENERATE(KernelId::coarsened, KernelId::register_tiled);
    const StepperTrace t = traced(k, 8);
    const StepperState mid = stepper_state(t, t.interval_end.at(3));
    const StepperState end = stepper_state(t, t.last_step());
    int shared = 0, regs = 0;
    for (const auto& p : mid.planes) shared += p.in_shared, regs += p.in_registers;
    CAPTURE(version(k).name, t.intervals, t.shared_dz.size(), mid.out_plane, shared, regs, end.global_loads,
            end.shared_loads, t.model.shared_loads);
    const bool coarse = k == KernelId::coarsened;
    REQUIRE((t.intervals == 1 + 2 * 6 && mid.planes.size() == 3 && shared == (coarse ? 3 : 1) &&
             regs == (coarse ? 0 : 3) && mid.out_plane == 6 + 1 && end.global_stores == 216 &&
             end.global_loads == t.model.global_loads && end.shared_loads == t.model.shared_loads &&
             end.shared_stores == t.model.shared_stores));
}

namespace {
// [lo, lo + n) clipped to [0, size): the in-grid part of an interval.
std::pair<int, int> clip(int lo, int n, int size) {
    const int a = std::max(lo, 0), b = std::min(lo + n, size);
    return {a, std::max(0, b - a)};
}
}  // namespace

// The stepper's pictures come from the trace (input box, shared planes, registers, the planes the
// compute reads from shared memory). Here the same facts from first principles: the launch
// geometry (kernels/versions.h) and the textbook's description of each kernel.
TEST_CASE("stepper facts derived from the trace match the launch geometry, interior and boundary blocks",
          "[viewer][stepper][derived]") {
    const auto k = GENERATE(KernelId::naive, KernelId::tiled, KernelId::coarsened, KernelId::register_tiled);
    const int r = GENERATE(1, 2);
    const int T = k == KernelId::naive ? 4 : 8;
    const GridDims d{20, 19, 21};
    const LaunchGeometry g = launch_geometry(k, T, r, Precision::f32, d);
    const auto where = GENERATE(0, 1, 2);  // interior, first block, last block
    const engine::Idx3 b = where == 0 ? engine::Idx3{1, 1, 1}
                         : where == 1 ? engine::Idx3{0, 0, 0}
                                      : engine::Idx3{g.grid.x - 1, g.grid.y - 1, g.grid.z - 1};
    const StepperTrace t = traced(k, T, d, b, r);
    CAPTURE(version(k).name, r, where, t.error, t.box.x0, t.box.y0, t.box.z0, t.box.nx, t.box.ny, t.box.nz,
            t.shared_planes, t.register_planes, t.shared_dz);
    REQUIRE(t.ok());
    // Does the block compute anything? Its output cells [b OUT, b OUT + OUT) meet [r, n - r).
    const int O = g.out_tile;
    auto meets = [&](int b0, int n, int size) { return b0 < size - r && b0 + n > r; };
    const int ob = k == KernelId::naive ? T : O;
    const bool computes = meets(b.x * ob, ob, d.nx) && meets(b.y * ob, ob, d.ny) &&
                          meets(b.z * (k == KernelId::naive ? T : g.out_planes), k == KernelId::naive ? T : g.out_planes, d.nz);
    CHECK(computes == (t.outputs > 0));
    // The input box: what each thread loads, by the kernel's description, clipped to the grid.
    std::pair<int, int> ex, ey, ez;
    if (k == KernelId::naive) {  // a T^3 block of outputs and its r-halo
        // (only computing threads load: a block that computes nothing loads nothing)
        ex = computes ? clip(b.x * T - r, T + 2 * r, d.nx) : std::pair{0, 0};
        ey = computes ? clip(b.y * T - r, T + 2 * r, d.ny) : std::pair{0, 0};
        ez = computes ? clip(b.z * T - r, T + 2 * r, d.nz) : std::pair{0, 0};
    } else {  // a T x T input tile over OUT x OUT outputs; z: T planes (tiled), OUT + 2r (z-marching)
        ex = clip(b.x * O - r, T, d.nx), ey = clip(b.y * O - r, T, d.ny);
        ez = clip(b.z * O - r, k == KernelId::tiled ? T : g.out_planes + 2 * r, d.nz);
    }
    CHECK(std::pair{t.box.x0, t.box.nx} == ex);
    CHECK(std::pair{t.box.y0, t.box.ny} == ey);
    CHECK(std::pair{t.box.z0, t.box.nz} == ez);
    // Shared planes: the array is T^3 (tiled), (2r+1) T^2 (coarsened), T^2 (register-tiled); the
    // tiled kernel stores no cell beyond the grid, so a block at the far faces fills fewer planes.
    const int planes = k == KernelId::naive ? 0
                       : k == KernelId::tiled ? std::min(T, d.nz - (b.z * O - r))
                       : k == KernelId::coarsened ? 2 * r + 1
                                                  : 1;
    CHECK(t.shared_planes == planes);
    CHECK((long long)planes * T * T * 4 <= g.smem_bytes);
    // Registers: register-tiled (its z-queue) and naive (every neighbour); never tiled / coarsened.
    CHECK(t.register_planes == (k == KernelId::register_tiled || (k == KernelId::naive && computes)));
    // The z offsets the compute reads from shared memory: the whole star's -r..r where the planes
    // are in shared memory, only the current plane for register-tiled, none for naive.
    std::vector<int> dz;
    if (!computes) {
    } else if (k == KernelId::tiled || k == KernelId::coarsened)
        for (int i = -r; i <= r; ++i) dz.push_back(i);
    else if (k == KernelId::register_tiled) dz = {0};
    CHECK(t.shared_dz == dz);
    // The planes of the output plane in flight, for the z-marching kernels.
    const StepperState end = stepper_state(t, t.last_step());
    int in_shared = 0, in_regs = 0;
    for (const auto& p : end.planes) in_shared += p.in_shared, in_regs += p.in_registers;
    const bool zm = k == KernelId::coarsened || k == KernelId::register_tiled;
    CHECK((int)end.planes.size() == (zm ? 2 * r + 1 : 0));
    CHECK(in_shared == (!computes ? 0 : k == KernelId::coarsened ? 2 * r + 1 : zm ? 1 : 0));
    CHECK(in_regs == (k == KernelId::register_tiled ? 2 * r + 1 : 0));
}

TEST_CASE("interval keys jump between barrier intervals", "[viewer][stepper]") {
    const StepperTrace t = traced(KernelId::tiled, 8);
    const int a = next_interval_step(t, 0), b = next_interval_step(t, a), back = prev_interval_step(t, b);
    REQUIRE((a == t.interval_end[0] && b == t.last_step() && back == a && prev_interval_step(t, a) == 0));
}

TEST_CASE("a block outside the launch grid is an error in words, not a crash", "[viewer][stepper]") {
    const StepperTrace t = traced(KernelId::tiled, 8, {20, 20, 20}, {9, 0, 0});
    const StepperState s = stepper_state(t, 3);
    REQUIRE((!t.ok() && t.error.find("outside the launch grid") != std::string::npos && s.global_loads == 0));
}

TEST_CASE("kernel sources map barrier intervals to lines", "[viewer][source]") {
    const KernelSource tiled = load_kernel_source(KernelId::tiled, STENCIL_LAB_BINARY_DIR);
    const KernelSource coarse = load_kernel_source(KernelId::coarsened, STENCIL_LAB_BINARY_DIR);
    const KernelSource naive = load_kernel_source(KernelId::naive, STENCIL_LAB_BINARY_DIR);
    REQUIRE((tiled.error.empty() && coarse.error.empty() && naive.error.empty()));
    const auto t0 = interval_lines(tiled, 0, 2), t1 = interval_lines(tiled, 1, 2);
    const auto c2 = interval_lines(coarse, 2, 13), c1 = interval_lines(coarse, 1, 13);
    const auto n0 = interval_lines(naive, 0, 1);
    CAPTURE(tiled.barriers.size(), coarse.barriers.size(), coarse.loop_first, c2.size());
    REQUIRE((tiled.barriers.size() == 1 && t0.size() == 1 && t0[0].last == tiled.barriers[0] &&
             t1[0].first == tiled.barriers[0] && t1[0].last == tiled.body_last && coarse.barriers.size() == 2 &&
             coarse.loop_first > 0 && c1[0].first == coarse.barriers[0] && c1[0].last == coarse.barriers[1] &&
             c2.size() == 2 && c2[1].first == coarse.loop_first && naive.barriers.empty() &&
             n0[0].first == naive.body_first));
}

TEST_CASE("warp maps: the naive 8x8x8 warp reads 4 rows, the tiled one straddles sectors", "[viewer][warp]") {
    const StepperTrace n = traced(KernelId::naive, 8, {24, 24, 24});
    const StepperTrace t = traced(KernelId::tiled, 8);
    const auto nl = warp_loads(n, 0), tl = warp_loads(t, 0);
    REQUIRE((!nl.empty() && !tl.empty()));
    const auto pn = predicted_warp(KernelId::naive, 8, 1, Precision::f32, {24, 24, 24});
    const auto pt = predicted_warp(KernelId::tiled, 8, 1, Precision::f32, {20, 20, 20});
    CAPTURE(nl[0].rows, nl[0].sectors, tl[0].rows, tl[0].sectors, pn.sectors, pt.sectors, nl.size());
    REQUIRE((nl[0].rows == 4 && nl[0].sectors == 4 && nl[0].lanes == 32 && tl[0].rows == 4 &&
             tl[0].sectors == 8 && tl[0].efficiency == Approx(0.5) && pn.sectors == nl[0].sectors &&
             pt.sectors == tl[0].sectors && pn.rows == 4 && nl.size() == 8 &&
             warps_in_block({8, 8, 8}) == 16 && warp_of_threads({8, 8, 8})[37] == 1));
}

TEST_CASE("summaries: sectors per request over a block", "[viewer][warp]") {
    const StepperTrace n = traced(KernelId::naive, 8, {24, 24, 24});
    const WarpSummary s = summarize_loads(n, -1);
    CAPTURE(s.requests, s.sectors_per_request, s.efficiency);
    REQUIRE((s.requests == 16 * 7 && s.sectors_per_request >= 4 && s.sectors_per_request <= 8 && s.efficiency > 0.4));
}

TEST_CASE("results JSON round-trips and accepts a bare list", "[viewer][results]") {
    RunRecord r;
    r.kernel = "tiled";
    r.tile = 8;
    r.ms_median = 1.5;
    r.gbps = 777;
    r.copy_gbps = 2989;
    r.of_copy = 0.26;
    r.dram.read_bytes = 70.5e6;
    r.dram.write_bytes = 1.5e6;
    r.checked = r.ok = true;
    ResultsFile f;
    f.runs = {r};
    const std::string path = std::string(STENCIL_LAB_BINARY_DIR "/viewer-test-results.json");
    save_results(path, f);
    const ResultsFile g = load_results(path);
    const ResultsFile bare = parse_results(nlohmann::json::array({to_json(r)}));
    REQUIRE((g.runs.size() == 1 && g.runs[0].kernel == "tiled" && g.runs[0].gbps == 777 &&
             g.runs[0].dram.read_bytes.value_or(0) == 70.5e6 &&
             g.runs[0].dram.write_bytes.value_or(0) == 1.5e6 && !g.runs[0].l2.measured() && g.runs[0].ok &&
             bare.runs.size() == 1 && g.runs[0].kernel_id() == KernelId::tiled));
    REQUIRE_THROWS_AS(parse_results(nlohmann::json{{"x", 1}}), UserError);
}

TEST_CASE("a run on the CPU backend on a worker thread: progress, records, checked", "[viewer][runs]") {
    JobRunner j;
    JobOptions o;
    o.backend = "cpu";
    o.runs = {{KernelId::tiled, 6, 1, Precision::f32, {16, 16, 16}}, {KernelId::naive, 4, 1, Precision::f32, {16, 16, 16}}};
    o.reps = 1;
    REQUIRE(j.start(o));
    std::string why;
    REQUIRE(!j.start(o, &why));
    j.wait();
    const auto recs = j.take_finished();
    REQUIRE((recs.size() == 2 && recs[0].ok && recs[1].ok && recs[0].gbps > 0 && j.progress() == Approx(1.0f) &&
             !j.running()));
}

TEST_CASE("the trace worker: a config change while a trace runs gives the newest config's trace",
          "[viewer][trace-worker]") {
    // A slow fake trace (so the second request surely arrives while the first is in flight), then
    // the real one.
    std::atomic<int> started{0};
    TraceWorker slow([&](const StepperConfig& c) {
        ++started;
        std::this_thread::sleep_for(std::chrono::milliseconds(c.tile == 6 ? 300 : 10));
        TraceResult r;
        r.trace.cfg = c;
        return r;
    });
    StepperConfig a, b, c;
    a.tile = 6, b.tile = 8, c.tile = 10;
    slow.request(a);
    while (started == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    REQUIRE((slow.busy() && !slow.take() && slow.pending()->tile == 6));
    slow.request(b);  // replaced before it starts
    slow.request(c);
    CHECK(slow.pending()->tile == 10);
    slow.wait();
    auto got = slow.take();
    REQUIRE(got);
    CHECK(got->trace.cfg.tile == 10);
    CHECK(started == 2);      // a (stale, dropped) and c; b never ran
    CHECK(!slow.take());      // once
    CHECK(!slow.busy());

    TraceWorker real;
    StepperConfig big;
    big.kernel = KernelId::tiled;
    big.tile = 8;
    big.dims = {64, 64, 64};
    StepperConfig small = big;
    small.kernel = KernelId::coarsened;
    small.dims = {20, 20, 20};
    real.request(big);
    real.request(small);
    real.wait();
    const auto r = real.take();
    REQUIRE(r);
    CHECK((r->trace.ok() && r->trace.cfg == small && r->trace.outputs == 216 && r->block_summary.requests > 0 &&
           r->prediction.sectors > 0));
}

TEST_CASE("the headless report runs and checks every kernel on the CPU backend", "[viewer][report]") {
    auto backend = make_cpu_backend();
    bool ok = false;
    const std::string s = headless_runs(*backend, 20, ok);
    CAPTURE(s);
    REQUIRE(ok);
    for (const auto& v : kernel_versions()) CHECK(s.find(std::string(v.name) + " ") != std::string::npos);
    REQUIRE(std::count(s.begin(), s.end(), '\n') == 1 + 1 + static_cast<long>(kernel_versions().size()));
    REQUIRE(s.find("check ok") != std::string::npos);
}

TEST_CASE("the headless report has the model table", "[viewer][report]") {
    const std::string s = headless_report();
    CAPTURE(s);
    REQUIRE((s.find("register-tiled") != std::string::npos && s.find("T =  8: OP/B 1.37") != std::string::npos &&
             s.find("296 of 512") != std::string::npos));
}

TEST_CASE("a finding's line in the stepper: the first step of that line, or of the next line that has one",
          "[viewer][stepper]") {
    const StepperTrace t = traced(KernelId::tiled, 8);
    REQUIRE(t.ok());
    int load_line = 0, store_line = 0;  // tiled.cuh's tile store and output store, read off the trace
    for (int s = 1; s <= t.last_step(); ++s) {
        const SourcePos p = step_source(t, s);
        if (p.instruction.starts_with("st.shared") && !load_line) load_line = p.line;
        if (p.instruction.starts_with("st.global")) store_line = p.line;
    }
    const int at_load = first_step_at_line(t, load_line), at_store = first_step_at_line(t, store_line);
    const int before_load = first_step_at_line(t, load_line - 1), past_end = first_step_at_line(t, 100000);
    CAPTURE(load_line, store_line, at_load, at_store, before_load);
    bool earliest = true;
    for (int s = 1; s < at_load; ++s) earliest = earliest && step_source(t, s).line != load_line;
    REQUIRE((load_line > 0 && store_line > load_line && at_load >= 1 && step_source(t, at_load).line == load_line &&
             earliest && step_source(t, at_store).line == store_line && before_load == at_load && past_end == 0));
}

TEST_CASE("the stepper opens on the frame that tells the story: outputs computed, the halo loaded", "[viewer][stepper]") {
    // tiled: the load interval, then the compute: it opens at the end, every input and output there.
    const StepperTrace tiled = traced(KernelId::tiled, 8);
    REQUIRE(tiled.ok());
    const StepperState s = stepper_state(tiled, story_step(tiled));
    CAPTURE(story_step(tiled), tiled.last_step(), s.global_loads, s.global_stores, s.flops);
    CHECK(s.global_loads == 512);   // the tile with its halo
    CHECK(s.global_stores == 216);  // the interior computed
    CHECK(s.flops > 0);             // OP/B is no longer 0.00
    // Never the first interval's end, where the loads are done and nothing is computed.
    const StepperState loaded = stepper_state(tiled, tiled.interval_end.at(0));
    CHECK(loaded.global_stores == 0);
    CHECK(story_step(tiled) != tiled.interval_end.at(0));
    // A z-march: the end of the interval where its first plane of outputs is stored, not the last step.
    const StepperTrace coarsened = traced(KernelId::coarsened, 8);
    REQUIRE(coarsened.ok());
    const int k = story_step(coarsened);
    const StepperState c = stepper_state(coarsened, k);
    const StepperState before = stepper_state(coarsened, k > 0 ? k - 1 : 0);
    CAPTURE(k, coarsened.last_step(), c.global_stores, before.global_stores);
    CHECK(c.global_stores > 0);
    CHECK(k < coarsened.last_step());
    CHECK(std::find(coarsened.interval_end.begin(), coarsened.interval_end.end(), k) != coarsened.interval_end.end());
}
