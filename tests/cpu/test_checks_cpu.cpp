// The PTX engine's memory checks on small CUDA fixtures with one bug each: shared races (RAW, WAR,
// WAW), shared bounds, __syncwarp, bank conflicts (fixtures/shared_memory.cu); global races within
// a block and between blocks, block orders, the schedule comparison, read-only inputs, global
// bounds through casts and derived pointers, atomics, the cancel hook (fixtures/global_memory.cu).
// Every diagnosis names its kind, block, threads, interval, array, element and source line; the
// line comes from the fixture's marker comment. Each test case compiles one program.
//
// Sections: 1. shared races; 2. shared bounds; 3. __syncwarp; 4. bank conflicts; 5. global races,
// block orders, the schedule comparison; 6. read-only inputs; 7. global bounds through casts and
// derived pointers; 8. atomics; 9. cancel; 10. determinism.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <numeric>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "backends/cpu/cpu_backend.h"
#include "core/field.h"
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

const ptxtest::Fixture& shared_fx() {
    return ptxtest::fixture("shared_memory.cu", {"strided_shared<float, 1>", "strided_shared<float, 2>",
                                                 "strided_shared<float, 32>", "strided_shared<double, 1>",
                                                 "strided_shared<double, 2>", "strided_shared<double, 16>"});
}
const ptxtest::Fixture& global_fx() { return ptxtest::fixture("global_memory.cu"); }


}  // namespace

// ---- 1. shared races ---------------------------------------------------------------------------------
TEST_CASE("shared RAW, WAR and WAW races name both threads, the cell and both lines", "[cpu][checks]") {
    const std::string kernel = GENERATE(as<std::string>{}, "shared_raw", "shared_war", "shared_waw");
    const auto sched = GENERATE(Schedule::in_order, Schedule::reversed, Schedule::random);
    CAPTURE(kernel, engine::to_string(sched));
    const auto& fx = shared_fx();
    Buffers b(32);
    const auto rep = ptxtest::run(fx, kernel, in_out_call({1, 1, 1}, {32, 1, 1}, b), opts(sched));
    CAPTURE(rep.summary());
    const engine::Diagnostic* d = rep.first(DiagKind::race);
    REQUIRE(d);
    CAPTURE(d->message, d->line, d->thread_a, d->thread_b, element(*d));
    const std::string word = kernel.substr(7);  // raw, war, waw
    const int load_line = fx.line_of("<-- " + word + " load"), store_line = fx.line_of("<-- " + word + " store");
    const int line = d->op_a == engine::Op::load ? load_line : store_line;
    const bool shape = rep.ok && d->space == engine::Space::shared && d->block == engine::Idx3{0, 0, 0} &&
                       d->block_b == d->block && d->array == (word == "waw" ? "last" : "s") && d->elem_size == 4 &&
                       d->file == "shared_memory.cu" && d->line == line && line > 0 &&
                       d->interval == (word == "waw" ? 0 : 1) && (d->op_a == engine::Op::store || d->op_b == engine::Op::store) &&
                       d->thread_a != d->thread_b &&
                       ptxtest::names_all(*d, d->array + "[" + std::to_string(element(*d)) + "]",
                                          fx.file + ":" + std::to_string(line));
    REQUIRE(shape);
    // The exact pair (the fixtures say why): the warp runs each instruction for all its lanes, in
    // lane order, or from the last lane reversed; the later access is thread_a's.
    using Exp = std::tuple<engine::Op, int, engine::Op, int, long long>;  // op_a, thread_a, op_b, thread_b, element
    const Exp got{d->op_a, d->thread_a, d->op_b, d->thread_b, element(*d)};
    const auto L = engine::Op::load, S = engine::Op::store;
    if (sched == Schedule::in_order) {
        const Exp want = word == "raw" ? Exp{L, 1, S, 0, 0} : word == "war" ? Exp{S, 0, L, 31, 0} : Exp{S, 1, S, 0, 0};
        REQUIRE(got == want);
    } else if (sched == Schedule::reversed) {
        const Exp want = word == "raw" ? Exp{L, 31, S, 30, 30} : word == "war" ? Exp{S, 31, L, 30, 31} : Exp{S, 30, S, 31, 0};
        REQUIRE(got == want);
    }
    // The other access's line is named too.
    const int other_line = d->op_b == engine::Op::load ? load_line : store_line;
    REQUIRE(d->message.find(fx.file + ":" + std::to_string(other_line)) != std::string::npos);
}

// ---- 2. shared bounds -------------------------------------------------------------------------------
TEST_CASE("a shared index past the end is out_of_bounds, checked or not, under every schedule", "[cpu][checks]") {
    const auto sched = GENERATE(Schedule::in_order, Schedule::reversed, Schedule::random);
    const bool checked = GENERATE(false, true);
    CAPTURE(engine::to_string(sched), checked);
    const auto& fx = shared_fx();
    Buffers b(32);
    const auto rep = ptxtest::run(fx, "shared_read_past_end", in_out_call({1, 1, 1}, {32, 1, 1}, b), opts(sched, checked));
    const engine::Diagnostic* d = rep.first(DiagKind::out_of_bounds);
    CAPTURE(rep.summary());
    REQUIRE(d);
    CAPTURE(d->message);
    // Only thread 31 reads past s[31], after the barrier: interval 1, index 32 of a 32-cell array.
    REQUIRE((!rep.ok && d->space == engine::Space::shared && d->thread_a == 31 && d->interval == 1 &&
             element(*d) == 32 && d->elem_size == 4 && d->array == "s" && d->op_a == engine::Op::load &&
             d->line == fx.line_of("<-- BUG: t = 31 reads s[32]") &&
             ptxtest::names_all(*d, "s[32]", fx.at("<-- BUG: t = 31 reads s[32]")) &&
             d->message.find("valid 0..31") != std::string::npos));
}

TEST_CASE("a far shared store and a negative index are reported before they happen", "[cpu][checks]") {
    const int far = GENERATE(64, 100000);
    CAPTURE(far);
    const auto& fx = shared_fx();
    Buffers b(64);
    const auto rep = ptxtest::run(fx, "shared_write_far", in_out_call({2, 1, 1}, {32, 1, 1}, b, {arg(far)}),
                                  opts(Schedule::in_order, false));
    const engine::Diagnostic* d = rep.first(DiagKind::out_of_bounds);
    const auto rep2 = ptxtest::run(fx, "shared_read_before_start", in_out_call({1, 1, 1}, {64, 1, 1}, b), opts(Schedule::reversed));
    const engine::Diagnostic* e = rep2.first(DiagKind::out_of_bounds);
    CAPTURE(rep.summary(), rep2.summary());
    REQUIRE((d && e));
    CAPTURE(d->message, e->message);
    REQUIRE((!rep.ok && d->thread_a == 7 && d->interval == 1 && element(*d) == 7 + far && d->block == engine::Idx3{0, 0, 0} &&
             d->op_a == engine::Op::store && d->array == "s" && d->line == fx.line_of("<-- BUG: far past the array") &&
             ptxtest::names_all(*d, "s[" + std::to_string(7 + far) + "]", fx.at("<-- BUG: far past the array"))));
    REQUIRE((!rep2.ok && e->thread_a == 0 && e->interval == 1 && element(*e) == -1 && e->array == "s" &&
             e->line == fx.line_of("<-- BUG: s[0][-1]") && ptxtest::names_all(*e, "s[-1]", fx.at("<-- BUG: s[0][-1]"))));
    // Shared memory outside the array was never touched: the output holds what the kernel stored.
    REQUIRE(std::count(b.out.begin(), b.out.end(), -1.0f) == 64);
}

// ---- 3. __syncwarp ---------------------------------------------------------------------------------
TEST_CASE("__syncwarp orders the lanes of a warp: a warp reduction is exact and race-free", "[cpu][checks]") {
    const auto sched = GENERATE(Schedule::in_order, Schedule::reversed, Schedule::random);
    CAPTURE(engine::to_string(sched));
    const auto& fx = shared_fx();
    Buffers b(64, 0.0f);
    const auto rep = ptxtest::run(fx, "warp_sum", in_out_call({1, 1, 1}, {64, 1, 1}, b), opts(sched));
    CAPTURE(rep.summary());
    // in[i] = i + 1: warp 0 sums 1..32, warp 1 sums 33..64.
    REQUIRE((rep.clean() && b.out[0] == 528.0f && b.out[1] == 1552.0f));
    // Without the __syncwarp() calls, the lanes of a warp race on the cells of the step.
    const auto bad = ptxtest::run(fx, "warp_sum_unsynced", in_out_call({1, 1, 1}, {64, 1, 1}, b), opts(sched));
    const engine::Diagnostic* d = bad.first(DiagKind::race);
    CAPTURE(bad.summary());
    REQUIRE((d && d->interval == 1 && d->array == "s" && d->line == fx.line_of("<-- unsynced step") &&
             d->thread_a / 32 == d->thread_b / 32));
}

// ---- 4. bank conflicts ------------------------------------------------------------------------------
TEST_CASE("bank conflict degree: fp32 one pass of 32 lanes, fp64 two half-warp passes", "[cpu][checks]") {
    // (bytes, stride in elements, degree): fp32 stride s hits gcd-many banks; fp64 in half-warps.
    const auto [bytes, stride, expected] =
        GENERATE(table<int, int, int>({{4, 1, 1}, {4, 2, 2}, {4, 32, 32}, {8, 1, 1}, {8, 2, 2}, {8, 16, 16}}));
    CAPTURE(bytes, stride);
    const auto& fx = shared_fx();
    std::vector<double> in(32, 1.0), out(32);  // (room for 32 of either precision)
    ptxtest::Call c;
    c.block = {32, 1, 1};
    c.buffers = {ptxtest::input(in), ptxtest::output(out)};
    c.params = {ptr(0), ptr(1)};
    engine::ExecOptions o;
    o.workers = 1;
    o.trace.records = engine::TraceMode::all;
    const std::string kernel =
        std::string("strided_shared<") + (bytes == 4 ? "float, " : "double, ") + std::to_string(stride) + ">";
    const auto rep = ptxtest::run(fx, kernel, c, o);
    int got = -1, loads = 0;
    for (const auto& r : engine::warp_requests(rep.trace))
        if (r.space == engine::Space::shared && r.op == engine::Op::load) got = r.bank_degree, ++loads;
    CAPTURE(rep.summary(), loads);
    REQUIRE((rep.clean() && loads == 1 && got == expected));
}

// ---- 5. global races, block orders, the schedule comparison ----------------------------------------
TEST_CASE("a global read of a neighbour's cell without a barrier is a race on 'out'", "[cpu][checks]") {
    const auto sched = GENERATE(Schedule::in_order, Schedule::reversed, Schedule::random);
    CAPTURE(engine::to_string(sched));
    const auto& fx = global_fx();
    const int n = 32;
    Buffers b(2 * n);
    const auto rep = ptxtest::run(fx, "global_neighbour", in_out_call({1, 1, 1}, {n, 1, 1}, b, {arg(n)}), opts(sched));
    const engine::Diagnostic* d = rep.first(DiagKind::race);
    CAPTURE(rep.summary());
    REQUIRE(d);
    CAPTURE(d->message);
    // The pair is (loader t, storer t + 1 mod n) on element t + 1, whichever ran first.
    const int loader = ptxtest::loader(*d), storer = ptxtest::storer(*d);
    const int line = fx.line_of(d->op_a == engine::Op::load ? "<-- neighbour load" : "<-- neighbour store");
    REQUIRE((d->space == engine::Space::global && d->array == "out" && d->interval == 0 && d->block == d->block_b &&
             storer == (loader + 1) % n && element(*d) == storer && rep.total(DiagKind::race) == n && d->line == line &&
             ptxtest::names_all(*d, "out[" + std::to_string(storer) + "]", fx.file + ":" + std::to_string(line))));
    // In order, the warp's stores all come before its loads: thread 0 loads out[1] after thread 1
    // stored it.
    if (sched == Schedule::in_order)
        REQUIRE((d->op_a == engine::Op::load && d->thread_a == 0 && d->thread_b == 1 &&
                 d->message.find(fx.at("<-- neighbour store")) != std::string::npos));
}

TEST_CASE("blocks reading each other's output race under every block order", "[cpu][checks]") {
    const auto order = GENERATE(engine::BlockOrder::in_order, engine::BlockOrder::reversed, engine::BlockOrder::random);
    const int workers = GENERATE(1, 2);
    CAPTURE(engine::to_string(order), workers);
    const auto& fx = global_fx();
    const int n = 64;
    Buffers b(2 * n);
    engine::ExecOptions o = opts(Schedule::in_order, true, workers);
    o.block_order = order;
    const auto rep = ptxtest::run(fx, "global_previous_block", in_out_call({2, 1, 1}, {32, 1, 1}, b, {arg(n)}), o);
    const engine::Diagnostic* d = rep.first(DiagKind::race);
    CAPTURE(rep.summary());
    REQUIRE(d);
    CAPTURE(d->message);
    // Block 1's thread t loads element t, which block 0's thread t stores.
    const bool a_loads = d->op_a == engine::Op::load;
    const engine::Idx3 loader = a_loads ? d->block : d->block_b, storer = a_loads ? d->block_b : d->block;
    REQUIRE((d->array == "out" && loader == engine::Idx3{1, 0, 0} && storer == engine::Idx3{0, 0, 0} &&
             d->thread_a == d->thread_b && element(*d) == d->thread_a && rep.total(DiagKind::race) == 32 &&
             d->line == fx.line_of(a_loads ? "<-- previous-block load" : "<-- previous-block store") &&
             d->message.find("between blocks") != std::string::npos && ptxtest::one_line(d->message)));
    // One worker: the order is known, and so is which access comes second.
    if (workers == 1 && order != engine::BlockOrder::random)
        REQUIRE(a_loads == (order == engine::BlockOrder::in_order));
}

TEST_CASE("two blocks storing one cell race, and a barrier between a write and a read does not", "[cpu][checks]") {
    const auto& fx = global_fx();
    Buffers b(64);
    const auto ww = ptxtest::run(fx, "global_same_cell", in_out_call({3, 1, 1}, {32, 1, 1}, b), opts(Schedule::in_order));
    const auto ok = ptxtest::run(fx, "global_with_barrier", in_out_call({1, 1, 1}, {32, 1, 1}, b, {arg(32)}), opts(Schedule::reversed));
    const engine::Diagnostic* d = ww.first(DiagKind::race);
    CAPTURE(ww.summary(), ok.summary());
    REQUIRE((d && d->op_a == engine::Op::store && d->op_b == engine::Op::store && element(*d) == 0 && d->array == "out" &&
             d->block == engine::Idx3{1, 0, 0} && d->block_b == engine::Idx3{0, 0, 0} && d->thread_a == 0 && d->thread_b == 0 &&
             d->line == fx.line_of("<-- same-cell store") && ww.total(DiagKind::race) == 2 && ok.clean()));
}

TEST_CASE("block orders: workers take blocks in that order, each block once", "[cpu][checks]") {
    const auto order = GENERATE(engine::BlockOrder::in_order, engine::BlockOrder::reversed, engine::BlockOrder::random);
    CAPTURE(engine::to_string(order));
    const auto& fx = global_fx();
    std::vector<float> out(1);
    auto run = [&] {
        engine::ExecOptions o;
        o.workers = 1;
        o.block_order = order;
        o.seed = 9;
        o.trace.records = engine::TraceMode::all;
        ptxtest::Call c;
        c.grid = {5, 2, 1};
        c.buffers = {ptxtest::output(out, "out", 0)};
        c.params = {ptr(0)};
        const auto rep = ptxtest::run(fx, "mark_block", c, o);
        std::vector<int> blocks;
        for (const auto& a : rep.trace) blocks.push_back(a.block);
        return blocks;
    };
    const std::vector<int> first = run(), again = run();
    std::vector<int> expected(10);
    std::iota(expected.begin(), expected.end(), 0);
    if (order == engine::BlockOrder::reversed) std::reverse(expected.begin(), expected.end());
    std::vector<int> sorted = first;
    std::sort(sorted.begin(), sorted.end());
    const bool as_expected = order == engine::BlockOrder::random ? first != sorted : first == expected;
    CAPTURE(first);
    REQUIRE((as_expected && first == again && sorted == std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
}

TEST_CASE("the schedule comparison names the first cell where dependent blocks differ", "[cpu][checks]") {
    const auto& fx = global_fx();
    const int n = 64;
    Buffers b(2 * n);
    const std::vector<float> initial(2 * n, -1.0f);
    const stencil::OutputLaunch launch = [&](const engine::ExecOptions& o, void* out) {
        ptxtest::Call c = in_out_call({2, 1, 1}, {32, 1, 1}, b, {arg(n)});
        c.buffers[1] = {out, 2 * n * sizeof(float), 1, "out", false};
        return ptxtest::run(fx, "global_previous_block", c, o);
    };
    stencil::CpuOptions o;
    o.exec.workers = 1;
    const auto chk = stencil::schedule_check_launch(launch, {2 * n, 1, 1}, stencil::Precision::f32, initial.data(), o, 1);
    CAPTURE(chk.summary());
    REQUIRE(chk.first_difference);
    // Blocks in order: block 0 wrote out[0] = in[0] before block 1 copied it to out[n + 32];
    // blocks reversed (run 1): block 1 copied the initial -1.
    const auto& d = *chk.first_difference;
    REQUIRE((!chk.ok && d.x == n + 32 && d.y == 0 && d.run_b == 1 && d.value_a == b.in[0] && d.value_b == -1.0 &&
             chk.differing_cells >= 32 && chk.runs[1].block_order == engine::BlockOrder::reversed &&
             chk.runs[0].report.total(DiagKind::race) == 32));
}

// ---- 6. read-only inputs -----------------------------------------------------------------------------
TEST_CASE("a store to the read-only input, through a cast, is input_write and does not happen", "[cpu][checks]") {
    const auto sched = GENERATE(Schedule::in_order, Schedule::reversed, Schedule::random);
    const bool checked = GENERATE(false, true);
    CAPTURE(engine::to_string(sched), checked);
    const auto& fx = global_fx();
    Buffers b(32);
    const auto rep = ptxtest::run(fx, "writes_its_input", in_out_call({1, 1, 1}, {32, 1, 1}, b), opts(sched, checked));
    const engine::Diagnostic* d = rep.first(DiagKind::input_write);
    CAPTURE(rep.summary());
    REQUIRE(d);
    CAPTURE(d->message);
    REQUIRE((!rep.ok && d->array == "in" && d->thread_a == 5 && d->interval == 0 && element(*d) == 5 &&
             d->op_a == engine::Op::store && d->line == fx.line_of("<-- input store") &&
             ptxtest::names_all(*d, "in[5]", fx.at("<-- input store")) && b.in[5] == 6.0f &&
             std::string(engine::to_string(DiagKind::input_write)) == "input write"));
    // Undone right after (through an int alias): still the store, and the input is untouched.
    const auto rep2 = ptxtest::run(fx, "writes_and_restores_input", in_out_call({1, 1, 1}, {32, 1, 1}, b), opts(sched, checked));
    const engine::Diagnostic* e = rep2.first(DiagKind::input_write);
    CAPTURE(rep2.summary());
    REQUIRE(e);
    REQUIRE((!rep2.ok && e->array == "in" && e->thread_a == 9 && element(*e) == 9 && e->elem_size == 4 &&
             e->line == fx.line_of("<-- restored store") && rep2.total(DiagKind::input_write) == 1 && b.in[9] == 10.0f));
}

// ---- 7. global bounds through casts and derived pointers ---------------------------------------------
TEST_CASE("global out of bounds through a byte alias, an int alias and a derived pointer", "[cpu][checks]") {
    const bool checked = GENERATE(false, true);
    CAPTURE(checked);
    const auto& fx = global_fx();
    Buffers b(32);
    const auto rd = ptxtest::run(fx, "alias_read_past_end", in_out_call({1, 1, 1}, {32, 1, 1}, b, {arg(32)}), opts(Schedule::in_order, checked));
    const auto wr = ptxtest::run(fx, "alias_write_past_end", in_out_call({1, 1, 1}, {32, 1, 1}, b, {arg(32)}), opts(Schedule::reversed, checked));
    Buffers small(4, 0.0f);
    const auto dv = ptxtest::run(fx, "derived_past_end", in_out_call({1, 1, 1}, {1, 1, 1}, small), opts(Schedule::in_order, checked));
    const engine::Diagnostic* r = rd.first(DiagKind::out_of_bounds);
    const engine::Diagnostic* w = wr.first(DiagKind::out_of_bounds);
    const engine::Diagnostic* v = dv.first(DiagKind::out_of_bounds);
    CAPTURE(rd.summary(), wr.summary(), dv.summary());
    REQUIRE((r && w && v));
    // Byte 4n of `in` (a char load: the element is the byte), thread 0 first.
    REQUIRE((!rd.ok && r->array == "in" && r->thread_a == 0 && r->elem_size == 1 && element(*r) == 128 &&
             r->op_a == engine::Op::load && r->line == fx.line_of("<-- byte read") &&
             ptxtest::names_all(*r, "in[128]", fx.at("<-- byte read"))));
    // out[n + 3] as an int, whatever the schedule: only thread 3 stores there.
    REQUIRE((!wr.ok && w->array == "out" && w->thread_a == 3 && w->elem_size == 4 && element(*w) == 35 &&
             w->op_a == engine::Op::store && w->line == fx.line_of("<-- word write") &&
             ptxtest::names_all(*w, "out[35]", fx.at("<-- word write"))));
    // &out[2] + 1, index 1: out[4] of 4; the store before it happened, this one did not.
    REQUIRE((!dv.ok && v->array == "out" && element(*v) == 4 && v->line == fx.line_of("<-- derived store") &&
             small.out == std::vector<float>{0, 0, 0, 1}));
}

// ---- 8. atomics ------------------------------------------------------------------------------------
TEST_CASE("shared and global atomics are exact and race-free", "[cpu][checks]") {
    const auto sched = GENERATE(Schedule::random, Schedule::reversed);
    const auto& fx = global_fx();
    std::vector<float> in(1000), out(5, 0.0f);
    int positive = 0, by_lane[4] = {};
    for (int i = 0; i < 1000; ++i)
        if ((in[i] = float(i * 37 % 11) - 5.0f) > 0) ++positive, ++by_lane[i % 4];
    ptxtest::Call c;
    c.grid = {8, 1, 1};
    c.block = {128, 1, 1};
    c.buffers = {ptxtest::input(in), ptxtest::output(out)};
    c.params = {ptr(0), ptr(1), arg(1000)};
    const auto rep = ptxtest::run(fx, "histogram", c, opts(sched, true, 2));
    CAPTURE(rep.summary());
    int counts[4];
    std::memcpy(counts, out.data() + 1, sizeof counts);
    REQUIRE((rep.clean() && out[0] == (float)positive && counts[0] == by_lane[0] && counts[1] == by_lane[1] &&
             counts[2] == by_lane[2] && counts[3] == by_lane[3]));
}

// ---- 9. cancel -------------------------------------------------------------------------------------
TEST_CASE("cancel: a big launch, and a single long block, stop within 0.5 s", "[cpu][checks][cancel]") {
    const bool single = GENERATE(false, true);
    const bool traced = GENERATE(false, true);
    CAPTURE(single, traced);
    const auto& fx = global_fx();
    std::atomic<bool> cancel{false};
    engine::ExecOptions o;
    o.workers = single ? 1 : 2;
    o.cancel = &cancel;
    o.trace.count = traced;
    std::vector<float> buf(1 << 20, 1.0f);
    ptxtest::Call c;
    // 65536 blocks x 256 threads, each thread 64 loads: minutes when run to the end; or one block
    // of 1024 threads looping 2e8 times each.
    c.grid = single ? engine::Idx3{1, 1, 1} : engine::Idx3{256, 256, 1};
    c.block = single ? engine::Idx3{1024, 1, 1} : engine::Idx3{256, 1, 1};
    c.buffers = {ptxtest::output(buf, "buf", 0)};
    c.params = {ptr(0)};
    std::thread t([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        cancel = true;
    });
    const auto t0 = std::chrono::steady_clock::now();
    const auto rep = ptxtest::run(fx, single ? "long_block" : "many_blocks", c, o);
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    t.join();
    CHECK(rep.cancelled);
    CHECK_FALSE(rep.ok);
    CHECK(rep.diagnostics.empty());
    if (!single) CHECK(rep.blocks_run < 65536);
    CHECK(secs < 0.6);  // 0.1 s before the cancel + at most 0.5 s to stop
    CHECK(rep.summary().rfind("cancelled", 0) == 0);
}

// ---- 10. determinism ---------------------------------------------------------------------------------
TEST_CASE("a truncated trace holds the same records whatever the worker timing", "[cpu][checks]") {
    using namespace stencil;
    const GridDims d{40, 40, 40};
    const auto in = random_field<float>(d, 1);
    std::vector<std::vector<std::tuple<int, int, int, int, long long>>> traces;
    for (int rep = 0; rep < 4; ++rep) {
        auto out = poisoned_output(in, 1);
        CpuOptions o;
        o.exec.workers = 2;
        o.exec.trace.records = engine::TraceMode::all;
        o.exec.trace.max_records = 200000;
        auto r = run_cpu({KernelId::tiled, 8, 1, Precision::f32, d}, laplacian_weights(1), in.data.data(), out.data.data(), o);
        std::vector<std::tuple<int, int, int, int, long long>> t;
        for (const auto& a : r.report.trace) t.emplace_back(a.block, a.thread, a.site, a.interval, a.offset);
        if (!r.report.trace_truncated) t.clear();
        traces.push_back(std::move(t));
    }
    REQUIRE((traces[0].size() == 200000 && traces[0] == traces[1] && traces[0] == traces[2] && traces[0] == traces[3]));
}
