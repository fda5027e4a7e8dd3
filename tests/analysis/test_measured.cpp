// Level 1 (requested bytes) from the CPU backend's trace against the model, and the
// counter-unavailable path.
#include <catch2/catch.hpp>

#include "analysis/measured.h"
#include "analysis/model.h"
#include "backends/cpu/cpu_backend.h"
#include "core/field.h"
#include "core/weights.h"

using namespace stencil;
using namespace stencil::analysis;

namespace {

template <class real>
EngineRun traced(const LaunchRequest& req, engine::TraceOptions trace) {
    const auto in = random_field<real>(req.dims, 7);
    auto out = poisoned_output(in, req.radius);
    CpuOptions opt;
    opt.exec.trace = trace;
    return run_cpu(req, random_weights(req.radius, 7), in.data.data(), out.data.data(), opt);
}

EngineRun traced(const LaunchRequest& req, engine::TraceOptions trace) {
    return req.precision == Precision::f32 ? traced<float>(req, trace) : traced<double>(req, trace);
}

}  // namespace

TEST_CASE("requested bytes: the CPU trace equals the exact whole-grid count", "[analysis]") {
    const auto& v = GENERATE(from_range(kernel_versions().begin(), kernel_versions().end()));
    const Precision p = GENERATE(Precision::f32, Precision::f64);
    const int r = GENERATE(1, 2);
    // temporal: two strips of 4 rows would do; 16 keeps the figures below as they were measured.
    const int T = v.id == KernelId::naive ? 4 : v.id == KernelId::temporal ? 16 : (r == 1 ? 6 : 8);
    const GridDims g{17, 15, 19};  // not multiples of the tile
    CAPTURE(v.name, to_string(p), r, T);
    engine::TraceOptions tr;
    tr.count = true;
    const auto run = traced({v.id, T, r, p, g}, tr);
    REQUIRE(run.ok());
    const GridTraffic exact = exact_grid_traffic(v.id, T, r, p, g);
    REQUIRE(run.report.counts.global_load_bytes == exact.load_bytes);
    REQUIRE(run.report.counts.global_store_bytes == exact.store_bytes);
}

TEST_CASE("requested bytes: an interior block's trace equals the model's block", "[analysis]") {
    const auto& v = GENERATE(from_range(kernel_versions().begin(), kernel_versions().end()));
    const int T = v.id == KernelId::naive ? 8 : (v.id == KernelId::tiled ? 8 : v.id == KernelId::temporal ? 16 : 10);
    const int r = 1;
    const int n = 3 * T + 2;  // block (1, 1, 1) lies wholly inside
    // A z-chunked block is interior when its whole chunk is: three chunks of exactly Z planes. A
    // warp-rows block (streaming) is 32 vectors of 4 floats wide: three of them, and a vector more.
    // A warp-strips block (temporal) is 32 lanes of 2 floats wide, 62 of them outputs at r = 1.
    const int nx = v.threads == ThreadShape::warp_rows ? 3 * 128 + 4 : v.threads == ThreadShape::warp_strips ? 3 * 62 + 2 : n;
    const GridDims g{nx, n, v.z_chunk > 0 ? 3 * v.z_chunk : n};
    CAPTURE(v.name, T);
    engine::TraceOptions tr;
    tr.per_block_counts = true;
    const auto run = traced({v.id, T, r, Precision::f32, g}, tr);
    REQUIRE(run.ok());
    const auto& geo = run.geometry;
    const int b = (1 * geo.grid.y + 1) * geo.grid.x + 1;
    const auto& c = run.report.block_counts.at(b);
    const BlockTraffic m = interior_block_traffic(v.id, T, r, Precision::f32);
    REQUIRE(c.global_load_bytes == m.load_bytes);
    REQUIRE(c.global_store_bytes == m.store_bytes);
}

TEST_CASE("sectors per request: the CPU trace equals the model's warp pattern", "[analysis]") {
    const auto& v = GENERATE(from_range(kernel_versions().begin(), kernel_versions().end()));
    const int T = v.threads == ThreadShape::cube ? 8 : 16;  // T^3 threads stop at T = 10
    const GridDims g{20, 18, 21};
    CAPTURE(v.name, T);
    engine::TraceOptions tr;
    tr.records = engine::TraceMode::all;
    const auto run = traced({v.id, T, 1, Precision::f32, g}, tr);
    REQUIRE(run.ok());
    REQUIRE_FALSE(run.report.trace_truncated);
    long long requests = 0, sectors = 0;
    for (const auto& w : engine::warp_requests(run.report.trace))
        if (w.space == engine::Space::global && w.op == engine::Op::load) {
            ++requests;
            sectors += (long long)w.sectors.size();
        }
    const WarpPattern wp = warp_pattern(v.id, T, 1, Precision::f32, g);
    REQUIRE(requests == wp.requests);
    REQUIRE(sectors == wp.sectors);
}

// The streaming kernel's own cases: several z-chunks, rows of whole vectors (16-byte loads) or not
// (value loads), fp64's two vectors a side at r = 4, against the trace's bytes and sectors.
TEST_CASE("streaming: traced bytes and sectors equal the model across z-chunks", "[analysis]") {
    const KernelId k = KernelId::streaming;
    const int r = GENERATE(1, 4);
    const int T = GENERATE(4, 8);
    const Precision p = GENERATE(Precision::f32, Precision::f64);
    const int nx = GENERATE(19, 136);
    const GridDims g{nx, 13, 2 * version(k).z_chunk + 9};
    CAPTURE(T, r, to_string(p), nx);
    engine::TraceOptions tr;
    tr.records = engine::TraceMode::all;
    tr.count = true;
    const auto run = traced({k, T, r, p, g}, tr);
    REQUIRE(run.ok());
    REQUIRE_FALSE(run.report.trace_truncated);
    const GridTraffic exact = exact_grid_traffic(k, T, r, p, g);
    REQUIRE(run.report.counts.global_load_bytes == exact.load_bytes);
    REQUIRE(run.report.counts.global_store_bytes == exact.store_bytes);
    long long requests = 0, sectors = 0;
    for (const auto& w : engine::warp_requests(run.report.trace))
        if (w.space == engine::Space::global && w.op == engine::Op::load) {
            ++requests;
            sectors += (long long)w.sectors.size();
        }
    const WarpPattern wp = warp_pattern(k, T, r, p, g);
    REQUIRE(requests == wp.requests);
    REQUIRE(sectors == wp.sectors);
    REQUIRE(wp.bytes_requested == exact.load_bytes);
}

TEST_CASE("measured metrics: unavailable counters carry their reason", "[analysis]") {
    const GridDims g{32, 32, 32};
    const auto hw = counters_unavailable("no GPU: the CPU backend has no caches");
    const auto m = measure(KernelId::naive, 8, 1, Precision::f32, g, nullptr, hw);
    REQUIRE(m.levels.size() == 3);
    const auto& req = m.level("requested");
    REQUIRE(req.read_bytes);
    REQUIRE(*req.opb == Approx(13.0 / 28.0));
    for (const char* l : {"L2", "DRAM"}) {
        CAPTURE(l);
        REQUIRE_FALSE(m.level(l).read_bytes);
        REQUIRE_FALSE(m.level(l).opb);
        REQUIRE(m.level(l).note == "no GPU: the CPU backend has no caches");
    }
    REQUIRE_FALSE(m.sectors_per_request);
    REQUIRE(counters_unavailable("").unavailable.size() > 0);
}

TEST_CASE("measured metrics: counters give OP/B at L2 and DRAM", "[analysis]") {
    // The ncu figure of seed-figures.md: DRAM read 70.5 MB for the 67.1 MB array at N = 256.
    const GridDims g{256, 256, 256};
    HardwareCounters hw;
    hw.dram_read_bytes = 70.5e6;
    hw.l2_read_bytes = 200e6;
    hw.l1_global_load_requests = 1000;
    hw.l1_global_load_sectors = 5070;
    const auto m = measure(KernelId::naive, 8, 1, Precision::f32, g, nullptr, hw);
    const double flops = 13.0 * 254 * 254 * 254;
    REQUIRE(*m.level("DRAM").opb == Approx(flops / 70.5e6));
    REQUIRE(*m.level("DRAM").opb > 3 * *m.level("requested").opb);  // "several times"
    REQUIRE(*m.sectors_per_request == Approx(5.07));
    REQUIRE(m.level("L2").read_bytes);
}

TEST_CASE("requested level on the GPU: the counters' bytes, the model beside them", "[analysis]") {
    const GridDims g{40, 36, 33};
    const GridTraffic exact = exact_grid_traffic(KernelId::tiled, 8, 1, Precision::f32, g);
    HardwareCounters hw;
    hw.flops = double(exact.flops);
    // a measurement that disagrees with the model must be kept, not replaced by it
    hw.requested_read_bytes = double(exact.load_bytes) + 4096;
    hw.requested_write_bytes = double(exact.store_bytes);
    hw.dram_read_bytes = 1.0e6;
    hw.dram_write_bytes = 0.5e6;
    hw.l1_global_load_sectors = 900;
    hw.l1_global_load_requests = 200;
    const auto m = measure(KernelId::tiled, 8, 1, Precision::f32, g, nullptr, hw);
    const auto& req = m.level("requested");
    REQUIRE(req.measured);
    REQUIRE(*req.read_bytes == double(exact.load_bytes) + 4096);
    REQUIRE(*req.model_read_bytes == double(exact.load_bytes));
    REQUIRE(req.source.find("hardware counters") != std::string::npos);
    REQUIRE(*req.opb == Approx(double(exact.flops) / (double(exact.load_bytes) + 4096)));
    // DRAM: FLOP per byte read + written (the roofline's convention)
    REQUIRE(*m.level("DRAM").opb_rw == Approx(double(exact.flops) / 1.5e6));
    REQUIRE(*m.l1_sectors == 900);
    REQUIRE(*m.l1_requests == 200);
    REQUIRE(*m.sectors_per_request == Approx(900.0 / 200));
}

TEST_CASE("requested level on the GPU without the instruction counter: labelled fallback", "[analysis]") {
    const GridDims g{32, 32, 32};
    HardwareCounters hw;
    hw.dram_read_bytes = 1.0e6;
    hw.requested_unavailable = "CUPTI refused smsp__sass_data_bytes_mem_global_op_ld.sum";
    const auto m = measure(KernelId::naive, 8, 1, Precision::f32, g, nullptr, hw);
    const auto& req = m.level("requested");
    REQUIRE_FALSE(req.measured);
    REQUIRE(req.source.find("NOT measured") != std::string::npos);
    REQUIRE(req.source.find("CUPTI refused") != std::string::npos);
    REQUIRE(*req.read_bytes == double(exact_grid_traffic(KernelId::naive, 8, 1, Precision::f32, g).load_bytes));
    // no DRAM write counter: no read + write OP/B (a read-only figure would mix conventions)
    REQUIRE_FALSE(m.level("DRAM").opb_rw);
}
