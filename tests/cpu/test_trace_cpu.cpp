// The tracer: exact access counts against the model, and warp-level patterns.
#include <catch2/catch.hpp>

#include <map>

#include "backends/cpu/cpu_backend.h"
#include "core/field.h"

using namespace stencil;
using engine::Op;
using engine::Space;

namespace {
engine::ExecReport traced(KernelId k, int T, GridDims d, engine::Idx3 block, bool per_block = false) {
    const auto in = random_field<float>(d, 1);
    auto out = poisoned_output(in, 1);
    CpuOptions o;
    o.exec.trace.records = engine::TraceMode::block;
    o.exec.trace.block = block;
    o.exec.trace.count = true;
    o.exec.trace.per_block_counts = per_block;
    return run_cpu({k, T, 1, Precision::f32, d}, laplacian_weights(1), in.data.data(), out.data.data(), o).report;
}
}  // namespace

TEST_CASE("an interior tiled block (T = 8, r = 1) loads 512 values and computes 216", "[cpu][trace]") {
    const auto rep = traced(KernelId::tiled, 8, {20, 20, 20}, {1, 1, 1}, true);
    const engine::Counts c = engine::count_accesses(rep.trace);
    const int b = (1 * 4 + 1) * 4 + 1;  // 4 blocks per axis: ceil(20 / 6)
    CAPTURE(c.global_loads, c.shared_stores, c.shared_loads, c.global_stores);
    REQUIRE((c.global_loads == 512 && c.shared_stores == 512 && c.shared_loads == 216 * 7 &&
             c.global_stores == 216 && c.global_load_bytes == 512 * 4 && rep.block_counts[b] == c &&
             rep.trace.front().block == b && !rep.trace_truncated));
}

TEST_CASE("an interior naive thread loads its 7 points once", "[cpu][trace]") {
    const auto rep = traced(KernelId::naive, 8, {24, 24, 24}, {1, 1, 1});
    std::map<int, int> loads, stores;
    for (const auto& a : rep.trace) {
        if (a.space == Space::global && a.op == Op::load) ++loads[a.thread];
        if (a.space == Space::global && a.op == Op::store) ++stores[a.thread];
    }
    bool all7 = loads.size() == 512 && stores.size() == 512;
    for (auto [t, n] : loads) all7 = all7 && n == 7;
    // Every thread's loads are 7 distinct sites (one per stencil point), occurrence 0.
    std::map<int, std::map<int, int>> sites;
    for (const auto& a : rep.trace)
        if (a.op == Op::load) sites[a.thread][a.site] += 1 + a.occurrence * 100;
    bool distinct = true;
    for (auto& [t, m] : sites) distinct = distinct && m.size() == 7;
    REQUIRE((all7 && distinct && rep.counts.global_loads == 7LL * 22 * 22 * 22));
}

TEST_CASE("a warp of the naive 8x8x8 block touches 4 rows", "[cpu][trace]") {
    const auto rep = traced(KernelId::naive, 8, {24, 24, 24}, {1, 1, 1});
    const auto reqs = engine::warp_requests(rep.trace);
    // Warp 0 of the block: lanes 0..31 = x 0..7 of rows y = 0..3 (z = 0). Its first request is
    // the centre load: 4 rows of 8 floats, each row one 32-byte sector (x starts at 8: aligned).
    const engine::WarpRequest* first = nullptr;
    for (const auto& r : reqs)
        if (r.warp == 0 && r.space == Space::global && r.op == Op::load) {
            first = &r;
            break;
        }
    REQUIRE(first);
    CAPTURE(first->sectors.size(), first->lines.size(), first->lane_count());
    bool rows = first->sectors.size() == 4;
    for (const auto& s : first->sectors) rows = rows && __builtin_popcount(s.lanes) == 8;
    REQUIRE((rows && first->lane_count() == 32 && reqs.size() == 16 * 8));  // 16 warps x (7 loads + 1 store)
}

TEST_CASE("shared stores of the tiled load are bank-conflict free", "[cpu][trace]") {
    const auto rep = traced(KernelId::tiled, 8, {20, 20, 20}, {1, 1, 1});
    int stores = 0, worst = 0;
    for (const auto& r : engine::warp_requests(rep.trace))
        if (r.space == Space::shared && r.op == Op::store) ++stores, worst = std::max(worst, r.bank_degree);
    REQUIRE((stores == 16 && worst == 1));
}

TEST_CASE("counting is off by default and whole-grid counts add up", "[cpu][trace]") {
    const GridDims d{20, 20, 20};
    const auto in = random_field<float>(d, 1);
    auto out = poisoned_output(in, 1);
    auto plain = run_cpu({KernelId::tiled, 8, 1, Precision::f32, d}, laplacian_weights(1), in.data.data(), out.data.data());
    REQUIRE((plain.report.trace.empty() && plain.report.counts == engine::Counts{}));
    CpuOptions o;
    o.exec.trace.count = true;
    o.exec.trace.per_block_counts = true;
    auto counted = run_cpu({KernelId::tiled, 8, 1, Precision::f32, d}, laplacian_weights(1), in.data.data(), out.data.data(), o);
    engine::Counts sum;
    for (const auto& c : counted.report.block_counts) sum += c;
    REQUIRE((sum == counted.report.counts && counted.report.counts.global_stores == 18LL * 18 * 18));
}
