// The checks beyond the lab's fixtures: shared bounds, global races and block orders, read-only
// inputs, the deadline, stack overflow, __syncwarp, barrier call sites, launch limits, bank
// conflicts, and determinism. Each kernel here is a few lines with one bug; the expected diagnosis
// is derived from its geometry.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <string>
#include <tuple>
#include <vector>

#include "backends/cpu/cpu_backend.h"
#include "core/field.h"
#include "kernels/device_compat.h"

using simt::DiagKind;
using simt::Schedule;

namespace {

simt::ExecOptions opts(Schedule s, bool checked = true, int workers = 1) {
    simt::ExecOptions o;
    o.schedule = s;
    o.check_shared = checked;
    o.workers = workers;
    return o;
}
long long element(const simt::Diagnostic& d) { return d.elem_size > 0 ? d.offset / d.elem_size : -1; }

struct Buffers {
    std::vector<float> in, out;
    simt::GlobalPtr<const float> pin;
    simt::GlobalPtr<float> pout;
    explicit Buffers(int n, float fill = -1.0f) : in(n), out(n, fill) {
        std::iota(in.begin(), in.end(), 1.0f);
        pin = {in.data(), n, 0, "in", true};
        pout = {out.data(), n, 1, "out"};
    }
};

// ---- kernels with one bug each -------------------------------------------------------------------
template <typename In, typename Out>
__global__ void shared_read_past_end(In in, Out out) {
    __shared__ Shared<float> s[32];
    const int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    out[t] = s[t + 1];  // BUG: t = 31 reads s[32]
}
template <typename In, typename Out>
__global__ void shared_write_far(In in, Out out, int far) {
    __shared__ Shared<float> s[32];
    const int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    if (t == 7) s[t + far] = in[t];  // BUG: far past the array
    __syncthreads();
    out[t] = s[t];
}
template <typename In, typename Out>
__global__ void shared_read_before_start(In in, Out out) {
    __shared__ Shared<float> s[8][8];
    const int t = threadIdx.x;
    s[t / 8][t % 8] = in[t];
    __syncthreads();
    if (t == 0) out[t] = s[0][t - 1];  // BUG: s[0][-1], before the array
}
// Global scratch without a barrier: thread t reads the cell thread t + 1 writes.
template <typename In, typename Out>
__global__ void global_neighbour(In in, Out out, int n) {
    const int t = threadIdx.x;
    out[t] = in[t] * 2;
    const float v = out[(t + 1) % n];  // BUG: no __syncthreads() (and no ordering at all)
    out[n + t] = v;
}
// Block b > 0 reads what block b - 1 wrote: blocks are never ordered.
template <typename In, typename Out>
__global__ void global_previous_block(In in, Out out, int n) {
    const int g = blockIdx.x * blockDim.x + threadIdx.x;
    out[g] = in[g];
    if (g >= (int)blockDim.x) out[n + g] = out[g - blockDim.x];  // BUG
}
// Every block writes cell 0.
template <typename In, typename Out>
__global__ void global_same_cell(In in, Out out) {
    if (threadIdx.x == 0) out[0] = in[blockIdx.x];  // BUG: a write-write race between blocks
}
// The correct way through global memory within a block: write, barrier, read the neighbour's.
template <typename In, typename Out>
__global__ void global_with_barrier(In in, Out out, int n) {
    const int t = threadIdx.x;
    out[t] = in[t] * 2;
    __syncthreads();
    out[n + t] = out[(t + 1) % n];
}
template <typename Out>
__global__ void writes_its_input(Out in, Out out) {
    const int t = threadIdx.x;
    if (t == 5) in[t] = 0.0f;  // BUG: `in` is the read-only input
    out[t] = in[t];
}
template <typename In, typename Out>
__global__ void spin_on_flag(In in, Out out) {
    __shared__ Shared<int> flag;
    if (threadIdx.x == 0) flag = 0;
    __syncthreads();
    if (threadIdx.x == 0) flag = 1;
    else
        while (flag == 0) {
        }  // BUG on the CPU backend: waits for a thread that runs only at the next barrier
    out[threadIdx.x] = in[threadIdx.x];
}
template <typename In, typename Out>
__global__ void big_local_array(In in, Out out) {
    volatile float buf[40000];  // 160 KB of local memory
    for (int i = 0; i < 40000; ++i) buf[i] = in[i % 32];
    out[threadIdx.x] = buf[39999];
}
// A warp-synchronous reduction (CUDA 9+): correct with __syncwarp between the steps.
template <typename In, typename Out>
__global__ void warp_sum(In in, Out out) {
    __shared__ Shared<float> s[64];
    const int t = threadIdx.x, lane = t % 32, base = t - lane;
    s[t] = in[t];
    __syncwarp();
    for (int off = 16; off > 0; off /= 2) {
        float v = 0.f;
        if (lane < off) v = s[t] + s[t + off];
        __syncwarp();
        if (lane < off) s[t] = v;
        __syncwarp();
    }
    if (lane == 0) out[base / 32] = s[base];
}
template <typename In, typename Out>
__global__ void syncwarp_against_syncthreads(In in, Out out) {
    if (threadIdx.x == 3) __syncthreads();  // BUG: lanes 0-2, 4-31 wait at __syncwarp for lane 3
    else __syncwarp();
    out[threadIdx.x] = in[threadIdx.x];
}
template <typename In, typename Out>
__global__ void divergent_one_line(In in, Out out) {
    if (threadIdx.x < 4) __syncthreads(); else __syncthreads();  // BUG: two barriers, one line
    out[threadIdx.x] = in[threadIdx.x];
}
__device__ inline void block_sync() { __syncthreads(); }
template <typename In, typename Out>
__global__ void divergent_helper(In in, Out out) {
    if (threadIdx.x < 4) {
        block_sync();  // one source barrier, reached from both branches: runs on a GPU
        out[threadIdx.x] = in[threadIdx.x];
    } else {
        block_sync();
        out[threadIdx.x] = 2 * in[threadIdx.x];
    }
}
template <typename In, typename Out>
__global__ void early_exit(In in, Out out) {
    if (threadIdx.x > 5) return;  // BUG
    __syncthreads();
    out[threadIdx.x] = in[threadIdx.x];
}
template <typename real, int STRIDE, typename In, typename Out>
__global__ void strided_shared(In in, Out out) {
    __shared__ Shared<real> s[32 * 32];
    const int t = threadIdx.x;
    s[t * STRIDE] = in[t];
    __syncthreads();
    out[t] = s[t * STRIDE];
}

}  // namespace

// ---- 1. shared bounds -------------------------------------------------------------------------------
TEST_CASE("a shared index past the end is out_of_bounds, checked or not, under every schedule", "[cpu][checks]") {
    const auto sched = GENERATE(Schedule::in_order, Schedule::reversed, Schedule::random);
    const bool checked = GENERATE(false, true);
    CAPTURE(simt::to_string(sched), checked);
    Buffers b(32);
    auto rep = simt::launch(dim3(1), dim3(32), opts(sched, checked), [&] { shared_read_past_end(b.pin, b.pout); });
    const simt::Diagnostic* d = rep.first(DiagKind::out_of_bounds);
    CAPTURE(rep.summary());
    // Only thread 31 reads past s[31], after the barrier: interval 1, index 32 of a 32-cell array.
    REQUIRE((!rep.ok && d && d->space == simt::Space::shared && d->thread_a == 31 && d->interval == 1 &&
             element(*d) == 32 && d->elem_size == 4 && !d->array.empty() &&
             d->message.find("valid 0..31") != std::string::npos));
}

TEST_CASE("a far shared store and a negative index are reported before they happen", "[cpu][checks]") {
    const int far = GENERATE(64, 100000);
    CAPTURE(far);
    Buffers b(64);
    auto rep = simt::launch(dim3(2), dim3(32), opts(Schedule::in_order, false), [&] { shared_write_far(b.pin, b.pout, far); });
    const simt::Diagnostic* d = rep.first(DiagKind::out_of_bounds);
    auto rep2 = simt::launch(dim3(1), dim3(64), opts(Schedule::reversed), [&] { shared_read_before_start(b.pin, b.pout); });
    const simt::Diagnostic* e = rep2.first(DiagKind::out_of_bounds);
    CAPTURE(rep.summary(), rep2.summary());
    REQUIRE((d && d->thread_a == 7 && d->interval == 1 && element(*d) == 7 + far && d->block == simt::Idx3{0, 0, 0} &&
             e && e->thread_a == 0 && e->interval == 1 && element(*e) == -1));
}

// ---- 2. global races, block orders, the schedule comparison ----------------------------------------
TEST_CASE("a global read of a neighbour's cell without a barrier is a race on 'out'", "[cpu][checks]") {
    const auto sched = GENERATE(Schedule::in_order, Schedule::reversed, Schedule::random);
    CAPTURE(simt::to_string(sched));
    const int n = 32;
    Buffers b(2 * n);
    auto rep = simt::launch(dim3(1), dim3(n), opts(sched), [&] { global_neighbour(b.pin, b.pout, n); });
    const simt::Diagnostic* d = rep.first(DiagKind::race);
    CAPTURE(rep.summary());
    REQUIRE(d);
    // The pair is (loader t, storer t + 1 mod n) on element t + 1, whichever ran first.
    const int loader = d->op_a == simt::Op::load ? d->thread_a : d->thread_b;
    const int storer = d->op_a == simt::Op::load ? d->thread_b : d->thread_a;
    REQUIRE((d->space == simt::Space::global && d->array == "out" && d->interval == 0 && d->block == d->block_b &&
             storer == (loader + 1) % n && element(*d) == storer && rep.total(DiagKind::race) == n));
}

TEST_CASE("blocks reading each other's output race under every block order", "[cpu][checks]") {
    const auto order = GENERATE(simt::BlockOrder::in_order, simt::BlockOrder::reversed, simt::BlockOrder::random);
    const int workers = GENERATE(1, 2);
    CAPTURE(simt::to_string(order), workers);
    const int n = 64;
    Buffers b(2 * n);
    simt::ExecOptions o = opts(Schedule::in_order, true, workers);
    o.block_order = order;
    auto rep = simt::launch(dim3(2), dim3(32), o, [&] { global_previous_block(b.pin, b.pout, n); });
    const simt::Diagnostic* d = rep.first(DiagKind::race);
    CAPTURE(rep.summary());
    REQUIRE(d);
    // Block 1's thread t loads element t, which block 0's thread t stores.
    const bool a_loads = d->op_a == simt::Op::load;
    const simt::Idx3 loader = a_loads ? d->block : d->block_b, storer = a_loads ? d->block_b : d->block;
    REQUIRE((d->array == "out" && loader == simt::Idx3{1, 0, 0} && storer == simt::Idx3{0, 0, 0} &&
             d->thread_a == d->thread_b && element(*d) == d->thread_a && rep.total(DiagKind::race) == 32));
}

TEST_CASE("two blocks storing one cell race; a barrier between a write and a read does not", "[cpu][checks]") {
    Buffers b(64);
    auto ww = simt::launch(dim3(3), dim3(32), opts(Schedule::in_order), [&] { global_same_cell(b.pin, b.pout); });
    auto ok = simt::launch(dim3(1), dim3(32), opts(Schedule::reversed), [&] { global_with_barrier(b.pin, b.pout, 32); });
    const simt::Diagnostic* d = ww.first(DiagKind::race);
    CAPTURE(ww.summary(), ok.summary());
    REQUIRE((d && d->op_a == simt::Op::store && d->op_b == simt::Op::store && element(*d) == 0 &&
             ww.total(DiagKind::race) == 2 && ok.clean()));
}

TEST_CASE("block orders: workers take blocks in that order, each block once", "[cpu][checks]") {
    const auto order = GENERATE(simt::BlockOrder::in_order, simt::BlockOrder::reversed, simt::BlockOrder::random);
    CAPTURE(simt::to_string(order));
    std::vector<float> out(1);
    simt::GlobalPtr<float> p(out.data(), 1, 1, "out");
    auto run = [&] {
        simt::ExecOptions o;
        o.workers = 1;
        o.block_order = order;
        o.seed = 9;
        o.trace.records = simt::TraceMode::all;
        auto rep = simt::launch(dim3(5, 2), dim3(1), o, [&] { if (blockIdx.x < 100) p[0] = 1.0f; });
        std::vector<int> blocks;
        for (const auto& a : rep.trace) blocks.push_back(a.block);
        return blocks;
    };
    const std::vector<int> first = run(), again = run();
    std::vector<int> expected(10);
    std::iota(expected.begin(), expected.end(), 0);
    if (order == simt::BlockOrder::reversed) std::reverse(expected.begin(), expected.end());
    std::vector<int> sorted = first;
    std::sort(sorted.begin(), sorted.end());
    const bool as_expected = order == simt::BlockOrder::random ? first != sorted : first == expected;
    REQUIRE((as_expected && first == again && sorted == std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
}

TEST_CASE("the schedule comparison names the first cell where dependent blocks differ", "[cpu][checks]") {
    const int n = 64;
    Buffers b(2 * n);
    const std::vector<float> initial(2 * n, -1.0f);
    const stencil::OutputLaunch launch = [&](const simt::ExecOptions& o, void* out) {
        simt::GlobalPtr<float> pout(static_cast<float*>(out), 2 * n, 1, "out");
        return simt::launch(dim3(2), dim3(32), o, [&] { global_previous_block(b.pin, pout, n); });
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
             chk.differing_cells >= 32 && chk.runs[1].block_order == simt::BlockOrder::reversed &&
             chk.runs[0].report.total(DiagKind::race) == 32));
}

// ---- 3. read-only inputs -----------------------------------------------------------------------------
TEST_CASE("a store through a read-only pointer is input_write and does not happen", "[cpu][checks]") {
    const auto sched = GENERATE(Schedule::in_order, Schedule::reversed, Schedule::random);
    const bool checked = GENERATE(false, true);
    CAPTURE(simt::to_string(sched), checked);
    Buffers b(32);
    simt::GlobalPtr<float> in_rw(b.in.data(), 32, 0, "in", true);
    auto rep = simt::launch(dim3(1), dim3(32), opts(sched, checked), [&] { writes_its_input(in_rw, b.pout); });
    const simt::Diagnostic* d = rep.first(DiagKind::input_write);
    CAPTURE(rep.summary());
    REQUIRE((!rep.ok && d && d->array == "in" && d->thread_a == 5 && d->interval == 0 && element(*d) == 5 &&
             b.in[5] == 6.0f && std::string(simt::to_string(DiagKind::input_write)) == "input write"));
}

// ---- 4. the deadline -------------------------------------------------------------------------------
TEST_CASE("a spin-wait on another thread ends with a timeout, not a hang", "[cpu][checks]") {
    Buffers b(32);
    simt::ExecOptions o = opts(Schedule::reversed);
    o.deadline_seconds = 0.2;
    auto rep = simt::launch(dim3(1), dim3(4), o, [&] { spin_on_flag(b.pin, b.pout); });
    const simt::Diagnostic* d = rep.first(DiagKind::timeout);
    CAPTURE(rep.summary());
    // Reversed: thread 3 spins first in interval 1, before thread 0 could set the flag.
    REQUIRE((!rep.ok && d && d->thread_a == 3 && d->interval == 1 &&
             d->message.find("did not finish within 0.2 s") != std::string::npos));
}

// ---- 5. stack overflow ---------------------------------------------------------------------------
TEST_CASE("a fiber stack overflow prints one line naming the block and exits", "[cpu][checks]") {
    int fds[2];
    REQUIRE(::pipe(fds) == 0);
    const pid_t pid = ::fork();
    if (pid == 0) {  // the child overflows; it must not return into Catch
        ::dup2(fds[1], 2);
        Buffers b(32);
        simt::ExecOptions o = opts(Schedule::in_order, false);
        o.stack_bytes = 16 * 1024;
        simt::launch(dim3(1), dim3(2), o, [&] { big_local_array(b.pin, b.pout); });
        ::_exit(0);
    }
    ::close(fds[1]);
    std::string err;
    char buf[512];
    for (ssize_t k; (k = ::read(fds[0], buf, sizeof buf)) > 0;) err.append(buf, static_cast<std::size_t>(k));
    ::close(fds[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    CAPTURE(err, status);
    REQUIRE((WIFEXITED(status) && WEXITSTATUS(status) == simt::kStackOverflowExit &&
             err.find("a thread of block (0,0,0) overflowed its 16 KiB stack") != std::string::npos &&
             std::count(err.begin(), err.end(), '\n') == 1));
}

TEST_CASE("the default stack holds an 80 KB local array", "[cpu][checks]") {
    Buffers b(32);
    auto rep = simt::launch(dim3(1), dim3(32), opts(Schedule::in_order), [&] { big_local_array(b.pin, b.pout); });
    CAPTURE(rep.summary());
    REQUIRE((rep.clean() && b.out[31] == b.in[39999 % 32]));
}

// ---- 6. __syncwarp ---------------------------------------------------------------------------------
TEST_CASE("__syncwarp orders the lanes of a warp: a warp reduction is exact and race-free", "[cpu][checks]") {
    const auto sched = GENERATE(Schedule::in_order, Schedule::reversed, Schedule::random);
    CAPTURE(simt::to_string(sched));
    Buffers b(64, 0.0f);
    auto rep = simt::launch(dim3(1), dim3(64), opts(sched), [&] { warp_sum(b.pin, b.pout); });
    CAPTURE(rep.summary());
    // in[i] = i + 1: warp 0 sums 1..32, warp 1 sums 33..64.
    REQUIRE((rep.clean() && b.out[0] == 528.0f && b.out[1] == 1552.0f));
}

TEST_CASE("lanes waiting at __syncwarp for a lane at __syncthreads are a divergent barrier", "[cpu][checks]") {
    Buffers b(32);
    auto rep = simt::launch(dim3(1), dim3(32), opts(Schedule::in_order), [&] { syncwarp_against_syncthreads(b.pin, b.pout); });
    const simt::Diagnostic* d = rep.first(DiagKind::divergent_barrier);
    CAPTURE(rep.summary());
    REQUIRE((!rep.ok && d && d->thread_a == 0 && d->thread_b == 3 && d->interval == 0));
}

// ---- 7. barrier call sites -----------------------------------------------------------------------
TEST_CASE("two barriers on one line are divergent; one helper's barrier in both branches is not", "[cpu][checks]") {
    const auto sched = GENERATE(Schedule::in_order, Schedule::reversed);
    CAPTURE(simt::to_string(sched));
    Buffers b(64);
    // The helper's __syncthreads() is one source position (and one bar.sync on a GPU), whichever
    // branch reached it: the block passes it together.
    const auto helper = simt::launch(dim3(1), dim3(64), opts(sched), [&] { divergent_helper(b.pin, b.pout); });
    CAPTURE(helper.summary());
    CHECK(helper.ok);
    auto rep = simt::launch(dim3(1), dim3(64), opts(sched), [&] { divergent_one_line(b.pin, b.pout); });
    const simt::Diagnostic* d = rep.first(DiagKind::divergent_barrier);
    CAPTURE(rep.summary());
    // Threads 0-3 at one barrier, 4-63 at the other; both named by the same file:line.
    REQUIRE((!rep.ok && d && d->interval == 0 && d->thread_a == 0 && d->thread_b == 4 && d->site_a == d->site_b &&
             d->site_a.find("test_checks_cpu.cpp:") == 0));
}

// ---- 8. launch limits --------------------------------------------------------------------------------
TEST_CASE("grids a GPU rejects are rejected", "[cpu][checks]") {
    std::vector<float> out(1);
    simt::GlobalPtr<float> p(out.data(), 1, 1, "out");
    auto rep = simt::launch(dim3(1, 65536), dim3(1), {}, [&] { p[0] = 1.0f; });
    auto backend = stencil::make_backend("cpu", nullptr);
    const auto why = backend->cannot_run({stencil::KernelId::naive, 3, 1, stencil::Precision::f32, {3, 3 * 65536 + 3, 3}});
    CAPTURE(rep.summary(), why.value_or("(none)"));
    REQUIRE((!rep.ok && rep.blocks_run == 0 && rep.first(DiagKind::kernel_exception) &&
             rep.first(DiagKind::kernel_exception)->message.find("65535") != std::string::npos && why &&
             why->find("at most 2147483647 blocks along x and 65535 along y and z") != std::string::npos));
}

// ---- 9. bank conflicts ------------------------------------------------------------------------------
namespace {
template <typename real, int STRIDE>
int bank_degree() {
    std::vector<real> in(32, real(1)), out(32);
    simt::GlobalPtr<const real> pin(in.data(), 32, 0, "in");
    simt::GlobalPtr<real> pout(out.data(), 32, 1, "out");
    simt::ExecOptions o;
    o.workers = 1;
    o.trace.records = simt::TraceMode::all;
    auto rep = simt::launch(dim3(1), dim3(32), o, [&] { strided_shared<real, STRIDE>(pin, pout); });
    for (const auto& r : simt::warp_requests(rep.trace))
        if (r.space == simt::Space::shared && r.op == simt::Op::load) return r.bank_degree;
    return -1;
}
}  // namespace

TEST_CASE("bank conflict degree: fp32 one pass of 32 lanes, fp64 two half-warp passes", "[cpu][checks]") {
    // (bytes, stride in elements, degree): fp32 stride s hits gcd-many banks; fp64 in half-warps.
    const auto [bytes, stride, expected] = GENERATE(table<int, int, int>(
        {{4, 1, 1}, {4, 2, 2}, {4, 32, 32}, {8, 1, 1}, {8, 2, 2}, {8, 16, 16}}));
    CAPTURE(bytes, stride);
    int got = -2;
    if (bytes == 4) got = stride == 1 ? bank_degree<float, 1>() : stride == 2 ? bank_degree<float, 2>() : bank_degree<float, 32>();
    else got = stride == 1 ? bank_degree<double, 1>() : stride == 2 ? bank_degree<double, 2>() : bank_degree<double, 16>();
    REQUIRE(got == expected);
}

// ---- 12. determinism ---------------------------------------------------------------------------------
TEST_CASE("fatal totals and blocks run do not depend on worker timing", "[cpu][checks]") {
    Buffers b(64);
    std::vector<std::tuple<long long, long long, long long>> seen;
    for (int i = 0; i < 40; ++i) {
        auto rep = simt::launch(dim3(64), dim3(64), opts(Schedule::in_order, true, 2), [&] { early_exit(b.pin, b.pout); });
        seen.emplace_back(rep.total(DiagKind::exit_before_barrier), rep.blocks_run, rep.threads_run);
    }
    std::sort(seen.begin(), seen.end());
    seen.erase(std::unique(seen.begin(), seen.end()), seen.end());
    CAPTURE(seen.size());
    // Block 0 fails first (in queue order): only it counts, whatever the other worker ran.
    REQUIRE((seen.size() == 1 && std::get<0>(seen[0]) == 1 && std::get<1>(seen[0]) == 1));
}

TEST_CASE("a truncated trace holds the same records whatever the worker timing", "[cpu][checks]") {
    using namespace stencil;
    const GridDims d{40, 40, 40};
    const auto in = random_field<float>(d, 1);
    std::vector<std::vector<std::tuple<int, int, int, int, long long>>> traces;
    for (int rep = 0; rep < 4; ++rep) {
        auto out = poisoned_output(in, 1);
        CpuOptions o;
        o.exec.workers = 2;
        o.exec.trace.records = simt::TraceMode::all;
        o.exec.trace.max_records = 200000;
        auto r = run_cpu({KernelId::tiled, 8, 1, Precision::f32, d}, laplacian_weights(1), in.data.data(), out.data.data(), o);
        std::vector<std::tuple<int, int, int, int, long long>> t;
        for (const auto& a : r.report.trace) t.emplace_back(a.block, a.thread, a.site, a.interval, a.offset);
        if (!r.report.trace_truncated) t.clear();
        traces.push_back(std::move(t));
    }
    REQUIRE((traces[0].size() == 200000 && traces[0] == traces[1] && traces[0] == traces[2] && traces[0] == traces[3]));
}
