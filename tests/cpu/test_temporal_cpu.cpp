// Issue 13: S time steps (`run --steps S`) on the CPU backend. The temporal kernel, K steps fused
// per launch, against two independent oracles: S steps of the fp64 reference within the S-step
// bound (core/compare.h), and S launches of the naive kernel bit for bit (temporal.cuh sums in
// naive's order). Every other version's S steps against the reference too.
#include <catch2/catch.hpp>

#include <cstring>
#include <memory>

#include "core/backend.h"
#include "core/compare.h"
#include "core/field.h"
#include "core/reference.h"
#include "core/run.h"

using namespace stencil;

namespace {

// The smallest built tile of at least two strips (so that strips exchange their edge rows) that
// leaves at least `out` output rows after K fused steps; 0 when the warp-wide tile has no room.
int tile_for(int radius, int K, int out) {
    for (int t : built_tiles())
        if (t >= 2 * kTemporalStripRows && t - 2 * radius * K >= out && tile_fits(KernelId::temporal, t, radius, 8) &&
            fuse_fits(KernelId::temporal, t, radius, K))
            return t;
    return 0;
}

// S steps of `req` on the CPU backend, the output starting poisoned as run_kernel's does.
template <class real>
Field<real> steps_on_cpu(Backend& b, const LaunchRequest& req, const Field<real>& in, const StencilWeights& w) {
    Field<real> out = poisoned_output(in, req.radius);
    b.execute(req, w, in.data.data(), out.data.data());
    return out;
}

// Weights of sum |w| = 1 (run_kernel's for S steps), rounded to the precision.
StencilWeights stable_weights(int radius, Precision p) {
    StencilWeights w = random_weights(radius, 11);
    double sum = 0;
    for (int n = 0; n < coefficient_count(radius); ++n) sum += std::abs(w.c[n]);
    for (int n = 0; n < coefficient_count(radius); ++n) w.c[n] /= sum;
    return w.rounded_to(p);
}

struct Outcome {
    CompareResult vs_reference;
    long long differing_from_naive = -1;  // cells whose bits differ from S naive launches
};

template <class real>
Outcome temporal_case(int radius, Precision p, int K, int steps, int tile, GridDims d) {
    const auto backend = make_cpu_backend();
    const Field<real> in = random_field<real>(d, 40 + steps);
    const StencilWeights w = stable_weights(radius, p);
    LaunchRequest t{KernelId::temporal, tile, radius, p, d};
    t.steps = steps;
    t.fuse = K;
    LaunchRequest n{KernelId::naive, 8, radius, p, d};
    n.steps = steps;
    const Field<real> got = steps_on_cpu(*backend, t, in, w);
    const Field<real> naive = steps_on_cpu(*backend, n, in, w);
    Outcome o;
    o.vs_reference = compare_with_reference(got, reference_steps(in, w, steps), p);
    o.differing_from_naive = 0;
    for (std::size_t c = 0; c < got.data.size(); ++c)
        o.differing_from_naive += std::memcmp(&got.data[c], &naive.data[c], sizeof(real)) != 0;
    return o;
}

Outcome temporal_case(int radius, Precision p, int K, int steps, int tile, GridDims d) {
    return p == Precision::f32 ? temporal_case<float>(radius, p, K, steps, tile, d)
                               : temporal_case<double>(radius, p, K, steps, tile, d);
}

}  // namespace

TEST_CASE("launches: S steps split into passes of K, the last one shorter", "[steps]") {
    LaunchRequest r{KernelId::temporal, 16, 1, Precision::f32, {20, 20, 20}};
    r.steps = 5;
    r.fuse = 2;
    std::vector<int> got;
    for (const auto& l : launches(r)) got.push_back(l.steps);
    REQUIRE(got == std::vector<int>{2, 2, 1});
    r.fuse = 0;  // the row's default K
    REQUIRE(version(KernelId::temporal).fused_steps == 3);
    r.steps = 7;
    got.clear();
    for (const auto& l : launches(r)) got.push_back(l.steps);
    REQUIRE(got == std::vector<int>{3, 3, 1});
    LaunchRequest n{KernelId::tiled, 8, 1, Precision::f32, {20, 20, 20}};
    n.steps = 3;  // a one-step version: one launch per step
    REQUIRE(launches(n).size() == 3);
    REQUIRE(launch_geometry(r).out_tile == 16 - 2 * 3);  // T - 2rK rows
    REQUIRE(launch_geometry(r).out_width == 64 - 2 * 3);  // 32 V - 2rK across the warp, V = 2 floats
}

TEST_CASE("temporal: S = 1..5 steps with K = 2..4 equal S naive launches bit for bit", "[cpu][kernel][steps]") {
    const int K = GENERATE(2, 3, 4);
    const int S = GENERATE(1, 2, 3, 4, 5);
    const GridDims d{12, 10, 9};  // odd, non-cubic, smaller than the tile: blocks at every face
    const int T = tile_for(1, K, 2);
    CAPTURE(K, S, T);
    const Outcome o = temporal_case(1, Precision::f32, K, S, T, d);
    CAPTURE(o.vs_reference.summary());
    REQUIRE((o.vs_reference.ok && o.differing_from_naive == 0));
}

TEST_CASE("temporal: every radius, precision and K on odd grids, passes of K then fewer", "[cpu][kernel][steps]") {
    const int r = GENERATE(1, 2, 3, 4);
    const Precision p = GENERATE(Precision::f32, Precision::f64);
    const int K = GENERATE(2, 3, 4);
    const int T = tile_for(r, K, 1);
    if (T == 0) {  // r = 4, K = 4: 2rK = 32 leaves no room in fp64's 32-wide tile
        REQUIRE(fuse_error(KernelId::temporal, 64, r, K).has_value());
        return;
    }
    // Two blocks along x and y, neither a multiple of the outputs per block (32 V - 2rK across,
    // T - 2rK down), every side past the 2rK halo.
    const int W = 32 * temporal_lane_cells(bytes_of(p)) - 2 * r * K, OUT = T - 2 * r * K;
    const GridDims d{W + 3 + r, OUT + 2 + r, 2 * r * K + 3};
    const int S = K + 1;
    CAPTURE(r, to_string(p), K, T, S, d.nx, d.ny, d.nz);
    const Outcome o = temporal_case(r, p, K, S, T, d);
    CAPTURE(o.vs_reference.summary());
    REQUIRE((o.vs_reference.ok && o.differing_from_naive == 0));
}

TEST_CASE("run --steps: every version's S steps pass against S steps of the reference", "[cpu][kernel][steps]") {
    const auto& v = GENERATE(from_range(kernel_versions().begin(), kernel_versions().end()));
    const Precision p = GENERATE(Precision::f32, Precision::f64);
    const auto backend = make_cpu_backend();
    RunOptions opt;
    // temporal fuses K = 3 by default: its tile (small_tile, 16) exceeds 2rK = 12
    opt.request = {v.id, v.small_tile, 2, p, {13, 11, 10}};
    opt.request.steps = 3;
    opt.time = false;
    CAPTURE(v.name, to_string(p));
    const RunReport rep = run_kernel(*backend, opt);
    CAPTURE(rep.check.summary());
    REQUIRE((rep.ok && rep.check.gamma > rounding_gamma(p, 2)));
}

TEST_CASE("the S-step check fails a kernel that does one step too few", "[cpu][steps]") {
    // Two steps of naive against three of the reference: the bound must not hide a whole step.
    const GridDims d{11, 9, 10};
    const auto backend = make_cpu_backend();
    const Field<float> in = random_field<float>(d, 5);
    const StencilWeights w = stable_weights(1, Precision::f32);
    LaunchRequest n{KernelId::naive, 8, 1, Precision::f32, d};
    n.steps = 2;
    const Field<float> got = steps_on_cpu(*backend, n, in, w);
    REQUIRE_FALSE(compare_with_reference(got, reference_steps(in, w, 3), Precision::f32).ok);
    REQUIRE(compare_with_reference(got, reference_steps(in, w, 2), Precision::f32).ok);
}

TEST_CASE("temporal: the pipeline restarts at every z-chunk", "[cpu][kernel][steps]") {
    const Precision p = GENERATE(Precision::f32, Precision::f64);
    const int K = 3, T = 16;
    const GridDims d{9, 8, 2 * version(KernelId::temporal).z_chunk + 5};  // two chunks and a part
    CAPTURE(to_string(p));
    LaunchRequest req{KernelId::temporal, T, 1, p, d};
    req.fuse = K;
    req.steps = K;
    REQUIRE(launch_geometry(req).grid.z == 3);
    const Outcome o = temporal_case(1, p, K, 4, T, d);
    CAPTURE(o.vs_reference.summary());
    REQUIRE((o.vs_reference.ok && o.differing_from_naive == 0));
}
