// The streaming kernel on the GPU where the version-table sweep (test_kernels_cuda.cpp) cannot
// reach: grids deeper than its z-chunk, so that several blocks share one column's march, and the
// 512^3 grid its bandwidth target is measured on. Correctness only; the timing against the copy
// bandwidth is `stencil-lab run --kernel streaming --size 512` (the lead's benchmark, not a test).
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <vector>

#include "core/run.h"
#include "tests/gpu/gpu_fixture.h"

namespace stencil {

TEST_CASE("streaming matches the fp64 reference across z-chunks on the GPU", "[kernel][gpu]") {
    Backend& backend = test::gpu();
    const KernelVersion& v = version(KernelId::streaming);
    const int r = GENERATE(1, 2, 3, 4);
    const Precision p = GENERATE(Precision::f32, Precision::f64);
    const DeviceLimits lim = backend.limits();
    const int T = GENERATE_COPY(from_range(sweep_tiles(v.id, r, p, lim)));
    // Odd sides (value loads), a part of a chunk at the end; rows of whole 16-byte vectors over
    // several blocks (vector loads, rows' ends in the next block); chunks that even out to fewer planes.
    const GridDims d = GENERATE_COPY(GridDims{131, 67, 2 * v.z_chunk + 2 * r + 5},
                                     GridDims{264, 37, 2 * v.z_chunk + 2 * r + 5},
                                     GridDims{45, 93, 3 * v.z_chunk + 1});
    const LaunchGeometry geo = launch_geometry(v.id, T, r, p, d);
    CAPTURE(T, r, to_string(p), d.nx, d.ny, d.nz, geo.grid.z, geo.out_planes);
    REQUIRE(geo.grid.z >= 3);

    RunOptions opt;
    opt.request = {v.id, T, r, p, d};
    opt.seed = 77 + static_cast<std::uint64_t>(T * 10 + r);
    opt.time = false;
    const RunReport rep = run_kernel(backend, opt);
    CAPTURE(rep.check.summary());
    REQUIRE(rep.ok);
}

TEST_CASE("streaming at its default tile is correct on the 512^3 benchmark grid", "[kernel][gpu]") {
    Backend& backend = test::gpu();
    const KernelVersion& v = version(KernelId::streaming);
    const int r = GENERATE(1, 4);
    const Precision p = GENERATE(Precision::f32, Precision::f64);
    CAPTURE(r, to_string(p));
    RunOptions opt;
    opt.request = {v.id, v.default_tile, r, p, {512, 512, 512}};
    opt.time = false;
    const RunReport rep = run_kernel(backend, opt);
    CAPTURE(rep.check.summary());
    REQUIRE(rep.ok);
}

}  // namespace stencil
