// Valid CUDA the PTX engine must run as a GPU does (fixtures/cuda_features.cu): warp shuffles,
// votes, ballots, matches, __activemask, warp reductions and __syncthreads_count/and/or with their
// exact results under every schedule; device printf, captured and capped; monotone clocks; a
// template over a reference to a shared tile; helpers taking pointers and pointers derived from
// local pointers (global and shared, through generic addresses); the _rn intrinsics and CUDA's
// mixed min/max; the old GlobalPtr proxy's pointer operations. Each test case compiles one program.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "tests/cpu/ptx_test_support.h"

using engine::Schedule;
using ptxtest::arg;
using ptxtest::opts;
using ptxtest::ptr;

namespace {

const ptxtest::Fixture& features() { return ptxtest::fixture("cuda_features.cu", {"tile_sums<4>"}); }

std::vector<float> iota_in(int n) {
    std::vector<float> in(n);
    for (int i = 0; i < n; ++i) in[i] = float(i + 1);
    return in;
}

template <class T>
ptxtest::Call call(engine::Idx3 grid, engine::Idx3 block, std::vector<float>& in, std::vector<T>& out,
                   std::vector<std::uint64_t> extra = {}) {
    ptxtest::Call c;
    c.grid = grid;
    c.block = block;
    c.buffers = {ptxtest::input(in), ptxtest::output(out)};
    c.params = {ptr(0), ptr(1)};
    c.params.insert(c.params.end(), extra.begin(), extra.end());
    return c;
}

}  // namespace

TEST_CASE("warp shuffles: up, down, xor, idx, segment widths and 64-bit values", "[cpu][compat]") {
    const auto sched = GENERATE(Schedule::in_order, Schedule::reversed, Schedule::random);
    CAPTURE(engine::to_string(sched));
    auto in = iota_in(64);
    std::vector<float> out(8 * 64, -1.0f);
    const auto rep = ptxtest::run(features(), "shuffles", call({1, 1, 1}, {64, 1, 1}, in, out), opts(sched));
    CAPTURE(rep.summary());
    REQUIRE(rep.clean());
    int wrong = 0;
    for (int t = 0; t < 64; ++t) {
        const int lane = t % 32, base = t - lane;
        const float want[8] = {
            in[base + 5],
            lane < 3 ? in[t] : in[t - 3],
            lane + 4 > 31 ? in[t] : in[t + 4],
            in[base + (lane ^ 1)],
            in[base + lane / 8 * 8 + (lane + 1) % 8],
            lane % 16 < 1 ? in[t] : in[t - 1],
            lane % 8 + 2 >= 8 ? in[t] : in[t + 2],
            2.0f * float(t ^ 2),
        };
        for (int k = 0; k < 8; ++k)
            if (out[k * 64 + t] != want[k]) {
                UNSCOPED_INFO("shuffle " << k << " thread " << t << ": " << out[k * 64 + t] << ", want " << want[k]);
                ++wrong;
            }
    }
    REQUIRE(wrong == 0);
}

TEST_CASE("votes, ballots, matches, __activemask, warp reductions and __syncthreads_count", "[cpu][compat]") {
    const auto sched = GENERATE(Schedule::in_order, Schedule::reversed, Schedule::random);
    CAPTURE(engine::to_string(sched));
    auto in = iota_in(64);
    std::vector<int> out(14 * 64, -7);
    const auto rep = ptxtest::run(features(), "collectives", call({1, 1, 1}, {64, 1, 1}, in, out), opts(sched));
    CAPTURE(rep.summary());
    REQUIRE(rep.clean());
    int wrong = 0;
    for (int t = 0; t < 64; ++t) {
        const int lane = t % 32;
        const int want[14] = {1, 0, 1, int(0xaaaaaaaau), 22, 1, 1, int(0xffu << (lane / 8 * 8)), int(0xffffffffu), 1,
                              lane < 10 ? 0x3ff : -1, 496, t - lane + 31, lane < 16 ? 0x1111 : -1};
        for (int k = 0; k < 14; ++k)
            if (out[k * 64 + t] != want[k]) {
                UNSCOPED_INFO("collective " << k << " thread " << t << ": " << out[k * 64 + t] << ", want " << want[k]);
                ++wrong;
            }
    }
    REQUIRE(wrong == 0);
}

TEST_CASE("device printf is captured in order, capped once, and silent without a sink", "[cpu][compat]") {
    const auto& fx = features();
    auto in = iota_in(64);
    std::vector<float> out(64);
    std::string expected;
    // a warp's lanes print each call together, in lane order
    for (int b = 0; b < 2; ++b)
        for (int i = 0; i < 2; ++i)
            for (int t = 0; t < 2; ++t) {
                char line[256];
                std::snprintf(line, sizeof line, "block %d thread %d: in=%g i=%d %s %c %5.2f|%-3d|%x\n", b, t,
                              (double)in[t], i, "ok", 'A' + t, 1.0 / 3, i, 255);
                expected += line;
            }
    std::string text;
    auto c = call({2, 1, 1}, {2, 1, 1}, in, out, {arg(2)});
    c.printf_output = &text;
    const auto rep = ptxtest::run(fx, "say", c, opts(Schedule::in_order, false, 1));
    CAPTURE(rep.summary());
    REQUIRE((rep.clean() && text == expected));

    std::string capped;
    ptx::Launch l = ptxtest::launch_of(fx, "say", c);
    l.printf_output = &capped;
    l.printf_cap = 100;
    const auto rep2 = ptx::run(*fx.module, l, opts(Schedule::in_order, false, 1));
    REQUIRE((rep2.clean() && capped == expected.substr(0, 100) + "[printf output truncated]\n"));

    c.printf_output = nullptr;
    REQUIRE(ptxtest::run(fx, "say", c, opts(Schedule::in_order, false)).clean());
}

TEST_CASE("clock64() and clock() are monotone in each thread", "[cpu][compat]") {
    auto in = iota_in(64);
    std::vector<long long> out(3 * 8, -1);
    const auto rep = ptxtest::run(features(), "clocks", call({1, 1, 1}, {8, 1, 1}, in, out), opts(Schedule::random));
    CAPTURE(rep.summary());
    REQUIRE(rep.clean());
    for (int t = 0; t < 8; ++t) {
        const long long t0 = out[3 * t], t1 = out[3 * t + 1], dc = out[3 * t + 2];
        CAPTURE(t, t0, t1, dc);
        REQUIRE((t0 >= 0 && t1 - t0 >= 100 && dc >= 100 && std::llabs((t1 - t0) - dc) <= 8));
    }
}

TEST_CASE("a template over a float (&)[T][T][T] tile, pointer helpers and derived pointers", "[cpu][compat]") {
    const auto& fx = features();
    auto in = iota_in(64);
    std::vector<float> sums(4, -1.0f);
    const auto rep = ptxtest::run(fx, "tile_sums<4>", call({1, 1, 1}, {32, 1, 1}, in, sums), opts(Schedule::reversed));
    CAPTURE(rep.summary());
    REQUIRE(rep.clean());
    for (int z = 0; z < 4; ++z) {
        float want = 0;
        for (int i = 0; i < 16; ++i) want += in[z * 16 + i];
        CHECK(sums[z] == want);
    }
    const int n = 16;
    std::vector<float> out(4 * n, -1.0f);
    const auto rep2 = ptxtest::run(fx, "pointers", call({1, 1, 1}, {n, 1, 1}, in, out, {arg(n)}), opts(Schedule::random));
    CAPTURE(rep2.summary());
    REQUIRE(rep2.clean());
    for (int t = 0; t < n; ++t) {
        CAPTURE(t);
        if (t < n - 2) CHECK(out[t] == (in[t] + in[t + 1] + in[t + 2]) / 3.0f);
        else CHECK(out[t] == -1.0f);
        CHECK(out[n + 2 * t] == in[t + 1]);
        CHECK(out[n + 2 * t + 1] == in[t + 1] + 1);
        CHECK(out[3 * n + t] == 20 * in[t + 1] + 1);
    }
}

TEST_CASE("__device__ variables: an initialised table and an atomic counter", "[cpu][compat]") {
    auto in = iota_in(64);
    std::vector<float> out(32, -1.0f);
    const auto rep = ptxtest::run(features(), "device_variables", call({1, 1, 1}, {32, 1, 1}, in, out), opts());
    CAPTURE(rep.summary());
    REQUIRE(rep.clean());
    const float table[4] = {0.5f, 1.5f, 2.5f, 3.5f};
    for (int t = 0; t < 32; ++t) CHECK(out[t] == in[t] * table[t % 4] + 32.0f);
}

TEST_CASE("_rn intrinsics and mixed min/max match CUDA", "[cpu][compat]") {
    const float a = 1.0f + 0x1p-23f, b = 1.0f - 0x1p-24f, c = -1.0f;
    std::vector<float> in{a, b, c, 0.1f, 0.2f, 0.3f, 3.0f, 2.0f, -1.0f}, out(7, -1.0f);
    std::vector<unsigned> u(3, 7u);
    auto k = call({1, 1, 1}, {1, 1, 1}, in, out);
    k.buffers.push_back(ptxtest::output(u, "u", 2));
    k.params.push_back(ptr(2));
    const auto rep = ptxtest::run(features(), "intrinsics", k, opts());
    CAPTURE(rep.summary());
    REQUIRE(rep.clean());
    volatile float ab = a * b;
    CHECK(out[0] == std::fmaf(a, b, c));
    CHECK(out[1] == ab + c);
    CHECK(out[0] != out[1]);  // no fusion of the two
    CHECK(out[2] == 0.1f + 0.2f);
    CHECK(out[3] == 0.3f - 0.1f);
    CHECK(out[4] == 1.0f / 3.0f);
    CHECK(out[5] == 1.0f / 3.0f);
    CHECK(out[6] == std::sqrt(2.0f));
    CHECK(u == std::vector<unsigned>{5u, 0xffffffffu, 3u});
}

TEST_CASE("loads, stores, compound assignment, &p[i], derived pointers and __ldg", "[cpu][compat]") {
    const bool checked = GENERATE(false, true);
    std::vector<float> in{1, 2, 3, 4, 5, 6, 7, 8}, out = in;
    ptxtest::Call c;
    c.buffers = {ptxtest::input(in), ptxtest::output(out)};
    c.params = {ptr(0), ptr(1)};
    engine::ExecOptions o = opts(Schedule::in_order, checked);
    o.trace.count = true;
    const auto rep = ptxtest::run(features(), "pointer_ops", c, o);
    CAPTURE(rep.summary(), rep.counts.global_loads, rep.counts.global_stores);
    REQUIRE(rep.clean());
    CHECK(out == std::vector<float>{7, 12, 6, 3, 12, 7, 70, 15});
    // Every cell of out is stored at least once, and every store is counted.
    CHECK(rep.counts.global_stores >= 8);
    CHECK(rep.counts.global_loads > 0);
    CHECK(rep.counts.global_store_bytes == 4 * rep.counts.global_stores);
}
