// The model's rows for temporal and streaming (issue 13): hand-computed figures from each kernel's
// loop, the CPU trace of a fused launch against the whole-grid count, and the registers ptxas gives
// the temporal and streaming kernels (sm_90 cubins made by NVRTC, no GPU) against the model.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "analysis/model.h"
#include "analysis/registers_check.h"
#include "backends/cpu/cpu_backend.h"
#include "backends/cpu/ptx/lab_ptx.h"
#include "backends/cpu/registers_cubin.h"
#include "core/error.h"
#include "core/field.h"
#include "core/weights.h"

using namespace stencil;
using namespace stencil::analysis;

TEST_CASE("temporal: an interior block of T = 64, r = 1, K = 3, hand-counted", "[analysis]") {
    REQUIRE(version(KernelId::temporal).z_chunk == 64);  // the figures below assume it
    REQUIRE((kTemporalStripRows == 4 && kTemporalLaneBytes == 8));
    const BlockTraffic b = interior_block_traffic(KernelId::temporal, 64, 1, Precision::f32, 3);
    // The tile is 64 x 64 (2 floats a lane; 16 strips of 4 rows); level 3 is valid on (64 - 6) x
    // (64 - 6) = 58 x 58. The march takes Z + 2rK = 70 steps, each loading the tile's 4096 cells of
    // the next plane.
    REQUIRE(b.threads == 512);
    REQUIRE(b.outputs == 58LL * 58 * 64);
    REQUIRE(b.loads == 4096LL * 70);
    // Per step, levels 0, 1 and 2 each publish every strip's first and last row (3 x 16 x 2 x 64);
    // each column of a strip reads, per level computed, the row above its first and the row below
    // its last (3 x 16 x 64 x 2).
    REQUIRE(b.shared_stores == 3LL * 16 * 2 * 64 * 70);
    REQUIRE(b.shared_loads == 3LL * 16 * 64 * 2 * 70);
    REQUIRE(b.flops == 58LL * 58 * 64 * 3 * 13);         // three useful updates of every output
    REQUIRE(b.executed_flops == 4096LL * 3 * 70 * 13);   // every level on the whole tile, every step
    // fp64: one double a lane, the tile 32 x 64, level 3 on 26 x 58.
    const BlockTraffic d = interior_block_traffic(KernelId::temporal, 64, 1, Precision::f64, 3);
    REQUIRE((d.threads == 512 && d.outputs == 26LL * 58 * 64 && d.loads == 2048LL * 70));
    REQUIRE(d.shared_stores == 3LL * 16 * 2 * 32 * 70);
}

// The summary's queue line states temporal's formula at every K: at K = 1 it once printed the
// one-column kernels' "2r + 1 = 24", 2r + 1 being 3.
TEST_CASE("temporal's z-queue line: K (2r + 1) x rows x cells at every K, fp64 two registers a value", "[analysis]") {
    const Model one = model(KernelId::temporal, 64, 1, Precision::f32, 1);
    CAPTURE(one.summary);
    REQUIRE(one.summary.find("z-queue registers    K (2r + 1) x 4 rows x 2 floats = 24 per thread") != std::string::npos);
    const Model two = model(KernelId::temporal, 64, 1, Precision::f64, 2);
    CAPTURE(two.summary);
    REQUIRE(two.summary.find("K (2r + 1) x 4 rows x 1 double x 2 registers = 48 per thread") != std::string::npos);
    const Model rt = model(KernelId::register_tiled, 32, 2, Precision::f32);
    REQUIRE(rt.summary.find("z-queue registers    2r + 1 = 5 per thread") != std::string::npos);
}

TEST_CASE("bytes per cell update: temporal K = 4 and streaming, hand-computed", "[analysis]") {
    const UpdateTraffic t = update_traffic(KernelId::temporal, 64, 1, Precision::f32, 4);
    // 56 x 56 x 64 = 200704 outputs, 4096 x 72 loads, 4 updates each.
    const double outputs = 56.0 * 56 * 64, loads = 4096.0 * 72;
    REQUIRE(t.requested_bytes == Approx((loads + outputs) * 4 / (outputs * 4)));
    REQUIRE(t.l2_bytes == t.requested_bytes);
    REQUIRE(t.dram_bytes == Approx(4.0 * (72.0 / 64 + 1) / 4));  // 2.125 B, the copy's 8 B
    REQUIRE(t.copy_ratio_bound == Approx(8.0 / 2.125));
    REQUIRE(t.halo_reread_share == Approx(1 - outputs / loads));
    REQUIRE(t.redundant_work_share == Approx(1 - outputs * 4 / (4096.0 * 4 * 72)));
    REQUIRE(t.queue_registers == 4 * 3 * 4 * 2);  // K levels x (2r + 1) planes x 4 rows x 2 floats
    const UpdateTraffic s = update_traffic(KernelId::streaming, 8, 1, Precision::f32);
    // T = 8, Z = 8: 12416 loads (test_model.cpp) and 8192 stores for 8192 outputs.
    REQUIRE(s.z_chunk == 8);
    REQUIRE(s.requested_bytes == Approx((12416.0 + 8192) * 4 / 8192));
    REQUIRE(s.dram_bytes == Approx(4.0 * (10.0 / 8 + 1)));
    REQUIRE((s.redundant_work_share == 0 && s.fused == 1));
    // 2r + 1 vectors of 16 bytes, 4 registers each; a budget of 48 at r = 1 holds 65536 / 48 / 256
    // = 5 blocks of 8 warps; temporal has no budget (its launch bounds ask for one block).
    REQUIRE((s.queue_registers == 3 * 4 && s.register_budget == 48 && s.min_warps_per_sm == 40));
    REQUIRE((t.register_budget == 0 && t.min_warps_per_sm == 0));
    REQUIRE(update_traffic(KernelId::temporal, 64, 1, Precision::f64, 4).queue_registers == 4 * 3 * 4 * 2);  // 1 double
    const UpdateTraffic s4 = update_traffic(KernelId::streaming, 4, 4, Precision::f64);
    REQUIRE((s4.queue_registers == 9 * 4 && s4.register_budget == 80 && s4.min_warps_per_sm == 24));
    REQUIRE_THROWS_AS(update_traffic(KernelId::tiled, 8, 1, Precision::f32), UserError);
    REQUIRE_THROWS_AS(update_traffic(KernelId::temporal, 8, 1, Precision::f32, 4), UserError);  // T <= 2rK
}

TEST_CASE("temporal: whole-grid loads of a fused launch, hand-counted and traced", "[analysis]") {
    const GridDims g{45, 27, 10};
    // T = 16, K = 2: the halo 2 wide, 60 outputs across the fp32 warp (64 cells), 12 down. Along x,
    // one tile at -2 loads all 45 columns; along y, tiles at -2, 10, 22 load 14 + 16 + 5; one
    // z-chunk marches planes max(0, 1 - 2) .. min(10, 9 + 2): all 10.
    const GridTraffic t = exact_grid_traffic(KernelId::temporal, 16, 1, Precision::f32, g, 2);
    REQUIRE(t.load_values == 45LL * 35 * 10);
    // fp64 (32 cells a warp, 28 outputs): tiles at -2 and 26 load 30 + 19.
    REQUIRE(exact_grid_traffic(KernelId::temporal, 16, 1, Precision::f64, g, 2).load_values == 49LL * 35 * 10);
    REQUIRE(t.store_values == 43LL * 25 * 8);
    const Precision p = GENERATE(Precision::f32, Precision::f64);
    const int K = GENERATE(1, 2, 3);
    // Two tiles across (26 .. 62 outputs each), four strips a tile, three z-chunks.
    LaunchRequest req{KernelId::temporal, 16, 1, p, {70, 15, 2 * version(KernelId::temporal).z_chunk + 9}};
    req.steps = req.fuse = K;
    CAPTURE(to_string(p), K);
    CpuOptions opt;
    opt.exec.trace.count = true;
    std::vector<double> in(req.dims.cells(), 0.5), out(req.dims.cells(), 0.0);
    std::vector<float> in32(req.dims.cells(), 0.5f), out32(req.dims.cells(), 0.0f);
    const bool f32 = p == Precision::f32;
    const EngineRun run = run_cpu(req, random_weights(1, 3), f32 ? (const void*)in32.data() : (const void*)in.data(),
                               f32 ? (void*)out32.data() : (void*)out.data(), opt);
    REQUIRE(run.ok());
    const GridTraffic e = exact_grid_traffic(KernelId::temporal, 16, 1, p, req.dims, K);
    REQUIRE(run.report.counts.global_load_bytes == e.load_bytes);
    REQUIRE(run.report.counts.global_store_bytes == e.store_bytes);
}

namespace {

// A compile of one of the lab's kernel headers through NVRTC, from the embedded copies the CUDA
// backend's runtime compiles use; the caller names the instantiations.
ptx::CompileRequest kernel_header_request(const std::string& header) {
    ptx::CompileRequest req;
    req.name = "registers.cu";
    req.source = "#include \"" + header + "\"\n";
    for (int i = 0; i < lab_ptx_detail::kEmbeddedHeaderCount; ++i)
        req.headers.push_back({lab_ptx_detail::kEmbeddedHeaders[i].name, lab_ptx_detail::kEmbeddedHeaders[i].text});
    req.options = {"--no-source-include"};
    return req;
}

}  // namespace

TEST_CASE("temporal: ptxas holds the model's K (2r + 1) x 4 x V z-queues in registers at T = 64", "[analysis]") {
    // The lab's own kernel header through NVRTC for sm_90 (no GPU needed), as the CUDA backend
    // compiles it; r = 1 in fp32 (the 1.5x target's configuration) for every K.
    ptx::CompileRequest req = kernel_header_request("kernels/temporal.cuh");
    auto expression = [](int K) {
        return "stencil::stencil_temporal_kernel<float, 64, 1, " + std::to_string(K) + ">";
    };
    for (int K = 1; K <= 4; ++K) req.name_expressions.push_back(expression(K));
    const CubinResult cubin = compile_to_cubin(req, "sm_90");
    CAPTURE(cubin.log);
    REQUIRE(cubin.ok);
    const auto all = cubin_resources(cubin.cubin);
    for (int K = 1; K <= 4; ++K) {
        const CubinResources res = all.at(cubin.lowered_name(expression(K)));
        const UpdateTraffic u = update_traffic(KernelId::temporal, 64, 1, Precision::f32, K);
        CAPTURE(K, res.registers, res.frame_bytes, u.queue_registers);
        // The queues are a lower bound; __launch_bounds__(512) allows a thread 128 registers; no spill.
        REQUIRE((res.registers >= u.queue_registers && res.registers <= 128 && res.frame_bytes == 0));
    }
}

TEST_CASE("streaming: ptxas keeps a thread within the model's register budget, the z-queue inside it", "[analysis]") {
    // The lab's kernel header through NVRTC for sm_90 (no GPU needed) at T = 4, every radius and
    // precision: __launch_bounds__ turns streaming_register_budget into blocks an SM, so ptxas may
    // use no more; the queue's 2r + 1 vectors are a lower bound.
    ptx::CompileRequest req = kernel_header_request("kernels/streaming.cuh");
    auto expression = [](Precision p, int r) {
        return fmt::format("stencil::stencil_streaming_kernel<{}, 4, {}>", p == Precision::f32 ? "float" : "double", r);
    };
    for (Precision p : {Precision::f32, Precision::f64})
        for (int r = 1; r <= kMaxRadius; ++r) req.name_expressions.push_back(expression(p, r));
    const CubinResult cubin = compile_to_cubin(req, "sm_90");
    CAPTURE(cubin.log);
    REQUIRE(cubin.ok);
    const auto all = cubin_resources(cubin.cubin);
    for (Precision p : {Precision::f32, Precision::f64})
        for (int r = 1; r <= kMaxRadius; ++r) {
            const CubinResources res = all.at(cubin.lowered_name(expression(p, r)));
            const UpdateTraffic u = update_traffic(KernelId::streaming, 4, r, p);
            CAPTURE(to_string(p), r, res.registers, res.frame_bytes, u.queue_registers, u.register_budget);
            REQUIRE((res.registers >= u.queue_registers && res.registers <= u.register_budget));
        }
}
