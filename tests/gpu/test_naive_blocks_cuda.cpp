// naive on blocks of the user's shape on the GPU (`run --block`): the textbook's 32x4x2 and others
// against the fp64 reference, on grids no side of the block divides; the GPU's own launch of the
// same LaunchRequest::block the CPU backend runs in tests/cpu/test_naive_blocks_cpu.cpp.
#include <catch2/catch.hpp>

#include "core/run.h"
#include "tests/gpu/gpu_fixture.h"

namespace stencil {

TEST_CASE("naive on 32x4x2, 16x8x1, 8x8x8 and 64x2x1 blocks matches the fp64 reference on the GPU", "[kernel][gpu]") {
    Backend& backend = test::gpu();
    const Dim3 block = GENERATE(Dim3{32, 4, 2}, Dim3{16, 8, 1}, Dim3{8, 8, 8}, Dim3{64, 2, 1});
    const int r = GENERATE(1, 2, 3, 4);
    const Precision p = GENERATE(Precision::f32, Precision::f64);
    const GridDims d = GENERATE(GridDims{131, 67, 45}, GridDims{256, 256, 256});
    CAPTURE(block.x, block.y, block.z, r, to_string(p), d.nx, d.ny, d.nz);
    RunOptions opt;
    opt.request.kernel = KernelId::naive;
    opt.request.radius = r;
    opt.request.precision = p;
    opt.request.dims = d;
    opt.request.block = block;
    opt.seed = 5 + static_cast<std::uint64_t>(r);
    opt.time = false;
    const RunReport rep = run_kernel(backend, opt);
    CAPTURE(rep.check.summary());
    REQUIRE((rep.ok && rep.geometry.block == block));
}

}  // namespace stencil
