// Every kernel version x every runnable T x r = 1..4 x fp32/fp64 x awkward grid sizes, on the GPU,
// against the fp64 reference (compare_with_reference through run_kernel), one REQUIRE per case.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "core/field.h"
#include "core/reference.h"
#include "core/run.h"
#include "core/weights.h"
#include "tests/gpu/gpu_fixture.h"

namespace stencil {
namespace {

struct KernelCase {
    KernelId kernel;
    int tile;
    int radius;
    Precision precision;
    GridDims dims;
};

std::string describe(const KernelCase& c) {
    return fmt::format("{} T={} r={} {} {}x{}x{}", version(c.kernel).name, c.tile, c.radius, to_string(c.precision),
                       c.dims.nx, c.dims.ny, c.dims.nz);
}

// Sizes that are not multiples of the tile: one output tile plus one cell (two blocks per axis,
// the second nearly empty), a non-cubic prime-ish grid, a cube, and grids with one side as thin
// as the stencil allows (2r + 1 cells: one interior plane) along z and along x.
std::vector<GridDims> sizes_for(KernelId k, int T, int r) {
    const LaunchGeometry g = launch_geometry(k, T, r, Precision::f32, {1, 1, 1});
    const int over = std::max(g.out_tile + 1, 2 * r + 1);
    const int thin = 2 * r + 1;
    return {{over, over, over}, {37, 29, 23}, {64, 64, 64}, {70, 50, thin}, {thin, 41, 33}};
}

std::vector<KernelCase> all_kernel_cases(const DeviceLimits& lim) {
    std::vector<KernelCase> cases;
    for (const auto& v : kernel_versions())
        for (int r = 1; r <= kMaxRadius; ++r)
            for (Precision p : {Precision::f32, Precision::f64})
                for (int T : runnable_tiles(v.id, r, p, lim))
                    for (GridDims d : sizes_for(v.id, T, r)) cases.push_back({v.id, T, r, p, d});
    return cases;
}

}  // namespace

TEST_CASE("every kernel, tile, radius and precision matches the fp64 reference on the GPU", "[kernel][gpu]") {
    Backend& backend = test::gpu();
    static const std::vector<KernelCase> cases = all_kernel_cases(backend.limits());
    const KernelCase c = GENERATE(from_range(cases));
    CAPTURE(describe(c));

    RunOptions opt;
    opt.request = {c.kernel, c.tile, c.radius, c.precision, c.dims};
    opt.seed = 1000 + static_cast<std::uint64_t>(c.tile * 10 + c.radius);
    opt.time = false;
    const RunReport rep = run_kernel(backend, opt);
    CAPTURE(rep.check.summary());
    REQUIRE(rep.ok);
}

TEST_CASE("the case list covers the whole version table", "[kernel][gpu]") {
    const auto cases = all_kernel_cases(test::gpu().limits());
    for (const auto& v : kernel_versions()) {
        CAPTURE(v.name);
        const auto n = std::count_if(cases.begin(), cases.end(), [&](const KernelCase& c) { return c.kernel == v.id; });
        CHECK(n >= 5 * 2 * kMaxRadius);
    }
    // The tiled kernel: every T from 3 to 10 appears for r = 1.
    for (int T = 3; T <= 10; ++T)
        CHECK(std::any_of(cases.begin(), cases.end(),
                          [&](const KernelCase& c) { return c.kernel == KernelId::tiled && c.tile == T && c.radius == 1; }));
}

TEST_CASE("small-integer data gives exactly the reference (fp32, every version at its default tile)", "[kernel][gpu]") {
    Backend& backend = test::gpu();
    const auto& v = GENERATE(from_range(kernel_versions().begin(), kernel_versions().end()));
    const int r = GENERATE(1, 2);
    CAPTURE(v.name, r);
    int T = v.default_tile;
    if (auto e = tile_error(v.id, T, r, Precision::f32, backend.limits())) T = runnable_tiles(v.id, r, Precision::f32).back();
    const LaunchRequest req{v.id, T, r, Precision::f32, {45, 38, 27}};
    const Field<float> in = small_integer_field<float>(req.dims, 7);
    const StencilWeights w = small_integer_weights(r, 11);
    const Reference ref = reference_stencil(in, w);
    Field<float> out = poisoned_output(in, r);
    backend.execute(req, w, in.data.data(), out.data.data());
    const CompareResult res = compare_with_reference(out, ref, Precision::f32);
    CAPTURE(res.summary());
    REQUIRE((res.ok && res.max_abs_err == 0.0));
}

}  // namespace stencil
