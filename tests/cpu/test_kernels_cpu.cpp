// Every kernel x every runnable T x r = 1..4 x fp32/fp64 on the CPU backend against the fp64
// reference, on grids that are not multiples of the tile.
#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

#include "backends/cpu/cpu_backend.h"
#include "core/compare.h"
#include "core/field.h"
#include "core/reference.h"

using namespace stencil;

namespace {

// Three shapes per case: non-cubic and prime-ish (13 x 7 x 11), one plane over the output tile
// on every axis, and long in x / thin in y. Every side at least 2r + 1.
GridDims case_dims(int shape, int out_tile, int r) {
    const int lo = 2 * r + 1;
    auto at_least = [&](int v) { return std::max(v, lo); };
    switch (shape) {
        case 0: return {at_least(13), at_least(7), at_least(11)};
        case 1: return {at_least(out_tile + 1), at_least(out_tile + 1), at_least(out_tile + 1)};
        default: return {at_least(2 * out_tile + 3), lo, at_least(out_tile + 2)};
    }
}

template <class real>
CompareResult run_case(const LaunchRequest& req) {
    const auto in = random_field<real>(req.dims, 100 + req.radius);
    const auto w = random_weights(req.radius, 7).rounded_to(req.precision);
    auto out = poisoned_output(in, req.radius);
    EngineRun run = run_cpu(req, w, in.data.data(), out.data.data());
    if (!run.report.ok) {
        CompareResult bad;
        bad.ok = false;
        return bad;
    }
    return compare_with_reference(out, reference_stencil(in, w), req.precision);
}

}  // namespace

TEST_CASE("every kernel, tile, radius and precision matches the fp64 reference", "[cpu][kernel]") {
    const auto& v = GENERATE(from_range(kernel_versions().begin(), kernel_versions().end()));
    const Precision p = GENERATE(Precision::f32, Precision::f64);
    const int r = GENERATE(1, 2, 3, 4);
    const int T = GENERATE_COPY(from_range(runnable_tiles(v.id, r, p)));
    const int shape = GENERATE(0, 1, 2);
    LaunchRequest req;
    req.kernel = v.id;
    req.tile = T;
    req.radius = r;
    req.precision = p;
    req.dims = case_dims(shape, out_tile(v.id, T, r), r);
    CAPTURE(v.name, to_string(p), r, T, req.dims.nx, req.dims.ny, req.dims.nz);
    const CompareResult res = p == Precision::f32 ? run_case<float>(req) : run_case<double>(req);
    CAPTURE(res.summary());
    REQUIRE(res.ok);
}

// A kernel with a z-chunk (streaming) splits the march between blocks only on grids deeper than
// the chunk: two chunks and a part, every radius and precision, a tile narrower than the radius.
TEST_CASE("z-chunked kernels match the reference across several chunks", "[cpu][kernel]") {
    std::vector<KernelId> chunked;
    for (const auto& v : kernel_versions())
        if (v.z_chunk > 0) chunked.push_back(v.id);
    REQUIRE_FALSE(chunked.empty());
    const KernelId k = GENERATE_COPY(from_range(chunked));
    const Precision p = GENERATE(Precision::f32, Precision::f64);
    const int r = GENERATE(1, 2, 3, 4);
    // The smallest runnable built tile from 3 (or 8) up: streaming's rows need T >= r, temporal's
    // tile must exceed 2r and be whole strips of 4 rows.
    const int from = GENERATE(3, 8);
    int T = 0;
    for (int t : built_tiles())
        if (t >= from && !tile_error(k, t, r, p)) {
            T = t;
            break;
        }
    const int chunk = version(k).z_chunk, part = std::min(2 * r + 3, chunk - 1);  // a part: < one chunk
    LaunchRequest req{k, T, r, p, {11, 9, 2 * chunk + part}};
    const LaunchGeometry geo = launch_geometry(k, T, r, p, req.dims);
    CAPTURE(version(k).name, to_string(p), r, T, req.dims.nz, geo.grid.z, geo.out_planes);
    REQUIRE(geo.grid.z == 3);
    const CompareResult res = p == Precision::f32 ? run_case<float>(req) : run_case<double>(req);
    CAPTURE(res.summary());
    REQUIRE(res.ok);
}

// Warp-wide rows (streaming): a row of several blocks, so that the lanes at a block's ends load
// their x-neighbours from the next block's cells; rows a whole number of vectors long (16-byte
// loads and stores) and not (value by value); a partial last block in x and y.
TEST_CASE("streaming: 16-byte vectors, shuffles and the rows' ends across blocks", "[cpu][kernel]") {
    const KernelId k = KernelId::streaming;
    const Precision p = GENERATE(Precision::f32, Precision::f64);
    const int r = GENERATE(1, 2, 3, 4);
    const int T = GENERATE_COPY(4, 8);
    const int V = cells_per_thread(k, bytes_of(p));
    const int nx = GENERATE_COPY(2 * 32 * V + 2 * V, 32 * V + 5);  // aligned to V, then not
    LaunchRequest req{k, T, r, p, {nx, 2 * T + 3, 2 * r + 7}};
    const LaunchGeometry geo = launch_geometry(k, T, r, p, req.dims);
    CAPTURE(to_string(p), r, T, nx, geo.grid.x, geo.grid.y);
    REQUIRE(geo.grid.x >= 2);
    REQUIRE(geo.block.x == 32);
    const CompareResult res = p == Precision::f32 ? run_case<float>(req) : run_case<double>(req);
    CAPTURE(res.summary());
    REQUIRE(res.ok);
}

TEST_CASE("small integers give results equal to the reference", "[cpu][kernel]") {
    const auto& v = GENERATE(from_range(kernel_versions().begin(), kernel_versions().end()));
    const GridDims d{17, 9, 12};
    const auto in = small_integer_field<float>(d, 3);
    const auto w = small_integer_weights(1, 5);
    const auto ref = reference_stencil(in, w);
    auto out = poisoned_output(in, 1);
    LaunchRequest req{v.id, v.id == KernelId::tiled ? 6 : v.default_tile == 32 ? 8 : v.default_tile, 1,
                      Precision::f32, d};
    CAPTURE(v.name, req.tile);
    REQUIRE(run_cpu(req, w, in.data.data(), out.data.data()).report.clean());
    bool exact = true;
    for (size_t n = 0; n < out.data.size(); ++n) exact = exact && (double)out.data[n] == ref.value[n];
    REQUIRE(exact);
}

TEST_CASE("invalid requests are user errors", "[cpu]") {
    const GridDims d{9, 9, 9};
    std::vector<float> in(d.cells()), out(d.cells());
    const auto w = laplacian_weights(1);
    REQUIRE_THROWS(run_cpu({KernelId::tiled, 11, 1, Precision::f32, d}, w, in.data(), out.data()));
    REQUIRE_THROWS(run_cpu({KernelId::tiled, 8, 1, Precision::f32, {2, 9, 9}}, w, in.data(), out.data()));
}
