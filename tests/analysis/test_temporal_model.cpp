// The model's rows for temporal and streaming (issue 13): hand-computed figures from each kernel's
// loop, the CPU trace of a fused launch against the whole-grid count, and the registers ptxas gives
// the temporal kernel (an sm_90 cubin made by NVRTC, no GPU) against the model's z-queues.
#include <catch2/catch.hpp>

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

TEST_CASE("temporal: an interior block of T = 32, r = 1, K = 2, hand-counted", "[analysis]") {
    REQUIRE(version(KernelId::temporal).z_chunk == 128);  // the figures below assume it
    const BlockTraffic b = interior_block_traffic(KernelId::temporal, 32, 1, Precision::f32, 2);
    // OUT = 32 - 4 = 28; the march takes Z + 2rK = 132 steps of one 32^2 plane each.
    REQUIRE(b.outputs == 28LL * 28 * 128);
    REQUIRE(b.loads == 1024LL * 132);
    // Per step: level 1 publishes level 0's 32^2 and computes 30^2; level 2 publishes 30^2 and
    // computes 28^2.
    REQUIRE(b.shared_stores == (1024LL + 900) * 132);
    REQUIRE(b.shared_loads == 4LL * (900 + 784) * 132);
    REQUIRE(b.flops == 28LL * 28 * 128 * 2 * 13);         // two useful updates of every output
    REQUIRE(b.executed_flops == (900LL + 784) * 132 * 13);  // every cell of every level's band
}

TEST_CASE("bytes per cell update: temporal K = 4 and streaming, hand-computed", "[analysis]") {
    const UpdateTraffic t = update_traffic(KernelId::temporal, 32, 1, Precision::f32, 4);
    // OUT = 24: 576 x 128 outputs, 1024 x 136 loads, 4 updates each.
    REQUIRE(t.requested_bytes == Approx((1024.0 * 136 + 576.0 * 128) * 4 / (576.0 * 128 * 4)));
    REQUIRE(t.l2_bytes == t.requested_bytes);
    REQUIRE(t.dram_bytes == Approx(4.0 * (136.0 / 128 + 1) / 4));  // 2.0625 B, the copy's 8 B
    REQUIRE(t.copy_ratio_bound == Approx(8.0 / 2.0625));
    REQUIRE(t.halo_reread_share == Approx(1 - 576.0 * 128 / (1024.0 * 136)));
    REQUIRE(t.redundant_work_share == Approx(1 - 576.0 * 128 * 4 / ((900.0 + 784 + 676 + 576) * 136)));
    REQUIRE(t.queue_registers == 12);
    const UpdateTraffic s = update_traffic(KernelId::streaming, 8, 1, Precision::f32);
    // T = 8, Z = 16: 22784 loads (test_model.cpp) and 16384 stores for 16384 outputs.
    REQUIRE(s.requested_bytes == Approx((22784.0 + 16384) * 4 / 16384));
    REQUIRE(s.dram_bytes == Approx(4.0 * (18.0 / 16 + 1)));
    REQUIRE((s.redundant_work_share == 0 && s.queue_registers == 3 && s.fused == 1));
    REQUIRE_THROWS_AS(update_traffic(KernelId::tiled, 8, 1, Precision::f32), UserError);
    REQUIRE_THROWS_AS(update_traffic(KernelId::temporal, 8, 1, Precision::f32, 4), UserError);  // T <= 2rK
}

TEST_CASE("temporal: whole-grid loads of a fused launch, hand-counted and traced", "[analysis]") {
    const GridDims g{13, 11, 10};
    // T = 8, K = 2: OUT = 4, the halo 2 wide. Along x, blocks at -2, 2, 6, 10 load 6 + 8 + 7 + 3;
    // along y 6 + 8 + 5; one z-chunk marches planes max(0, 1 - 2) .. min(10, 9 + 2): all 10.
    const GridTraffic t = exact_grid_traffic(KernelId::temporal, 8, 1, Precision::f32, g, 2);
    REQUIRE(t.load_values == 24LL * 19 * 10);
    REQUIRE(t.store_values == 11LL * 9 * 8);
    const Precision p = GENERATE(Precision::f32, Precision::f64);
    const int K = GENERATE(1, 2, 3);
    LaunchRequest req{KernelId::temporal, 8, 1, p, {17, 15, 2 * 128 + 9}};
    req.steps = req.fuse = K;
    CAPTURE(to_string(p), K);
    CpuOptions opt;
    opt.exec.trace.count = true;
    std::vector<double> in(req.dims.cells(), 0.5), out(req.dims.cells(), 0.0);
    std::vector<float> in32(req.dims.cells(), 0.5f), out32(req.dims.cells(), 0.0f);
    const bool f32 = p == Precision::f32;
    const CpuRun run = run_cpu(req, random_weights(1, 3), f32 ? (const void*)in32.data() : (const void*)in.data(),
                               f32 ? (void*)out32.data() : (void*)out.data(), opt);
    REQUIRE(run.ok());
    const GridTraffic e = exact_grid_traffic(KernelId::temporal, 8, 1, p, req.dims, K);
    REQUIRE(run.report.counts.global_load_bytes == e.load_bytes);
    REQUIRE(run.report.counts.global_store_bytes == e.store_bytes);
}

TEST_CASE("temporal: ptxas holds the model's K (2r + 1) z-queue in registers at T = 32", "[analysis]") {
    // The lab's own kernel header through NVRTC for sm_90 (no GPU needed), as the CUDA backend
    // compiles it; r = 1 in fp32 (the 1.5x target's configuration) for every K.
    ptx::CompileRequest req;
    req.name = "temporal_registers.cu";
    req.source = "#include \"kernels/temporal.cuh\"\n";
    for (int i = 0; i < lab_ptx_detail::kEmbeddedHeaderCount; ++i)
        req.headers.push_back({lab_ptx_detail::kEmbeddedHeaders[i].name, lab_ptx_detail::kEmbeddedHeaders[i].text});
    req.options = {"--no-source-include"};
    auto expression = [](int K) {
        return "stencil::stencil_temporal_kernel<float, 32, 1, " + std::to_string(K) + ", const float*, float*>";
    };
    for (int K = 1; K <= 4; ++K) req.name_expressions.push_back(expression(K));
    const CubinResult cubin = compile_to_cubin(req, "sm_90");
    CAPTURE(cubin.log);
    REQUIRE(cubin.ok);
    const auto all = cubin_resources(cubin.cubin);
    for (int K = 1; K <= 4; ++K) {
        const CubinResources res = all.at(cubin.lowered_name(expression(K)));
        const UpdateTraffic u = update_traffic(KernelId::temporal, 32, 1, Precision::f32, K);
        CAPTURE(K, res.registers, res.frame_bytes, u.queue_registers);
        // The queue is a lower bound; __launch_bounds__(1024) caps a thread at 64 registers; no spill.
        REQUIRE((res.registers >= u.queue_registers && res.registers <= 64 && res.frame_bytes == 0));
    }
}
