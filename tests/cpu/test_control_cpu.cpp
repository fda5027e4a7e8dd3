// The PTX engine on control flow (fixtures/control_flow.cu): barrier call sites, exit before a
// barrier and its determinism across workers, __syncwarp against __syncthreads, endless loops
// (instruction budget and deadline), the call stack, local memory bounds, and the launches and
// instructions the engine refuses. Each test case compiles at most one program (the unsupported
// instructions: one small one each).
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "backends/cpu/cpu_backend.h"
#include "tests/cpu/ptx_test_support.h"

using engine::DiagKind;
using engine::Schedule;
using ptxtest::arg;
using ptxtest::Buffers;
using ptxtest::element;
using ptxtest::in_out_call;
using ptxtest::opts;
using ptxtest::ptr;

namespace {

const ptxtest::Fixture& control() { return ptxtest::fixture("control_flow.cu"); }


}  // namespace

// ---- 1. barrier call sites -----------------------------------------------------------------------
TEST_CASE("one helper's barrier reached from both branches is one barrier, inlined or called", "[cpu][control]") {
    const auto sched = GENERATE(Schedule::in_order, Schedule::reversed, Schedule::random);
    CAPTURE(engine::to_string(sched));
    const auto& fx = control();
    for (const char* kernel : {"divergent_helper", "divergent_helper_call"}) {
        Buffers b(64);
        const auto rep = ptxtest::run(fx, kernel, in_out_call({1, 1, 1}, {64, 1, 1}, b), opts(sched));
        CAPTURE(kernel, rep.summary());
        REQUIRE(rep.clean());
        REQUIRE((b.out[0] == b.in[0] && b.out[3] == b.in[3] && b.out[4] == 2 * b.in[4] && b.out[63] == 2 * b.in[63]));
    }
    // Two barriers written on one line have one source position, as one barrier the compiler
    // copied into two paths has: the engine cannot tell them apart and lets the block pass (two
    // barriers on two lines are a divergent_barrier: test_diagnostics_cpu.cpp).
    Buffers b(64);
    const auto rep = ptxtest::run(fx, "divergent_one_line", in_out_call({1, 1, 1}, {64, 1, 1}, b), opts(sched));
    CAPTURE(rep.summary());
    REQUIRE((rep.clean() && b.out == b.in));
}

// ---- 2. exit before a barrier, and determinism ----------------------------------------------------
TEST_CASE("fatal totals and blocks run do not depend on worker timing", "[cpu][control]") {
    const auto& fx = control();
    Buffers b(64);
    std::vector<std::tuple<long long, long long, long long>> seen;
    const engine::Diagnostic* first = nullptr;
    engine::ExecReport keep;
    for (int i = 0; i < 40; ++i) {
        auto rep = ptxtest::run(fx, "early_exit", in_out_call({64, 1, 1}, {64, 1, 1}, b), opts(Schedule::in_order, true, 2));
        seen.emplace_back(rep.total(DiagKind::exit_before_barrier), rep.blocks_run, rep.threads_run);
        if (i == 0) keep = std::move(rep);
    }
    std::sort(seen.begin(), seen.end());
    seen.erase(std::unique(seen.begin(), seen.end()), seen.end());
    CAPTURE(seen.size(), keep.summary());
    // Block 0 fails first (in queue order): only it counts, whatever the other worker ran.
    REQUIRE((seen.size() == 1 && std::get<0>(seen[0]) == 1 && std::get<1>(seen[0]) == 1 && std::get<2>(seen[0]) == 64));
    first = keep.first(DiagKind::exit_before_barrier);
    REQUIRE(first);
    CAPTURE(first->message);
    // Thread 0 waits at the barrier, thread 6 was the first to return.
    REQUIRE((!keep.ok && first->block == engine::Idx3{0, 0, 0} && first->thread_a == 0 && first->thread_b == 6 &&
             first->interval == 0 && first->line == fx.line_of("<-- early_exit barrier") &&
             first->site_a == fx.at("<-- early_exit barrier") && keep.diagnostics.size() == 1));
}

// ---- 3. __syncwarp against __syncthreads ----------------------------------------------------------
TEST_CASE("lanes waiting at __syncwarp for a lane at __syncthreads are a divergent barrier", "[cpu][control]") {
    const auto sched = GENERATE(Schedule::in_order, Schedule::reversed);
    CAPTURE(engine::to_string(sched));
    const auto& fx = control();
    Buffers b(32);
    const auto rep = ptxtest::run(fx, "syncwarp_against_syncthreads", in_out_call({1, 1, 1}, {32, 1, 1}, b), opts(sched));
    const engine::Diagnostic* d = rep.first(DiagKind::divergent_barrier);
    CAPTURE(rep.summary());
    REQUIRE(d);
    CAPTURE(d->message);
    REQUIRE((!rep.ok && d->thread_a == 0 && d->thread_b == 3 && d->interval == 0 &&
             d->line == fx.line_of("<-- the others' __syncwarp") && d->site_a == fx.at("<-- the others' __syncwarp") &&
             d->site_b == fx.at("<-- lane 3's barrier") && ptxtest::one_line(d->message) &&
             d->message.find("thread (3, 0, 0)") != std::string::npos &&
             d->message.find(fx.at("<-- lane 3's barrier")) != std::string::npos));
}

// ---- 4. endless loops --------------------------------------------------------------------------------
TEST_CASE("a spin-wait that never ends is a timeout: the instruction budget, and the deadline", "[cpu][control]") {
    const bool budget = GENERATE(true, false);
    CAPTURE(budget);
    const auto& fx = control();
    Buffers b(32);
    auto c = in_out_call({1, 1, 1}, {4, 1, 1}, b);
    engine::ExecOptions o = opts(Schedule::reversed);
    if (budget) c.block_instruction_budget = 200000;
    else o.deadline_seconds = 0.2;
    const auto rep = ptxtest::run(fx, "spin_on_flag", c, o);
    const engine::Diagnostic* d = rep.first(DiagKind::timeout);
    CAPTURE(rep.summary());
    REQUIRE(d);
    CAPTURE(d->message);
    // Thread 0 spins in interval 1 while the others wait at the barrier.
    REQUIRE((!rep.ok && d->thread_a == 0 && d->interval == 1 && d->block == engine::Idx3{0, 0, 0} &&
             d->line == fx.line_of("<-- spin") && d->message.find(fx.at("<-- spin")) != std::string::npos &&
             ptxtest::one_line(d->message)));
    if (budget)
        REQUIRE((d->message.find("more than 200000 instructions") != std::string::npos && rep.seconds < 1.0));
    else
        REQUIRE(d->message.find("longer than 0.2 s") != std::string::npos);
}

// ---- 5. the call stack and local memory ---------------------------------------------------------------
TEST_CASE("recursion without an end is a stack overflow naming the function and the line", "[cpu][control]") {
    const auto& fx = control();
    Buffers b(32);
    const auto rep = ptxtest::run(fx, "recursion", in_out_call({2, 1, 1}, {2, 1, 1}, b, {arg(-1)}), opts(Schedule::in_order, false));
    const engine::Diagnostic* d = rep.first(DiagKind::kernel_exception);
    CAPTURE(rep.summary());
    REQUIRE(d);
    CAPTURE(d->message);
    REQUIRE((!rep.ok && d->thread_a == 0 && d->block == engine::Idx3{0, 0, 0} && d->line == fx.line_of("<-- recursion") &&
             d->message.find("stack overflow") != std::string::npos && d->message.find("deep") != std::string::npos &&
             ptxtest::names_all(*d, "deep", fx.at("<-- recursion")) && rep.total(DiagKind::kernel_exception) == 1));
    // A finite depth runs: deep(in, 20) from every thread.
    const auto ok = ptxtest::run(fx, "recursion", in_out_call({1, 1, 1}, {2, 1, 1}, b, {arg(20)}), opts(Schedule::in_order, false));
    CAPTURE(ok.summary());
    REQUIRE((ok.clean() && b.out[0] > 0));
}

TEST_CASE("an 80 KB local array runs, and a local index past its end is out_of_bounds", "[cpu][control]") {
    const auto& fx = control();
    Buffers b(32);
    const auto rep = ptxtest::run(fx, "big_local_array", in_out_call({1, 1, 1}, {4, 1, 1}, b), opts(Schedule::in_order));
    CAPTURE(rep.summary());
    REQUIRE((rep.clean() && b.out[3] == b.in[19999 % 32]));
    for (long long index : {1024LL, 1LL << 20, -1LL}) {
        CAPTURE(index);
        const auto bad =
            ptxtest::run(fx, "local_out_of_range", in_out_call({1, 1, 1}, {4, 1, 1}, b, {arg(index)}), opts(Schedule::in_order));
        const engine::Diagnostic* d = bad.first(DiagKind::out_of_bounds);
        CAPTURE(bad.summary());
        REQUIRE(d);
        CAPTURE(d->message);
        // The depot holds buf[1024] alone: the element is the index.
        REQUIRE((!bad.ok && d->thread_a == 2 && d->line == fx.line_of("<-- local store") && d->array == "local" &&
                 d->elem_size == 4 && element(*d) == index && d->op_a == engine::Op::store &&
                 ptxtest::names_all(*d, "local[" + std::to_string(index) + "]", fx.at("<-- local store"))));
    }
}

// ---- 6. what a GPU refuses ---------------------------------------------------------------------------
TEST_CASE("more than 48 KiB of static shared memory is a diagnostic, and oversized blocks and grids throw",
          "[cpu][control]") {
    const auto& fx = control();
    Buffers b(32);
    const auto rep = ptxtest::run(fx, "too_much_shared", in_out_call({1, 1, 1}, {32, 1, 1}, b), opts());
    const engine::Diagnostic* d = rep.first(DiagKind::kernel_exception);
    CAPTURE(rep.summary());
    REQUIRE(d);
    CAPTURE(d->message);
    REQUIRE((!rep.ok && rep.blocks_run == 0 && d->message.find("too_much_shared declares 49156") != std::string::npos &&
             d->message.find("48 KiB") != std::string::npos && ptxtest::one_line(d->message)));

    const auto why = [&](engine::Idx3 grid, engine::Idx3 block) -> std::string {
        try {
            ptxtest::run(fx, "copy", in_out_call(grid, block, b), opts());
        } catch (const ptx::Error& e) {
            return e.what();
        }
        return "(no error)";
    };
    const std::string big_block = why({1, 1, 1}, {1025, 1, 1}), deep_block = why({1, 1, 1}, {1, 1, 65});
    const std::string tall_grid = why({1, 65536, 1}, {1, 1, 1});
    CAPTURE(big_block, deep_block, tall_grid);
    REQUIRE((big_block.find("1024 threads per block") != std::string::npos &&
             deep_block.find("z at most 64") != std::string::npos && tall_grid.find("65535") != std::string::npos));
    auto backend = stencil::make_backend("cpu", nullptr);
    const auto refused =
        backend->cannot_run({stencil::KernelId::naive, 3, 1, stencil::Precision::f32, {3, 3 * 65536 + 3, 3}});
    CAPTURE(refused.value_or("(none)"));
    REQUIRE((refused && refused->find("at most 2147483647 blocks along x and 65535 along y and z") != std::string::npos));
}

TEST_CASE("an instruction the engine does not run is refused at load, naming it and the source line",
          "[cpu][control]") {
    // Inline PTX that NVRTC passes through as it is: a tensor-core mma, a texture fetch. (NVRTC's
    // .loc names the line where the asm statement ends.)
    const auto [what, body] = GENERATE(table<std::string, std::string>({
        {"mma",
         "    float d0, d1, d2, d3;\n"
         "    const unsigned a = __float_as_uint(in[0]), bb = __float_as_uint(in[1]);\n"
         "    asm volatile(\n"
         "        \"mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};\"\n"
         "        : \"=f\"(d0), \"=f\"(d1), \"=f\"(d2), \"=f\"(d3)\n"
         "        : \"r\"(a), \"r\"(a), \"r\"(bb), \"f\"(0.f), \"f\"(0.f), \"f\"(0.f), \"f\"(0.f));  // <-- unsupported\n"
         "    out[0] = d0 + d1 + d2 + d3;\n"},
        {"tex",
         "    float4 v;\n"
         "    asm volatile(\"tex.1d.v4.f32.s32 {%0, %1, %2, %3}, [%4, {%5}];\"\n"
         "                 : \"=f\"(v.x), \"=f\"(v.y), \"=f\"(v.z), \"=f\"(v.w) : \"l\"(0ull), \"r\"((int)threadIdx.x));  // <-- unsupported\n"
         "    out[threadIdx.x] = v.x + in[threadIdx.x];\n"},
    }));
    CAPTURE(what);
    ptx::CompileRequest req;
    req.name = "unsupported.cu";
    req.source = "// An instruction the CPU engine does not run.\n"
                 "extern \"C\" __global__ void uses_" + what + "(const float* in, float* out) {\n" + body + "}\n";
    const auto compiled = ptx::compile_to_ptx(req);
    INFO(compiled.log);
    REQUIRE(compiled.ok);
    ptxtest::Fixture source;
    source.text = req.source;
    const int line = source.line_of("<-- unsupported");
    REQUIRE(line > 0);
    std::string error = "(no error)";
    try {
        ptx::load(compiled.ptx);
    } catch (const ptx::Error& e) {
        error = e.what();
    }
    CAPTURE(error);
    REQUIRE((error.find("'" + what + ".") != std::string::npos && error.find("not supported") != std::string::npos &&
             error.find("unsupported.cu:" + std::to_string(line)) != std::string::npos && ptxtest::one_line(error)));
}
