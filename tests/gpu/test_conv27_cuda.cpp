// conv27 on the GPU against the fp64 reference: nvcc's build of kernels/conv27.cuh with the dense
// cube uploaded by its launch unit (backends/cuda/weights_dense_cube.cuh). The version-table sweep
// (test_kernels_cuda.cpp) covers its default tile; these cases add every radius and a grid that is not a multiple of the
// block, and the 512^3 grid its time is compared with naive's on. Correctness only: the timing
// beside naive is `stencil-lab run --kernel conv27 --size 512` (a benchmark, not a test).
#include <catch2/catch.hpp>

#include "core/run.h"
#include "tests/gpu/gpu_fixture.h"

namespace stencil {

TEST_CASE("conv27 matches the fp64 reference on the GPU", "[kernel][gpu]") {
    Backend& backend = test::gpu();
    const KernelVersion& v = version(KernelId::conv27);
    const int r = GENERATE(1, 2, 3, 4);
    const Precision p = GENERATE(Precision::f32, Precision::f64);
    const int T = GENERATE(4, 8, 10);
    const GridDims d{131, 67, 45};  // no side a multiple of any T
    CAPTURE(T, r, to_string(p));
    RunOptions opt;
    opt.request = {v.id, T, r, p, d};
    opt.seed = 91 + static_cast<std::uint64_t>(T * 10 + r);
    opt.time = false;
    const RunReport rep = run_kernel(backend, opt);
    CAPTURE(rep.check.summary());
    REQUIRE(rep.ok);
}

TEST_CASE("conv27 at its default tile is correct on the 512^3 grid", "[kernel][gpu]") {
    Backend& backend = test::gpu();
    const KernelVersion& v = version(KernelId::conv27);
    const Precision p = GENERATE(Precision::f32, Precision::f64);
    CAPTURE(to_string(p));
    RunOptions opt;
    opt.request = {v.id, v.default_tile, 1, p, {512, 512, 512}};
    opt.time = false;
    const RunReport rep = run_kernel(backend, opt);
    CAPTURE(rep.check.summary());
    REQUIRE(rep.ok);
}

}  // namespace stencil
