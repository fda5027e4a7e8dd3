// conv27 (kernels/conv27.cuh) on the CPU backend: the 7-point stencil as a dense (2r+1)^3
// convolution gives the star's values, at r = 1 and 2, in both precisions, on grids that are not
// multiples of the block. The version-table sweep (test_kernels_cpu.cpp) runs it at every tile;
// these cases add what is particular to it: it reads every weight of the cube, and the cube's
// zeros leave small-integer results exact.
#include <catch2/catch.hpp>

#include "backends/cpu/cpu_backend.h"
#include "core/compare.h"
#include "core/field.h"
#include "core/reference.h"

using namespace stencil;

namespace {

template <class real>
CompareResult run_against_reference(const LaunchRequest& req, std::uint64_t seed) {
    const auto in = random_field<real>(req.dims, seed);
    const auto w = random_weights(req.radius, seed + 1).rounded_to(req.precision);
    auto out = poisoned_output(in, req.radius);
    const EngineRun run = run_cpu(req, w, in.data.data(), out.data.data());
    INFO(run.report.summary());
    REQUIRE(run.report.clean());
    return compare_with_reference(out, reference_stencil(in, w), req.precision);
}

}  // namespace

TEST_CASE("conv27 matches the fp64 reference on the CPU backend", "[cpu][kernel]") {
    const int r = GENERATE(1, 2);
    const Precision p = GENERATE(Precision::f32, Precision::f64);
    const int T = GENERATE(4, 8);
    const GridDims d{19, 13, 11};  // no side a multiple of 4 or 8
    const LaunchRequest req{KernelId::conv27, T, r, p, d};
    CAPTURE(r, to_string(p), T);
    const CompareResult res = p == Precision::f32 ? run_against_reference<float>(req, 31 + r)
                                                  : run_against_reference<double>(req, 31 + r);
    CAPTURE(res.summary());
    REQUIRE(res.ok);
}

// Every load of the cube is issued, zero weight or not: the trace counts (2r+1)^3 loads per
// interior output, against naive's 6r + 1, and the same stores.
TEST_CASE("conv27 loads the whole cube for every output", "[cpu][kernel]") {
    const int r = GENERATE(1, 2);
    const GridDims d{14, 11, 9};
    const auto in = random_field<float>(d, 5);
    const auto w = random_weights(r, 6);
    const long long interior = (long long)(d.nx - 2 * r) * (d.ny - 2 * r) * (d.nz - 2 * r);
    auto count = [&](KernelId k) {
        auto out = poisoned_output(in, r);
        CpuOptions o;
        o.exec.trace.count = true;
        const EngineRun run = run_cpu({k, 8, r, Precision::f32, d}, w, in.data.data(), out.data.data(), o);
        REQUIRE(run.ok());
        return run.report.counts;
    };
    const auto conv = count(KernelId::conv27), naive = count(KernelId::naive);
    const long long edge = 2 * r + 1;
    CAPTURE(r, conv.global_load_bytes, naive.global_load_bytes);
    REQUIRE(conv.global_load_bytes == interior * edge * edge * edge * 4);
    REQUIRE(naive.global_load_bytes == interior * (6 * r + 1) * 4);
    REQUIRE(conv.global_store_bytes == naive.global_store_bytes);
}

// Small integers: every product and partial sum is exact in fp32, so the 20 (or 112) zero terms
// must leave conv27's output equal to naive's, boundary included.
TEST_CASE("conv27 equals naive exactly on small integers", "[cpu][kernel]") {
    const int r = GENERATE(1, 2);
    const GridDims d{17, 9, 12};
    const auto in = small_integer_field<float>(d, 3);
    const auto w = small_integer_weights(r, 5);
    auto conv = poisoned_output(in, r), naive = poisoned_output(in, r);
    REQUIRE(run_cpu({KernelId::conv27, 8, r, Precision::f32, d}, w, in.data.data(), conv.data.data()).report.clean());
    REQUIRE(run_cpu({KernelId::naive, 8, r, Precision::f32, d}, w, in.data.data(), naive.data.data()).report.clean());
    // == rather than memcmp: an exact zero may carry either sign depending on the order of the terms.
    long long differing = 0;
    for (std::size_t n = 0; n < conv.data.size(); ++n) differing += conv.data[n] != naive.data[n];
    REQUIRE(differing == 0);
}
