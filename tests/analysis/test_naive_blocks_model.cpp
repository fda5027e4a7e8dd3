// The coalescing model for naive on blocks of the user's shape (warp_pattern with a block): every
// warp of the launch enumerated lane by lane here, from the kernel's own index arithmetic, must
// give the model's requests and sectors exactly; and the textbook's 32x4x2 block puts a whole
// 128-byte row under each warp, 30/7 sectors per interior request against the cube's 36/7.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <set>
#include <vector>

#include "analysis/model.h"

using namespace stencil;
using namespace stencil::analysis;

namespace {

struct NaiveBlockLoads {
    long long requests = 0, sectors = 0;
};

// naive_kernel's threads: (x, y, z) = block origin + threadIdx, lanes in linear order (x fastest);
// a lane loads when its cell is interior; one request per load instruction with an active lane.
NaiveBlockLoads naive_loads_by_brute_force(Dim3 b, int r, Precision p, GridDims g) {
    const int bytes = bytes_of(p);
    const int threads = int(b.count());
    std::vector<std::array<int, 3>> offs{{0, 0, 0}};
    for (int d = 1; d <= r; ++d)
        for (auto o : {std::array<int, 3>{-d, 0, 0}, {d, 0, 0}, {0, -d, 0}, {0, d, 0}, {0, 0, -d}, {0, 0, d}})
            offs.push_back(o);
    NaiveBlockLoads c;
    for (int bz = 0; bz * b.z < g.nz; ++bz)
        for (int by = 0; by * b.y < g.ny; ++by)
            for (int bx = 0; bx * b.x < g.nx; ++bx)
                for (int w0 = 0; w0 < threads; w0 += 32)
                    for (const auto& o : offs) {
                        std::set<long long> sectors;
                        for (int t = w0; t < std::min(threads, w0 + 32); ++t) {
                            const int x = bx * b.x + t % b.x, y = by * b.y + t / b.x % b.y, z = bz * b.z + t / (b.x * b.y);
                            if (x < r || y < r || z < r || x >= g.nx - r || y >= g.ny - r || z >= g.nz - r) continue;
                            const long long cell = ((long long)(z + o[2]) * g.ny + y + o[1]) * g.nx + x + o[0];
                            sectors.insert(cell * bytes / 32);
                        }
                        if (sectors.empty()) continue;
                        ++c.requests;
                        c.sectors += (long long)sectors.size();
                    }
    return c;
}

}  // namespace

TEST_CASE("naive on a block of the user's shape: the model counts every warp exactly", "[analysis]") {
    const Dim3 block = GENERATE(Dim3{32, 4, 2}, Dim3{16, 8, 1}, Dim3{8, 8, 8}, Dim3{64, 1, 3}, Dim3{5, 3, 7});
    const Precision p = GENERATE(Precision::f32, Precision::f64);
    const int r = GENERATE(1, 2);
    const GridDims g = GENERATE(GridDims{37, 13, 11}, GridDims{70, 9, 6});
    CAPTURE(block.x, block.y, block.z, to_string(p), r, g.nx, g.ny, g.nz);
    const NaiveBlockLoads b = naive_loads_by_brute_force(block, r, p, g);
    const WarpPattern w = warp_pattern(KernelId::naive, 8, r, p, g, block);
    REQUIRE((w.requests == b.requests && w.sectors == b.sectors && w.block_x == block.x));
}

TEST_CASE("the textbook's 32x4x2 block: a warp is one 128-byte row, 30/7 sectors per request", "[analysis]") {
    const GridDims g{256, 256, 256};
    const WarpPattern row = warp_pattern(KernelId::naive, 8, 1, Precision::f32, g, Dim3{32, 4, 2});
    const WarpPattern cube = warp_pattern(KernelId::naive, 8, 1, Precision::f32, g);
    // centre, y and z loads: 4 aligned sectors; x-1 and x+1 straddle one more: 5
    REQUIRE(row.interior_sectors_per_request == Approx((5 * 4 + 2 * 5) / 7.0));
    REQUIRE(cube.interior_sectors_per_request == Approx((5 * 4 + 2 * 8) / 7.0));
    REQUIRE(row.rows_per_warp == 1);
    REQUIRE(row.explanation.find("block 32x4x2") != std::string::npos);
    REQUIRE_THROWS(warp_pattern(KernelId::tiled, 8, 1, Precision::f32, g, Dim3{32, 4, 2}));
}
