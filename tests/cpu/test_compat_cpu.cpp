// Valid CUDA the CPU backend must compile and run as the GPU does: the GlobalPtr proxy (loads,
// stores, compound assignment, &p[i], const-correctness, __ldg), the _rn intrinsics, CUDA's mixed
// min/max overloads; and the cancel hook (ExecOptions::cancel).
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <cmath>
#include <thread>
#include <type_traits>
#include <vector>

#include "backends/cpu/cpu_backend.h"
#include "kernels/device_compat.h"

namespace {

template <class P, class V>
concept can_assign = requires(P p, V v) { p[0] = v; };
template <class P>
concept can_add_assign = requires(P p) { p[0] += 1.0f; };

simt::ExecOptions one_worker(bool checked) {
    simt::ExecOptions o;
    o.workers = 1;
    o.check_shared = checked;
    o.trace.count = true;
    return o;
}

}  // namespace

TEST_CASE("GlobalPtr proxy: load, store, compound assignment, address-of", "[compat]") {
    std::vector<float> buf{1, 2, 3, 4, 5, 6, 7, 8};
    for (bool checked : {false, true}) {
        std::vector<float> b = buf;
        simt::GlobalPtr<float> out(b.data(), (long long)b.size(), 1, "out");
        simt::GlobalPtr<const float> in(buf.data(), (long long)buf.size(), 0, "in", true);
        auto rep = simt::launch(dim3(1), dim3(1), one_worker(checked), [&] {
            const float x = in[2];           // load through the const proxy
            out[0] = x;                       // store
            out[1] += 10.0f;                  // load + store
            out[2] *= 2.0f;
            out[3] -= 1.0f;
            out[4] /= 5.0f;
            ++out[5];
            simt::GlobalPtr<float> p = &out[6];  // &p[i] is a traced pointer at that offset
            p[0] = 70.0f;
            p[1] = p[-1] + in[7];               // out[7] = out[5] + in[7]
            const float l = __ldg(&in[3]);      // __ldg on a const pointer
            out[0] = out[0] + l;                // 3 + 4
            simt::GlobalPtr<const float> q = in + 4;
            out[4] = out[4] + q[1] + *q;        // 1 + 6 + 5
        });
        REQUIRE(rep.ok);
        CHECK(b[0] == 7.0f);
        CHECK(b[1] == 12.0f);
        CHECK(b[2] == 6.0f);
        CHECK(b[3] == 3.0f);
        CHECK(b[4] == 12.0f);
        CHECK(b[5] == 7.0f);
        CHECK(b[6] == 70.0f);
        CHECK(b[7] == 15.0f);
        // Every store was traced (10).
        CHECK(rep.counts.global_loads > 0);
        CHECK(rep.counts.global_stores == 10);
    }
}

TEST_CASE("GlobalPtr proxy: address-of keeps the bounds check", "[compat]") {
    std::vector<float> b(4, 0.0f);
    simt::GlobalPtr<float> out(b.data(), 4, 1, "out");
    auto rep = simt::launch(dim3(1), dim3(1), one_worker(false), [&] {
        simt::GlobalPtr<float> p = &out[2];
        p[2] = 1.0f;  // out[4]: one past the end
    });
    CHECK_FALSE(rep.ok);
    CHECK(rep.total(simt::DiagKind::out_of_bounds) == 1);
    CHECK(b == std::vector<float>(4, 0.0f));
}

TEST_CASE("GlobalPtr proxy: const-correctness as on the GPU", "[compat]") {
    using CP = simt::GlobalPtr<const float>;
    using P = simt::GlobalPtr<float>;
    STATIC_REQUIRE(can_assign<P, float>);
    STATIC_REQUIRE(can_add_assign<P>);
    STATIC_REQUIRE_FALSE(can_assign<CP, float>);
    STATIC_REQUIRE_FALSE(can_add_assign<CP>);
    STATIC_REQUIRE(std::is_convertible_v<P, CP>);           // float* -> const float*
    STATIC_REQUIRE_FALSE(std::is_convertible_v<CP, P>);     // not the other way
    STATIC_REQUIRE(std::is_same_v<decltype(&std::declval<CP>()[0]), CP>);
    STATIC_REQUIRE(std::is_same_v<decltype(__ldg(&std::declval<CP>()[0])), float>);
    STATIC_REQUIRE(std::is_convertible_v<decltype(std::declval<CP>()[0]), float>);
}

TEST_CASE("_rn intrinsics and mixed min/max match CUDA", "[compat]") {
    const float a = 1.0f + 0x1p-23f, b = 1.0f - 0x1p-24f, c = -1.0f;
    CHECK(__fmaf_rn(a, b, c) == std::fmaf(a, b, c));
    CHECK(__fmaf_rn(a, b, c) != __fadd_rn(__fmul_rn(a, b), c));  // no fusion of the two
    CHECK(__fadd_rn(0.1f, 0.2f) == 0.1f + 0.2f);
    CHECK(__fsub_rn(0.3f, 0.1f) == 0.3f - 0.1f);
    CHECK(__fdiv_rn(1.0f, 3.0f) == 1.0f / 3.0f);
    CHECK(__frcp_rn(3.0f) == 1.0f / 3.0f);
    CHECK(__fsqrt_rn(2.0f) == std::sqrt(2.0f));
    // CUDA: min(int, unsigned) converts the int, and returns unsigned.
    STATIC_REQUIRE(std::is_same_v<decltype(min(1, 2u)), unsigned>);
    STATIC_REQUIRE(std::is_same_v<decltype(max(2u, 1)), unsigned>);
    CHECK(min(-1, 5u) == 5u);
    CHECK(max(-1, 5u) == 0xffffffffu);
    CHECK(min(3, 7u) == 3u);
    STATIC_REQUIRE(std::is_same_v<decltype(min(1.0f, 2.0)), double>);
}

TEST_CASE("cancel: a big launch stops within 0.5 s", "[compat][cancel]") {
    for (bool traced : {false, true}) {
        std::atomic<bool> cancel{false};
        simt::ExecOptions o;
        o.workers = 2;
        o.cancel = &cancel;
        if (traced) o.trace.count = true;
        std::vector<float> buf(1 << 20, 1.0f);
        simt::GlobalPtr<float> p(buf.data(), (long long)buf.size(), 0, "buf");
        std::thread t([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            cancel = true;
        });
        const auto t0 = std::chrono::steady_clock::now();
        // 65536 blocks x 256 threads, each thread 64 loads: minutes when run to the end.
        auto rep = simt::launch(dim3(256, 256), dim3(256), o, [&] {
            float s = 0;
            for (int k = 0; k < 64; ++k) s += p[(threadIdx.x * 64 + k) & 0xfffff];
            if (s < 0) p[0] = s;
        });
        const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        t.join();
        CHECK(rep.cancelled);
        CHECK_FALSE(rep.ok);
        CHECK(rep.diagnostics.empty());
        CHECK(rep.blocks_run < 65536);
        CHECK(secs < 0.6);  // 0.1 s before the cancel + at most 0.5 s to stop
        CHECK(rep.summary().rfind("cancelled", 0) == 0);
    }
}

TEST_CASE("cancel: a single long block stops mid-block when traced", "[compat][cancel]") {
    std::atomic<bool> cancel{false};
    simt::ExecOptions o;
    o.workers = 1;
    o.cancel = &cancel;
    o.trace.count = true;
    std::vector<float> buf(1024, 1.0f);
    simt::GlobalPtr<float> p(buf.data(), 1024, 0, "buf");
    std::thread t([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        cancel = true;
    });
    const auto t0 = std::chrono::steady_clock::now();
    auto rep = simt::launch(dim3(1), dim3(1024), o, [&] {
        float s = 0;
        for (long k = 0; k < 200000000L; ++k) s += p[(threadIdx.x + k) & 1023];
        if (s < 0) p[0] = s;
    });
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    t.join();
    CHECK(rep.cancelled);
    CHECK(rep.diagnostics.empty());
    CHECK(secs < 0.6);
}
