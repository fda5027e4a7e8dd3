// Every cardiac2d kernel on the CPU backend (the PTX engine) against the fp64 reference: one step
// within the rounding bound, K steps within the stated tolerance, the statistics. Sizes are small
// (the engine interprets about 10^7 instructions a second) and not multiples of the tiles.
#include <catch2/catch.hpp>

#include "backends/cpu/cardiac2d_cpu.h"
#include "core/error.h"

using stencil::Precision;
using stencil::Problem;
using stencil::UserError;
using namespace stencil::cardiac2d;

TEST_CASE("cardiac2d on the CPU engine: every kernel matches the fp64 reference", "[kernel][cpu]") {
    const KernelId k = GENERATE(KernelId::naive, KernelId::fused, KernelId::shared, KernelId::shared_all,
                                KernelId::sliding_rows, KernelId::shuffle);
    const Precision p = GENERATE(Precision::f32, Precision::f64);
    // 17: the 16-wide tiles end in a one-cell tile; 40: two sliding-row strips, partial warps.
    const int n = GENERATE(17, 40);
    const int steps = 12;
    CAPTURE(version(k).name, to_string(p), n, steps);
    CpuStepper cpu;
    const CheckReport rep = check_kernel(cpu, k, p, n, steps);
    CAPTURE(rep.one_step.summary(), rep.k_steps.summary(), rep.got.l2_E, rep.want.l2_E);
    REQUIRE(rep.ok());
}

TEST_CASE("cardiac2d on the CPU engine: the shared kernels run clean with race checks on", "[kernel][cpu]") {
    const KernelId k = GENERATE(KernelId::shared, KernelId::shared_all, KernelId::sliding_rows, KernelId::shuffle);
    const engine::Schedule schedule = GENERATE(engine::Schedule::in_order, engine::Schedule::reversed, engine::Schedule::random);
    CAPTURE(version(k).name, int(schedule));
    engine::ExecOptions o;
    o.check_shared = true;
    o.schedule = schedule;
    CpuStepper checked(o), plain;
    State a = spiral_initial_state(33), b = a;
    REQUIRE_NOTHROW(checked.advance(k, Precision::f32, a, 3));  // a race or unset read throws
    plain.advance(k, Precision::f32, b, 3);
    // Bit for bit on the interior (the ghosts come back poisoned).
    REQUIRE(compare(a, b, 0.0).ok());
}

TEST_CASE("cardiac2d on the CPU engine: a mesh below the minimum is refused", "[kernel][cpu]") {
    CpuStepper cpu;
    State s = spiral_initial_state(kMinSide - 1);
    REQUIRE_THROWS_AS(cpu.advance(KernelId::fused, Precision::f32, s, 1), UserError);
}
