// cardiac2d on the GPU (backends/cuda/cardiac2d.h): every kernel against the fp64 reference, and a
// timed run that reports GB/s beside a device-to-device copy measured in the same process.
#include <catch2/catch.hpp>

#include "analysis/cardiac2d_model.h"
#include "backends/cuda/cardiac2d.h"
#include "core/stats.h"
#include "gpu_fixture.h"

using stencil::Precision;
using namespace stencil::cardiac2d;

TEST_CASE("cardiac2d on the GPU: every kernel matches the fp64 reference", "[kernel][gpu]") {
    stencil::test::gpu();  // fails at once, with the reason, where there is no GPU
    const KernelId k = GENERATE(KernelId::naive, KernelId::fused, KernelId::shared, KernelId::shared_all,
                                KernelId::sliding_rows, KernelId::shuffle);
    const Precision p = GENERATE(Precision::f32, Precision::f64);
    // 17 and 40 as on the CPU; 1000: many blocks and strips, none of the tiles dividing it.
    const int n = GENERATE(17, 40, 1000);
    const int steps = 50;
    CAPTURE(version(k).name, to_string(p), n, steps);
    CudaStepper gpu;
    const CheckReport rep = check_kernel(gpu, k, p, n, steps);
    CAPTURE(rep.one_step.summary(), rep.k_steps.summary(), rep.got.l2_E, rep.want.l2_E);
    REQUIRE(rep.ok());
}

TEST_CASE("cardiac2d on the GPU: a timed run reports GB/s against the copy of the same run", "[gpu][alone]") {
    auto& backend = stencil::test::gpu();
    const KernelId k = GENERATE(KernelId::naive, KernelId::fused, KernelId::shared, KernelId::shared_all,
                                KernelId::sliding_rows, KernelId::shuffle);
    const int n = 4096, steps = 50, reps = 5;
    CudaStepper gpu;
    const auto ms = stencil::summarize(gpu.time_step_ms(k, Precision::f32, n, steps, reps));
    const double gbps = step_min_bytes(n, Precision::f32) / (ms.median * 1e-3) * 1e-9;
    const double copy = stencil::summarize(backend.copy_gbps(copy_bytes(n, Precision::f32), reps)).median;
    const double ratio = gbps / copy;
    WARN(version(k).name << ": " << ms.median << " ms per step, " << gbps << " GB/s, copy " << copy << " GB/s, "
                         << ratio << " x copy, " << step_flops(n) / (ms.median * 1e-3) * 1e-9 << " GFLOP/s");
    REQUIRE(ms.min > 0);
    // A step moves at least the 4 values per cell it counts: faster than about the copy is wrong.
    REQUIRE(ratio > 0.02);
    REQUIRE(ratio < 1.3);
}
