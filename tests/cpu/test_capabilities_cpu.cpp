// What the front ends reach through core's interfaces on the CPU backend (docs/DESIGN.md, "Front
// ends speak to interfaces"): its EngineRuns are the backend's own runs (the same output, counts and
// PTX as run_cpu and lab_ptx), it has no counters, and the other problems' factories give the
// engine's stepper (no timer) and derivative runner (no attributes).
#include <catch2/catch.hpp>

#include <cstring>
#include <limits>

#include "backends/cpu/cpu_backend.h"
#include "backends/cpu/derivative_cpu.h"
#include "backends/cpu/ptx/lab_ptx.h"
#include "core/cardiac2d_check.h"
#include "core/counters.h"
#include "core/derivative_runner.h"
#include "core/engine_runs.h"
#include "core/field.h"

using namespace stencil;

TEST_CASE("the cpu backend offers the engine's runs and no counters", "[cpu][backend]") {
    const auto b = make_backend("cpu", nullptr);
    REQUIRE(b);
    REQUIRE(b->counters() == nullptr);
    EngineRuns* engine = b->engine();
    REQUIRE(engine);

    const LaunchRequest req{KernelId::tiled, 8, 1, Precision::f32, {20, 18, 17}};
    const auto in = random_field<float>(req.dims, 3);
    const auto w = random_weights(1, 4);
    auto via_interface = poisoned_output(in, 1);
    auto direct = via_interface;
    engine::ExecOptions o;
    o.trace.count = true;
    const EngineRun a = engine->run(req, w, in.data.data(), via_interface.data.data(), o);
    const EngineRun d = run_cpu(req, w, in.data.data(), direct.data.data(), CpuOptions{o});
    REQUIRE((a.ok() && d.ok() && a.report.instructions == d.report.instructions &&
             a.report.counts.global_load_bytes == d.report.counts.global_load_bytes &&
             std::memcmp(via_interface.data.data(), direct.data.data(), direct.data.size() * sizeof(float)) == 0));

    const EnginePtx ptx = engine->ptx(req);
    const LabPtx& lab = lab_ptx(req.kernel, req.tile, req.radius, req.precision);
    REQUIRE((ptx.ptx == lab.ptx && ptx.entry == lab.entry && ptx.source_file == "kernels/tiled.cuh"));

    engine::ExecOptions checked;
    checked.seed = 7;
    const ScheduleCheck chk = engine->schedule_check(req, w, in.data.data(), checked, 1);
    CAPTURE(chk.summary());
    REQUIRE((chk.ok && chk.runs.size() == 3));
}

TEST_CASE("the cpu backend's cardiac2d stepper has no timer", "[cpu][backend][cardiac2d]") {
    const auto b = make_backend("cpu", nullptr);
    REQUIRE(b);
    const auto stepper = cardiac2d::make_stepper(*b);
    REQUIRE((stepper && stepper->backend_name() == "cpu" && stepper->timer() == nullptr));
    cardiac2d::State s = cardiac2d::spiral_initial_state(17);
    const cardiac2d::State start = s;
    stepper->advance(cardiac2d::KernelId::fused, Precision::f32, s, 2);
    REQUIRE(s.E != start.E);
}

TEST_CASE("the cpu backend's derivative runner is the engine's", "[cpu][backend][derivative]") {
    const auto b = make_backend("cpu", nullptr);
    REQUIRE(b);
    const auto runner = make_derivative_runner(*b);
    REQUIRE((runner && runner->kind() == BackendKind::cpu));
    const DerivativeRequest req{DerivativeKernelId::x_small, Precision::f32, {64, 64, 64}};
    REQUIRE_FALSE(runner->attributes(req));
    std::vector<float> in(static_cast<std::size_t>(req.dims.cells()));
    for (std::size_t i = 0; i < in.size(); ++i) in[i] = float(i % 97) / 97.0f - 0.5f;
    std::vector<float> via_interface(in.size(), std::numeric_limits<float>::quiet_NaN());
    std::vector<float> direct = via_interface;
    runner->execute(req, in.data(), via_interface.data());
    REQUIRE(run_derivative_cpu(req, in.data(), direct.data()).ok);
    REQUIRE(std::memcmp(via_interface.data(), direct.data(), direct.size() * sizeof(float)) == 0);
    const auto ms = runner->time_ms(req, in.data(), 0, 2);
    REQUIRE((ms.size() == 2 && ms[0] > 0 && ms[1] > 0));
}
