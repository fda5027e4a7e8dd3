// The charts' content (viewer/core/figures.h), the stepper's keys, and the sweep's results.json as
// the viewer reads it: what the panels draw, checked without a display.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "viewer/core/figures.h"
#include "viewer/core/stepper.h"
#include "tests/viewer/viewer_test_support.h"

using namespace stencil;
using namespace stencil::viewer;
using stencil::viewer::test::committed_sweep;

namespace {
const Series* find(const OpbFigure& f, const std::string& name_part) {
    for (const auto& s : f.series)
        if (s.name.find(name_part) != std::string::npos) return &s;
    return nullptr;
}
}  // namespace

TEST_CASE("halos in 2D: the label is formatted, not printf's %N$ (which aborted the viewer)", "[viewer][figures]") {
    const HaloFigure h2 = halo_figure(32, 1, 2);
    REQUIRE(h2.grid_label == "the 32x32 tile");
    REQUIRE(h2.fig.halo_cells == 124);
    REQUIRE(h2.share_text.find("124 of 1024") != std::string::npos);
    const HaloFigure h3 = halo_figure(8, 1, 3);
    REQUIRE(h3.grid_label == "slice z = 4 of the 8^3 tile");
    REQUIRE(h3.share_text.find("296 of 512") != std::string::npos);
    REQUIRE((h3.series.size() == 2 && h3.points.size() == 3 && h3.points[0].label.find("296 of 512 = 58%") != std::string::npos));
}

TEST_CASE("the stepper's keys: space / right = next interval, left, up / down, Home / End", "[viewer][stepper][keys]") {
    StepperConfig c;
    c.kernel = KernelId::tiled;
    c.tile = 8;
    const StepperTrace t = trace_block(c);
    REQUIRE(t.ok());
    REQUIRE(step_for_key(t, 0, StepKey::space) == t.interval_end.at(0));
    REQUIRE(step_for_key(t, 0, StepKey::right) == t.interval_end.at(0));
    REQUIRE(step_for_key(t, t.interval_end.at(0), StepKey::left) == prev_interval_step(t, t.interval_end.at(0)));
    REQUIRE(step_for_key(t, 5, StepKey::down) == 6);
    REQUIRE(step_for_key(t, 5, StepKey::up) == 4);
    REQUIRE(step_for_key(t, 0, StepKey::up) == 0);
    REQUIRE(step_for_key(t, 5, StepKey::home) == 0);
    REQUIRE(step_for_key(t, 0, StepKey::end) == t.last_step());
    REQUIRE(step_for_key(t, t.last_step(), StepKey::down) == t.last_step());
}

TEST_CASE("OP/B chart: a model curve per kernel, the textbook's points from the model", "[viewer][figures]") {
    const OpbFigure f = opb_figure(1, Precision::f32, false, {}, {}, std::string("no CUDA device"));
    for (const char* k : {"naive (model)", "tiled (model)", "coarsened (model)", "register-tiled (model)"})
        REQUIRE(find(f, k));
    // register-tiled's curve coincides with coarsened's: drawn as other markers and named so.
    const Series* rt = find(f, "register-tiled");
    REQUIRE((rt->name.find("= coarsened") != std::string::npos && rt->marker != MarkerShape::circle));
    REQUIRE(f.points.size() == 3);
    REQUIRE(f.points[0].x == 8);
    REQUIRE(f.points[0].y == Approx(13.0 * 216 / (4 * 512)));  // 1.371
    REQUIRE(f.points[0].label == "textbook: 1.37 at T = 8");
    REQUIRE(f.points[1].y == Approx(13.0 * 27000 / (4 * 32768)));  // 2.68
    REQUIRE(f.refs.at(0).value == Approx(3.25));
    const Series* tiled = find(f, "tiled (model)");
    const auto at8 = std::find(tiled->x.begin(), tiled->x.end(), 8.0) - tiled->x.begin();
    REQUIRE(tiled->y.at(at8) == Approx(1.37109375));
    // No counters: both GPU levels greyed, and the reason names the missing GPU, shown as text.
    REQUIRE((find(f, "DRAM")->greyed && find(f, "L2 ")->greyed));
    REQUIRE(f.counters_why.find("no GPU here (no CUDA device)") != std::string::npos);
    // f64: no seeds (they are fp32's), the limit halves.
    const OpbFigure d = opb_figure(1, Precision::f64, false, {}, {}, std::nullopt);
    REQUIRE((d.points.empty() && d.refs.at(0).value == Approx(13.0 / 8)));
}

TEST_CASE("OP/B chart: the limit is the T -> infinity figure at every r (r = 4 drew 0)", "[viewer][figures]") {
    const int r = GENERATE(1, 2, 3, 4);
    const auto p = GENERATE(Precision::f32, Precision::f64);
    CAPTURE(r, to_string(p));
    const OpbFigure f = opb_figure(r, p, false, {}, {}, std::nullopt);
    const double want = double(12 * r + 1) / bytes_of(p);
    // Above every finite-T point of the tiled curves, and the chart reaches it. (Streaming's and
    // temporal's curves count FLOP per byte moved, K updates per byte for temporal: not bounded by it.)
    double highest = 0;
    for (const auto& s : f.series)
        if (s.name.find("(model)") != std::string::npos && s.name.find("naive") == std::string::npos &&
            s.name.find("per byte moved") == std::string::npos)
            for (double y : s.y) highest = std::max(highest, y);
    REQUIRE((f.refs.at(0).value == Approx(want) && highest < want && f.y.hi >= want &&
             f.refs.at(0).label.find(fmt::format("{:.2f}", want)) != std::string::npos));
}

TEST_CASE("OP/B chart: CPU-trace points only at the chart's r and precision, and inside the x range",
          "[viewer][figures]") {
    std::vector<TraceOpb> m(4);
    m[0] = {KernelId::tiled, 8, 1, Precision::f32, 1, 1, 1.2, ""};
    m[1] = {KernelId::tiled, 8, 1, Precision::f64, 1, 1, 0.6, ""};
    m[2] = {KernelId::coarsened, 16, 1, Precision::f64, 1, 1, 0.9, ""};
    m[3] = {KernelId::coarsened, 16, 2, Precision::f64, 1, 1, 0.5, ""};
    const OpbFigure f = opb_figure(1, Precision::f64, false, m, {}, std::nullopt);
    const Series* t = find(f, "tiled (CPU trace");
    const Series* c = find(f, "coarsened (CPU trace");
    REQUIRE((t && t->x.size() == 1 && t->y[0] == 0.6));
    REQUIRE((c && c->x.size() == 1 && c->x[0] == 16 && c->y[0] == 0.9));
    REQUIRE((f.x.lo <= 16 && f.x.hi >= 16 && f.y.hi >= 0.9));
    const OpbFigure g = opb_figure(1, Precision::f32, false, m, {}, std::nullopt);
    REQUIRE((find(g, "tiled (CPU trace")->y == std::vector<double>{1.2} && !find(g, "coarsened (CPU trace")));
}

TEST_CASE("the committed H100 sweep: L2 and DRAM levels are read, OP/B = FLOP per (read + write) byte",
          "[viewer][results]") {
    const ResultsFile f = load_results(committed_sweep());
    REQUIRE(f.runs.size() == 15);
    nlohmann::json j;
    std::ifstream(committed_sweep()) >> j;
    int with_dram = 0;
    for (size_t i = 0; i < f.runs.size(); ++i) {
        const RunRecord& r = f.runs[i];
        const auto& row = j["results"][i];
        CAPTURE(i, r.kernel, r.tile);
        REQUIRE(r.dims == GridDims{256, 256, 256});
        if (!row.contains("measured")) continue;
        for (const auto& l : row["measured"]["levels"]) {
            const RunRecord::Level& got = l["level"] == "DRAM" ? r.dram : l["level"] == "L2" ? r.l2 : r.requested;
            if (l["level"] == "requested") {  // measured where the file says so (the counters' bytes)
                REQUIRE(got.measured() == l.value("measured", false));
                continue;
            }
            REQUIRE(got.read_bytes.value_or(-1) == l["read_bytes"].get<double>());
            REQUIRE(got.write_bytes.value_or(-1) == l["write_bytes"].get<double>());
            const double flops = row["measured"]["flops"].get<double>();
            REQUIRE(level_opb_rw(got, r.flops).value_or(-1) ==
                    Approx(flops / (l["read_bytes"].get<double>() + l["write_bytes"].get<double>())));
            REQUIRE(level_opb_read(got, r.flops).value_or(-1) == Approx(flops / l["read_bytes"].get<double>()));
        }
        with_dram += r.dram.measured();
        REQUIRE(r.sectors_per_request.has_value());
    }
    REQUIRE(with_dram >= 10);
    const OpbFigure o = opb_figure(1, Precision::f32, false, {}, f.runs, std::string("no CUDA device"));
    // Every level keyed once in the legend (not greyed), its points one series per kernel.
    const Series* dram = find(o, "DRAM");
    const Series* l2 = find(o, "L2 ");
    REQUIRE((!dram->greyed && o.dram_points == with_dram && !l2->greyed && o.l2_points == with_dram &&
             o.requested_points >= 10));
    REQUIRE(o.counters_why.empty());
    double highest = 0;
    for (const auto& s : o.series)
        if (s.name.find("(runs, DRAM)") != std::string::npos)
            for (double y : s.y) highest = std::max(highest, y);
    REQUIRE((highest > 0 && o.y.hi >= highest));
    // Other r / precision: counters are loaded, so the reason says that, not "load a results.json".
    const OpbFigure o64 = opb_figure(1, Precision::f64, false, {}, f.runs, std::string("no CUDA device"));
    REQUIRE(o64.counters_why.find("the loaded runs have counters, but none at r = 1, f64") != std::string::npos);
}

TEST_CASE("a sweep row in the newer format: opb_read_write, measured flags, integer counts, missing fields",
          "[viewer][results]") {
    const nlohmann::json row = nlohmann::json::parse(R"({
      "kernel": "tiled", "tile": 8, "radius": 1, "precision": "f32", "grid": [64, 64, 64], "status": "ok",
      "measured": {"flops": 1000, "levels": [
        {"level": "requested", "read_bytes": 4000, "write_bytes": 100, "measured": true, "source": "CPU trace"},
        {"level": "L2", "read_bytes": null, "write_bytes": null, "measured": false, "source": "",
         "note": "the CPU backend has no caches to count"},
        {"level": "DRAM", "read_bytes": 400, "write_bytes": 100, "opb_read": 2.5, "opb_read_write": 2.0,
         "measured": true, "source": "hardware counters"}],
        "l1_global_load_sectors": 120, "l1_global_load_requests": 30, "sectors_per_request": 4}})");
    const RunRecord r = record_from_json(row);
    REQUIRE((r.dims == GridDims{64, 64, 64} && r.flops == 1000));
    REQUIRE((r.requested.read_bytes == 4000.0 && !r.l2.measured() && r.l2.note.find("no caches") != std::string::npos));
    REQUIRE(level_opb_rw(r.dram, r.flops) == 2.0);  // the file's figure wins
    REQUIRE((r.l1_sectors == 120.0 && r.l1_requests == 30.0 && r.sectors_per_request == 4.0));
    // A row with nothing measured at all (a skipped configuration) parses.
    const RunRecord s = record_from_json(nlohmann::json{{"kernel", "tiled"}, {"tile", 12}, {"skipped", "too big"}});
    REQUIRE((!s.dram.measured() && s.error == "too big"));
    // The file's own reason reaches the chart when no row measured counters.
    nlohmann::json cpu_row = {{"kernel", "tiled"}, {"tile", 8}, {"status", "ok"}};
    cpu_row["measured"]["levels"] = nlohmann::json::array({row["measured"]["levels"][1]});
    const OpbFigure o = opb_figure(1, Precision::f32, false, {}, {record_from_json(cpu_row)}, std::string("no CUDA device"));
    REQUIRE(o.counters_why.find("no caches to count") != std::string::npos);
}

TEST_CASE("results files: reloading replaces, a type error names the file", "[viewer][results]") {
    const std::string bad = std::string(STENCIL_LAB_BINARY_DIR) + "/viewer-test-bad-types.json";
    std::ofstream(bad) << R"({"results": [{"kernel": "tiled", "tile": 8, "check": {"ok": "yes"}}]})";
    try {
        load_results(bad);
        FAIL("no error");
    } catch (const UserError& e) {
        REQUIRE(std::string(e.what()).find(bad) != std::string::npos);
    }
    const ResultsFile f = load_results(committed_sweep());
    REQUIRE((!f.runs.empty() && f.runs[0].origin == committed_sweep()));
}

TEST_CASE("thread states come from the trace: a thread that accesses memory is never 'outside'",
          "[viewer][stepper]") {
    for (KernelId k : {KernelId::coarsened, KernelId::register_tiled, KernelId::tiled}) {
        StepperConfig c;
        c.kernel = k;
        c.tile = 8;
        c.dims = {20, 20, 20};
        c.block = {3, 3, 3};  // the far corner block: some threads lie beyond the grid
        const StepperTrace t = trace_block(c);
        CAPTURE(version(k).name, t.error);
        REQUIRE(t.ok());
        int ever_active = 0, outside = 0;
        for (int step : {t.interval_end.front(), t.last_step()}) {
            const StepperState s = stepper_state(t, step);
            for (int th = 0; th < t.threads; ++th) {
                REQUIRE((s.threads[th] == ThreadState::outside) == !t.acts[th]);
                outside += s.threads[th] == ThreadState::outside;
            }
        }
        for (auto a : t.acts) ever_active += a;
        // Every thread with a traced access shows up active in some interval.
        std::vector<std::uint8_t> seen(t.threads, 0);
        for (int e : t.interval_end) {
            const StepperState s = stepper_state(t, e);
            for (int th = 0; th < t.threads; ++th)
                seen[th] |= s.threads[th] == ThreadState::active || s.threads[th] == ThreadState::computing;
        }
        int seen_n = 0;
        for (auto v : seen) seen_n += v;
        REQUIRE(seen_n == ever_active);
        REQUIRE(ever_active > 0);
    }
}

TEST_CASE("halo cells a star stencil never reads: the tile's edges and corners", "[viewer][figures]") {
    const auto [T, r, dims, read, unread] = GENERATE(table<int, int, int, long long, long long>(
        {{8, 1, 3, 6 * 36, 296 - 216}, {32, 1, 2, 4 * 30, 4}, {8, 2, 3, 6 * 2 * 16, 448 - 192}, {5, 2, 2, 4 * 2, 16}}));
    CAPTURE(T, r, dims);
    const HaloCounts c = halo_counts(T, r, dims);
    const HaloFigures f = halo_figures(T, r, dims);
    // Read + unread = the halo of the model; faces = 2 * dims * r * (T - 2r)^(dims - 1).
    REQUIRE((c.halo_read == read && c.halo_unread == unread && c.halo_read + c.halo_unread == f.halo_cells &&
             c.output == f.out_cells));
}
