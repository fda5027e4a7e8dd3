// What the front ends reach through core's interfaces on the CUDA backend (docs/DESIGN.md, "Front
// ends speak to interfaces"): it offers counters (CUPTI's, the FMA peak) and not the engine's runs,
// and the other problems' factories give the GPU's stepper (with its timer) and derivative runner
// (the nvcc launches, with the compiler's attributes).
#include <catch2/catch.hpp>

#include <cstring>
#include <limits>

#include "backends/cuda/derivative.h"
#include "core/cardiac2d_check.h"
#include "core/counters.h"
#include "core/derivative_runner.h"
#include "core/engine_runs.h"
#include "core/weights.h"
#include "tests/gpu/gpu_fixture.h"

using namespace stencil;

TEST_CASE("the cuda backend offers counters and not the engine's runs", "[gpu][backend][counters]") {
    Backend& b = test::gpu();
    REQUIRE(b.engine() == nullptr);
    Counters* counters = b.counters();
    REQUIRE(counters);
    // A grid larger than any L2 (226 MB against the H100's 50 MB and the H200's 60 MB): a smaller
    // one can be served from L2 and read almost nothing from DRAM.
    const LaunchRequest req{KernelId::naive, 8, 1, Precision::f32, {384, 384, 384}};
    std::string why;
    const auto c = counters->measure(req, random_weights(1, 1), &why);
    if (!c) {  // where the driver keeps counters for administrators: the one sentence the user sees
        WARN("hardware counters not available: " << why);
        REQUIRE_FALSE(why.empty());
    } else {
        REQUIRE((c->dram_bytes_read > 0.9 * double(req.dims.cells()) * 4 && c->flops() > 0));
    }
    std::string fma_why;
    const auto peak = counters->fma_gflops(Precision::f32, &fma_why);
    CAPTURE(fma_why);
    REQUIRE((peak && *peak > 1000));
}

TEST_CASE("the cuda backend's cardiac2d stepper times its steps", "[gpu][backend][cardiac2d]") {
    Backend& b = test::gpu();
    const auto stepper = cardiac2d::make_stepper(b);
    REQUIRE((stepper && stepper->backend_name() == "cuda"));
    cardiac2d::StepTimer* timer = stepper->timer();
    REQUIRE(timer);
    const auto ms = timer->time_step_ms(cardiac2d::KernelId::fused, Precision::f32, 256, 10, 3);
    REQUIRE((ms.size() == 3 && ms[0] > 0));
}

TEST_CASE("the cuda backend's derivative runner is the nvcc launch", "[gpu][backend][derivative]") {
    Backend& b = test::gpu();
    const auto runner = make_derivative_runner(b);
    REQUIRE((runner && runner->kind() == BackendKind::cuda));
    const DerivativeRequest req{DerivativeKernelId::x_small, Precision::f32, {64, 64, 64}};
    const auto attributes = runner->attributes(req);
    REQUIRE((attributes && attributes->registers_per_thread > 0));
    std::vector<float> in(static_cast<std::size_t>(req.dims.cells()));
    for (std::size_t i = 0; i < in.size(); ++i) in[i] = float(i % 97) / 97.0f - 0.5f;
    std::vector<float> via_interface(in.size(), std::numeric_limits<float>::quiet_NaN());
    std::vector<float> direct = via_interface;
    runner->execute(req, in.data(), via_interface.data());
    execute_derivative_cuda(req, in.data(), direct.data());
    REQUIRE(std::memcmp(via_interface.data(), direct.data(), direct.size() * sizeof(float)) == 0);
    const auto ms = runner->time_ms(req, in.data(), 1, 2);
    REQUIRE((ms.size() == 2 && ms[0] > 0));
}
