// What a GPU does that the PTX engine must do too (fixtures/gpu_semantics.cu): the PTX memory
// model's orderings and nothing more, the device runtime's malloc/free, function pointers,
// addresses in initialisers, isspacep, printf's `*`, the launch limits, state kept between
// launches, and what a GPU leaves unspecified varied rather than fixed.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstring>
#include <numeric>

#include "tests/cpu/ptx_test_support.h"

using ptxtest::arg;
using ptxtest::ptr;
using engine::DiagKind;
using engine::Schedule;

namespace {

const ptxtest::Fixture& fx() {
    return ptxtest::fixture("gpu_semantics.cu",
                            {"flag_handoff<true>", "flag_handoff<false>", "last_block_sum<true>", "last_block_sum<false>",
                             "syncwarp_mask<true>", "syncwarp_mask<false>", "heap<0>", "heap<1>", "heap<2>", "heap<3>",
                             "spin_handoff<true>", "spin_handoff<false>"});
}

// in = 1, 2, 3, ... (n values), out (m values) filled with -1
struct Arrays {
    std::vector<float> in, out;
    Arrays(int n, int m) : in(n), out(m, -1.0f) { std::iota(in.begin(), in.end(), 1.0f); }
};

ptxtest::Call call(engine::Idx3 grid, engine::Idx3 block, Arrays& a, std::vector<std::uint64_t> extra = {}) {
    ptxtest::Call c;
    c.grid = grid;
    c.block = block;
    c.buffers = {ptxtest::input(a.in), ptxtest::output(a.out)};
    c.params = {ptr(0), ptr(1)};
    c.params.insert(c.params.end(), extra.begin(), extra.end());
    return c;
}

engine::ExecReport run(const std::string& kernel, const ptxtest::Call& c, Schedule s = Schedule::in_order,
                     bool checked = true, int workers = 1) {
    return ptxtest::run(fx(), kernel, c, ptxtest::opts(s, checked, workers));
}

}  // namespace

// ---- the memory model ---------------------------------------------------------------------------
TEST_CASE("a flag hand-off with fences is ordered; without them the data races", "[cpu][memory-model]") {
    const auto sched = GENERATE(Schedule::in_order, Schedule::reversed, Schedule::random);
    CAPTURE(engine::to_string(sched));
    Arrays good(32, 1), bad(32, 1);
    const auto fenced = run("flag_handoff<true>", call({1, 1, 1}, {64, 1, 1}, good), sched);
    CAPTURE(fenced.summary());
    REQUIRE((fenced.clean() && good.out[0] == 528.0f));
    const auto unfenced = run("flag_handoff<false>", call({1, 1, 1}, {64, 1, 1}, bad), sched);
    CAPTURE(unfenced.summary());
    const engine::Diagnostic* d = unfenced.first(DiagKind::race);
    REQUIRE(d);
    const bool lines = d->line == fx().line_of("<-- handoff load") || d->line == fx().line_of("<-- handoff store");
    REQUIRE((d->space == engine::Space::shared && d->array == "data" && lines));
}

TEST_CASE("the Programming Guide's last-block sum is ordered by its fence; without it, a race", "[cpu][memory-model]") {
    const int blocks = 12, n = 32 * blocks;
    const int workers = GENERATE(1, 2);
    const auto order = GENERATE(engine::BlockOrder::in_order, engine::BlockOrder::reversed, engine::BlockOrder::random);
    CAPTURE(workers, engine::to_string(order));
    ptx::DeviceState state(*fx().module);  // blocks_done, reset by the last block, carried over
    for (const bool fence : {true, false}) {
        Arrays a(n, 1 + blocks);
        ptx::Launch l = ptxtest::launch_of(fx(), fence ? "last_block_sum<true>" : "last_block_sum<false>",
                                           call({blocks, 1, 1}, {32, 1, 1}, a, {arg(n)}));
        l.state = &state;
        engine::ExecOptions o = ptxtest::opts(Schedule::in_order, true, workers);
        o.block_order = order;
        const auto rep = ptx::run(*fx().module, l, o);
        CAPTURE(fence, rep.summary());
        REQUIRE(a.out[0] == float(n) * (n + 1) / 2);
        if (fence) {
            REQUIRE(rep.clean());
        } else {
            const engine::Diagnostic* d = rep.first(DiagKind::race);
            REQUIRE(d);
            REQUIRE((d->space == engine::Space::global && d->array == "out" &&
                     (d->line == fx().line_of("<-- partial load") || d->line == fx().line_of("<-- partial store"))));
        }
    }
}

TEST_CASE("__syncwarp orders the lanes of its mask and no others", "[cpu][memory-model]") {
    Arrays whole(32, 32), halves(32, 32);
    const auto ok = run("syncwarp_mask<true>", call({1, 1, 1}, {32, 1, 1}, whole));
    CAPTURE(ok.summary());
    REQUIRE((ok.clean() && whole.out[16] == 1.0f && whole.out[31] == 16.0f));
    const auto racy = run("syncwarp_mask<false>", call({1, 1, 1}, {32, 1, 1}, halves));
    CAPTURE(racy.summary());
    const engine::Diagnostic* d = racy.first(DiagKind::race);
    REQUIRE(d);
    REQUIRE((d->array == "data" && d->line == fx().line_of("<-- syncwarp load") && d->thread_a == 16 && d->thread_b == 0));
}

// ---- valid CUDA ---------------------------------------------------------------------------------
TEST_CASE("device malloc and free run; misuse of the heap is named", "[cpu][heap]") {
    Arrays a(64, 64);
    // Asked for two workers, a kernel that may use the heap runs its blocks on one (launch.cpp:
    // the heap's lock would be taken at every access); one without calls to malloc keeps two.
    const auto rep = run("heap<0>", call({2, 1, 1}, {32, 1, 1}, a), Schedule::in_order, true, 2);
    CAPTURE(rep.summary());
    REQUIRE((rep.clean() && a.out[0] == 10.0f && a.out[63] == 640.0f));
    REQUIRE(rep.workers == 1);
    Arrays plain(64, 64);
    REQUIRE(run("approximate", call({2, 1, 1}, {32, 1, 1}, plain), Schedule::in_order, true, 2).workers == 2);
    struct Misuse {
        const char* kernel;
        DiagKind kind;
        const char* marker;
        const char* words;
    };
    const Misuse m = GENERATE(Misuse{"heap<1>", DiagKind::out_of_bounds, "<-- heap past the end", "has 4 elements"},
                              Misuse{"heap<2>", DiagKind::out_of_bounds, "<-- heap after free", "after that allocation was freed"},
                              Misuse{"heap<3>", DiagKind::kernel_exception, "<-- heap double free", "double free"});
    CAPTURE(m.kernel);
    Arrays b(32, 32);
    const auto bad = run(m.kernel, call({1, 1, 1}, {32, 1, 1}, b));
    const engine::Diagnostic* d = bad.first(m.kind);
    CAPTURE(bad.summary());
    REQUIRE(d);
    CAPTURE(d->message);
    REQUIRE((!bad.ok && d->line == fx().line_of(m.marker) && d->message.find(m.words) != std::string::npos));
}

TEST_CASE("calls through function pointers and initialisers holding addresses run", "[cpu][compat]") {
    Arrays a(32, 32);
    const auto rep = run("pointers", call({1, 1, 1}, {32, 1, 1}, a), Schedule::in_order, false);
    CAPTURE(rep.summary());
    REQUIRE(rep.clean());
    for (int t = 0; t < 32; ++t) {
        CAPTURE(t);
        // lanes t and t + 4k share a table slot: the last lane of the warp to store it wins
        const float stored = float((t & 3) + 28 + 1);
        REQUIRE(a.out[t] == float(t + 1) * ((t & 1) ? 3.0f : 2.0f) + stored);
    }
}

TEST_CASE("isspacep tells the spaces of generic pointers apart", "[cpu][compat]") {
    Arrays a(4, 4);
    const auto rep = run("spaces", call({1, 1, 1}, {1, 1, 1}, a), Schedule::in_order, false);
    CAPTURE(rep.summary());
    REQUIRE((rep.clean() && a.out == std::vector<float>{1, 2, 3, 4}));
}

TEST_CASE("printf takes `*` widths and precisions from its arguments", "[cpu][compat]") {
    Arrays a(1, 1);
    std::string text;
    auto c = call({1, 1, 1}, {1, 1, 1}, a);
    c.printf_output = &text;
    const auto rep = run("printf_star", c, Schedule::in_order, false);
    CAPTURE(rep.summary());
    REQUIRE((rep.clean() && text == "[   42|3.14    |abc]\n"));
}

TEST_CASE("a warp whose poll sees no change yields: a spinning consumer costs little beside its producer",
          "[cpu][memory-model]") {
    const auto sched = GENERATE(Schedule::in_order, Schedule::reversed, Schedule::random);
    CAPTURE(engine::to_string(sched));
    Arrays quiet(4096, 1), spinning(4096, 1);
    const auto alone = run("spin_handoff<false>", call({1, 1, 1}, {64, 1, 1}, quiet, {arg(4096)}), sched);
    const auto polled = run("spin_handoff<true>", call({1, 1, 1}, {64, 1, 1}, spinning, {arg(4096)}), sched);
    CAPTURE(alone.summary(), polled.summary(), alone.instructions, polled.instructions);
    // the sum of 1..4096, exact in float up to 2^24
    REQUIRE((alone.clean() && polled.clean() && quiet.out[0] == 8390656.0f && spinning.out[0] == 8390656.0f));
    // a warp polling for its whole quantum while the producer runs would cost some 30 times the
    // producer's instructions (32 lanes x 1024 a round); yielding, a few per round
    CHECK(polled.instructions < 2 * alone.instructions);
}

TEST_CASE("what printf reads to format its output is not counted as the kernel's global loads", "[cpu][compat]") {
    const bool checked = GENERATE(false, true);
    Arrays a(64, 64);
    std::string text;
    auto c = call({2, 1, 1}, {32, 1, 1}, a);
    c.printf_output = &text;
    engine::ExecOptions o = ptxtest::opts(Schedule::in_order, checked);
    o.trace.count = true;
    const auto rep = ptxtest::run(fx(), "printf_loads", c, o);
    CAPTURE(rep.summary(), rep.counts.global_loads, text);
    // 64 threads, one float each; the two printfs read some 90 bytes of strings each besides
    REQUIRE((rep.clean() && a.out == a.in && text.find("block 1 of a kernel") != std::string::npos &&
             rep.counts.global_loads == 64 && rep.counts.global_load_bytes == 64 * 4));
}

// ---- the GPU's limits ---------------------------------------------------------------------------
TEST_CASE("a launch past __launch_bounds__ or the register file never starts, and says why in numbers",
          "[cpu][limits]") {
    Arrays a(128, 128);
    REQUIRE(run("bounded", call({1, 1, 1}, {64, 1, 1}, a)).clean());
    const auto over = run("bounded", call({1, 1, 1}, {128, 1, 1}, a));
    CAPTURE(over.summary());
    REQUIRE((!over.ok && over.blocks_run == 0 && over.first(DiagKind::kernel_exception) &&
             over.first(DiagKind::kernel_exception)->message.find("at most 64 threads per block") != std::string::npos));

    // 128 registers a thread: 16 warps of 4096 fill the 65536 exactly; 136 (as 130 rounds up) do not.
    for (const int regs : {128, 130}) {
        Arrays b(512, 1024);
        ptx::Launch l = ptxtest::launch_of(fx(), "read_clock", call({1, 1, 1}, {512, 1, 1}, b));
        l.limits.registers = {{l.entry, regs}};
        const auto rep = ptx::run(*fx().module, l, ptxtest::opts(Schedule::in_order, false));
        CAPTURE(regs, rep.summary());
        if (regs == 128) REQUIRE(rep.ok);
        else REQUIRE((!rep.ok && rep.first(DiagKind::kernel_exception)->message.find("69632") != std::string::npos));
    }
}

TEST_CASE("recursion against the GPU's per-thread stack: a shallow one runs, a deep one overflows", "[cpu][limits]") {
    for (const int n : {4, 200}) {
        Arrays a(1, 1);
        ptx::Launch l = ptxtest::launch_of(fx(), "recursion", call({1, 1, 1}, {1, 1, 1}, a, {arg(n)}));
        l.limits.frame_bytes = {{"_Z5depthi", 32}};  // the frame ptxas gives it (a test's figure)
        const auto rep = ptx::run(*fx().module, l, ptxtest::opts(Schedule::in_order, false));
        CAPTURE(n, rep.summary());
        if (n == 4) {
            REQUIRE((rep.ok && a.out[0] == 5.0f));
        } else {
            const engine::Diagnostic* d = rep.first(DiagKind::kernel_exception);
            REQUIRE(d);
            CAPTURE(d->message);
            REQUIRE((d->line == fx().line_of("<-- recursion") && d->message.find("1024 bytes") != std::string::npos));
        }
    }
}

// ---- state between launches ---------------------------------------------------------------------
TEST_CASE("__device__ variables keep their values between launches on one DeviceState", "[cpu][state]") {
    ptx::DeviceState state(*fx().module);
    for (int k = 0; k < 3; ++k) {
        Arrays a(1, 1);
        ptx::Launch l = ptxtest::launch_of(fx(), "count_launches", call({1, 1, 1}, {32, 1, 1}, a));
        l.state = &state;
        std::vector<unsigned char> before = state.globals();
        REQUIRE(ptx::run(*fx().module, l, ptxtest::opts()).clean());
        CAPTURE(k);
        REQUIRE(a.out[0] == 1.0f + float(k));
        REQUIRE(state.changed_variables(before) == std::vector<std::string>{"launches"});
    }
    Arrays fresh(1, 1);  // without a DeviceState, a launch starts from the module's initial values
    REQUIRE(ptx::run(*fx().module, ptxtest::launch_of(fx(), "count_launches", call({1, 1, 1}, {32, 1, 1}, fresh)),
                     ptxtest::opts())
                .clean());
    REQUIRE(fresh.out[0] == 1.0f);
}

// ---- what the GPU leaves unspecified --------------------------------------------------------------
TEST_CASE("explored runs vary shared memory's first bytes, the clocks and approximate results", "[cpu][explore]") {
    auto launch = [&](const std::string& kernel, Arrays& a, bool explore, std::uint64_t seed, Schedule s = Schedule::in_order) {
        ptx::Launch l = ptxtest::launch_of(fx(), kernel, call({1, 1, 1}, {32, 1, 1}, a));
        l.explore.seed = seed;
        l.explore.clock_stride = 1;
        if (explore) {
            l.explore.shared_init = ptx::Explore::SharedInit::random;
            l.explore.clock_stride = 3;
            l.explore.clock_jitter = true;
            l.explore.perturb_approx = true;
        }
        return ptx::run(*fx().module, l, ptxtest::opts(s, false));
    };
    SECTION("shared memory: 0xFF bytes, or random bytes from the seed") {
        Arrays fixed(1, 32), random1(1, 32), random2(1, 32);
        launch("read_unwritten_shared", fixed, false, 1);
        launch("read_unwritten_shared", random1, true, 1);
        launch("read_unwritten_shared", random2, true, 2);
        REQUIRE(std::isnan(fixed.out[0]));
        REQUIRE(std::memcmp(random1.out.data(), random2.out.data(), 32 * sizeof(float)) != 0);
    }
    SECTION("clocks: monotone, and at another stride when explored") {
        Arrays plain(32, 64), explored(32, 64);
        const auto r1 = launch("read_clock", plain, false, 1);
        const auto r2 = launch("read_clock", explored, true, 1);
        REQUIRE((r1.clock_reads == 64 && r2.clock_reads == 64));
        REQUIRE((plain.out[32] > 0 && explored.out[32] == 3 * plain.out[32]));
    }
    SECTION("approximate results: within one ulp of the exact one, and some moved") {
        Arrays exact(32, 32), moved(32, 32);
        for (int k = 0; k < 32; ++k) exact.in[(size_t)k] = moved.in[(size_t)k] = 0.1f * float(k) - 1.3f;
        const auto r = launch("approximate", exact, false, 1);
        launch("approximate", moved, true, 7);
        REQUIRE(r.approximate_results == 32);
        int differ = 0;
        for (int k = 0; k < 32; ++k) {
            const auto a = std::bit_cast<std::int32_t>(exact.out[(size_t)k]), b = std::bit_cast<std::int32_t>(moved.out[(size_t)k]);
            REQUIRE(std::abs(a - b) <= 1);
            differ += a != b;
        }
        REQUIRE(differ > 0);
    }
    SECTION("a warp's atomics apply in the schedule's lane order") {
        Arrays in_order(1, 33), reversed(1, 33);
        in_order.out[0] = reversed.out[0] = 0;
        std::memset(in_order.out.data(), 0, sizeof(float));
        std::memset(reversed.out.data(), 0, sizeof(float));
        launch("atomic_order", in_order, false, 1, Schedule::in_order);
        launch("atomic_order", reversed, false, 1, Schedule::reversed);
        REQUIRE((in_order.out[1] == 0.0f && in_order.out[32] == 31.0f));
        REQUIRE((reversed.out[1] == 31.0f && reversed.out[32] == 0.0f));
    }
}
