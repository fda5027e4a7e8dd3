// Streaming and temporal in the OP/B chart and the roofline (viewer/core/update_model.h): their
// curves from analysis::update_traffic (FLOP per byte moved; temporal K updates per byte), one per
// K for temporal, and the committed H100 runs of `run --steps` placed with K steps per launch.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "analysis/model.h"
#include "viewer/core/figures.h"
#include "viewer/core/roofline.h"
#include "viewer/core/update_model.h"

using namespace stencil;
using namespace stencil::viewer;

namespace {
std::string results(const char* name) { return std::string(STENCIL_LAB_SOURCE_DIR) + "/docs/results/" + name; }
const Series* named(const OpbFigure& f, const std::string& name) {
    for (const auto& s : f.series)
        if (s.name == name) return &s;
    return nullptr;
}
}  // namespace

TEST_CASE("update model: analysis::update_traffic's bytes, OP/B = (12r+1) per byte moved", "[viewer][update]") {
    const int r = GENERATE(1, 2, 4);
    const auto [k, K] = GENERATE(table<KernelId, int>(
        {{KernelId::streaming, 1}, {KernelId::temporal, 1}, {KernelId::temporal, 2}, {KernelId::temporal, 3}}));
    const int T = version(k).default_tile;
    CAPTURE(r, version(k).name, T, K);
    const UpdateModel m = update_model(k, T, r, Precision::f32, K);
    const analysis::UpdateTraffic u = analysis::update_traffic(k, T, r, Precision::f32, K);
    REQUIRE((!m.invalid && m.requested_bytes == u.requested_bytes && m.dram_bytes == u.dram_bytes &&
             m.l2_bytes == u.l2_bytes && m.queue_registers == u.queue_registers &&
             m.halo_reread_share == u.halo_reread_share && m.opb_requested == Approx((12.0 * r + 1) / u.requested_bytes) &&
             m.opb_dram == Approx((12.0 * r + 1) / u.dram_bytes)));
}

TEST_CASE("update model: T <= 2rK and too much shared memory have no model, in words", "[viewer][update]") {
    const UpdateModel narrow = update_model(KernelId::temporal, 8, 1, Precision::f32, 4);  // 8 <= 2 x 1 x 4
    const UpdateModel thin = update_model(KernelId::temporal, 48, 4, Precision::f32, 4);   // 32 <= 2 x 4 x 4 (fp64's)
    // 3 levels x 32 strips x 8 edge rows x 256 B = 192 KiB (T = 128 is past the built tiles), more
    // than the 96 KiB of dynamic shared memory of the default limits
    const UpdateModel big = update_model(KernelId::temporal, 128, 4, Precision::f64, 3);
    CAPTURE(thin.invalid.value_or(""), big.invalid.value_or(""));
    REQUIRE((narrow.invalid && thin.invalid && thin.invalid->find("32 cells in fp64") != std::string::npos &&
             big.invalid && big.invalid->find("96 KiB") != std::string::npos));
}

TEST_CASE("update curves: streaming's and temporal's per K, each T valid, OP/B rising with K", "[viewer][update]") {
    const std::vector<UpdateCurve> curves = update_curves(1, Precision::f32);
    int streaming = 0, temporal = 0;
    bool valid = true;
    const int T = version(KernelId::temporal).default_tile;
    std::vector<double> at_default(5, 0.0);  // temporal's OP/B at its default T for K = 1..4
    for (const auto& c : curves) {
        (c.kernel == KernelId::streaming ? streaming : temporal) += 1;
        for (const auto& m : c.points) {
            // T counts temporal's input columns (its halo r wider per level); streaming's T counts outputs.
            valid &= !m.invalid && (!version(c.kernel).halo_in_tile || m.tile > 2 * m.radius * m.fused);
            if (c.kernel == KernelId::temporal && m.tile == T) at_default[c.fused] = m.opb_requested;
        }
    }
    CAPTURE(streaming, temporal, at_default);
    REQUIRE((streaming == 1 && temporal == 4 && valid && at_default[1] > 0 && at_default[1] < at_default[2] &&
             at_default[2] < at_default[3] && at_default[3] < at_default[4]));
}

TEST_CASE("OP/B chart: streaming's and temporal's model curves, temporal's K labelled", "[viewer][update]") {
    const OpbFigure f = opb_figure(1, Precision::f32, false, {}, {}, std::nullopt);
    const Series* s = named(f, "streaming (model): per byte moved");
    REQUIRE(version(KernelId::temporal).fused_steps == 3);
    const Series* t3 = named(f, "temporal (model): K = 3, per byte moved");  // the row's K: listed
    REQUIRE((s && t3 && s->in_legend && t3->in_legend && !s->x.empty() && !t3->x.empty()));
    for (int K : {1, 2, 4}) {
        const Series* t = named(f, fmt::format("temporal (model): K = {}, per byte moved", K));
        CAPTURE(K);
        REQUIRE((t && !t->in_legend && t->labels.size() == t->x.size() &&
                 std::count(t->labels.begin(), t->labels.end(), fmt::format("K = {}", K)) == 1 &&
                 std::count(t->labels.begin(), t->labels.end(), "") == (long)t->x.size() - 1));
    }
    // The panel's figures at the rows' default T: streaming's, and temporal's for K = 1..4.
    REQUIRE(f.updates.size() == 5);
    REQUIRE(update_table_text(f.updates).find("temporal") != std::string::npos);
}

TEST_CASE("roofline: the committed `run --steps 8` runs, temporal's K steps per launch", "[viewer][update]") {
    const ResultsFile file = load_results(results("h100-steps-512.jsonl"));
    // The file's own GFLOP/s (of all 8 steps) for each row, to compare with the viewer's.
    std::ifstream in(results("h100-steps-512.jsonl"));
    std::vector<double> file_gflops;
    for (std::string line; std::getline(in, line);)
        if (!line.empty()) file_gflops.push_back(nlohmann::json::parse(line).at("gflops").get<double>());
    REQUIRE(file_gflops.size() == file.runs.size());
    double naive_i = 0;
    std::vector<std::pair<int, double>> temporal;  // K, intensity
    int temporal_tile = 0;
    for (size_t i = 0; i < file.runs.size(); ++i) {
        const RunRecord& r = file.runs[i];
        const auto p = roofline_point(r);
        CAPTURE(r.kernel, r.precision, r.steps, r.fused_steps, file_gflops[i]);
        REQUIRE((p && r.steps == 8 && p->gflops == Approx(file_gflops[i]).epsilon(0.002)));
        if (r.precision != "f32") continue;
        if (r.kernel == "naive") naive_i = p->intensity;
        if (r.kernel == "temporal") temporal.emplace_back(r.fused_steps, p->intensity), temporal_tile = r.tile;
    }
    // One read and one write of the grid per launch: 8 steps in ceil(8 / K) launches, so about K
    // times naive's FLOP per byte (exactly 8 / ceil(8 / K) times).
    REQUIRE((naive_i > 0 && temporal.size() >= 2));
    for (const auto& [K, i] : temporal) {
        CAPTURE(K, i, naive_i);
        REQUIRE((K >= 2 && i == Approx(naive_i * 8.0 / ((8 + K - 1) / K))));
    }
    const RooflineFigure f = roofline_figure(file.runs, ceilings_from_file(file), 1, Precision::f32);
    bool labelled = false;
    for (const auto& s : f.series)
        for (const auto& l : s.labels)
            labelled |= l == fmt::format("temporal T={} K={}", temporal_tile, temporal[0].first);
    REQUIRE((f.points >= 4 && labelled));
}

TEST_CASE("roofline: streaming's and temporal's model points sit on the memory ceiling", "[viewer][update]") {
    Ceilings c;
    c.memory_gbps = 3000;
    c.compute_gflops = 60000;
    const RooflineFigure f = roofline_figure({}, c, 1, Precision::f32);
    int on_roof = 0;
    for (const auto& s : f.series)
        if (s.name.find("(model, DRAM bytes per update)") != std::string::npos)
            for (size_t i = 0; i < s.x.size(); ++i) on_roof += s.y[i] == Approx(std::min(3000 * s.x[i], 60000.0));
    // streaming's and temporal's (K = 1..4) at their default T; none without a memory ceiling.
    REQUIRE((f.model_points == 5 && on_roof == 5 && roofline_figure({}, {}, 1, Precision::f32).model_points == 0));
}

TEST_CASE("the streaming runs file loads with one step a run", "[viewer][update]") {
    const ResultsFile file = load_results(results("h100-streaming-512.jsonl"));
    const RooflineFigure f = roofline_figure(file.runs, ceilings_from_file(file), 2, Precision::f32);
    REQUIRE((file.runs.size() == 16 && file.runs[0].steps == 1 && file.runs[0].launches() == 1 && f.points == 2));
}
