// naive on blocks of the user's shape (`run --block`, LaunchRequest::block): the textbook's 32x4x2
// and friends against the fp64 reference on the CPU backend, on grids no block side divides; and
// the shapes and versions a block is refused for, in one sentence each.
#include <catch2/catch.hpp>

#include <string>

#include "backends/cpu/cpu_backend.h"
#include "core/error.h"
#include "core/run.h"

using namespace stencil;

namespace {
LaunchRequest naive_on(Dim3 block, int r, Precision p, GridDims d) {
    LaunchRequest req;
    req.kernel = KernelId::naive;
    req.radius = r;
    req.precision = p;
    req.dims = d;
    req.block = block;
    return req;
}
}  // namespace

TEST_CASE("naive on 32x4x2, 16x8x1 and 8x8x8 blocks matches the fp64 reference", "[cpu][kernel]") {
    const Dim3 block = GENERATE(Dim3{32, 4, 2}, Dim3{16, 8, 1}, Dim3{8, 8, 8});
    const Precision p = GENERATE(Precision::f32, Precision::f64);
    const int r = GENERATE(1, 2, 4);
    // Odd sides: partial blocks on every face (and x wider than one 32-wide block).
    const GridDims d{37, 13, 11};
    CAPTURE(block.x, block.y, block.z, to_string(p), r);
    auto backend = make_cpu_backend();
    RunOptions opt;
    opt.request = naive_on(block, r, p, d);
    opt.seed = 31 + static_cast<std::uint64_t>(r);
    opt.time = false;
    const RunReport rep = run_kernel(*backend, opt);
    CAPTURE(rep.check.summary());
    REQUIRE((rep.ok && rep.geometry.block == block &&
             rep.geometry.grid == Dim3{(37 + block.x - 1) / block.x, (13 + block.y - 1) / block.y,
                                       (11 + block.z - 1) / block.z}));
}

TEST_CASE("a block shape: parsed strictly, refused for other versions and past CUDA's limits", "[cpu][kernel]") {
    REQUIRE(parse_block("32x4x2") == Dim3{32, 4, 2});
    REQUIRE(parse_block("1X1X64") == Dim3{1, 1, 64});
    for (const char* bad : {"", "32x4", "32x4x2x1", "32x0x2", "x4x2", "32x4x", "32*4*2", "-1x4x2", "32x4x2 "})
        REQUIRE_FALSE(parse_block(bad).has_value());
    REQUIRE_FALSE(block_error(KernelId::naive, {32, 32, 1}).has_value());
    const auto too_many = block_error(KernelId::naive, {32, 32, 2});
    REQUIRE((too_many && too_many->find("2048 threads") != std::string::npos));
    const auto deep = block_error(KernelId::naive, {1, 1, 65});
    REQUIRE((deep && deep->find("64") != std::string::npos));
    const auto tiled = block_error(KernelId::tiled, {32, 4, 2});
    REQUIRE((tiled && tiled->find("--block applies to naive only") != std::string::npos));
    // The backend says the same before it runs anything.
    auto backend = make_cpu_backend();
    RunOptions opt;
    opt.request = naive_on({64, 32, 1}, 1, Precision::f32, {16, 16, 16});
    REQUIRE_THROWS_AS(run_kernel(*backend, opt), UserError);
    opt.request.kernel = KernelId::register_tiled;
    opt.request.block = Dim3{8, 8, 1};
    REQUIRE_THROWS_WITH(run_kernel(*backend, opt), Catch::Contains("--block applies to naive only"));
}
