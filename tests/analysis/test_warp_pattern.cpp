// warp_pattern groups warps into classes; here every warp of the launch is enumerated one lane at
// a time, written from the kernels' index arithmetic (not from the model's code), and the two must
// agree exactly. The N = 256 figures are also pinned to the H100's ncu counts.
#include <catch2/catch.hpp>

#include <ctime>

#include <algorithm>
#include <chrono>
#include <set>

#include "analysis/model.h"

using namespace stencil;
using namespace stencil::analysis;

namespace {

struct Counts {
    long long requests = 0, sectors = 0, lines = 0, bytes = 0, full_requests = 0;
};

// Every thread of every block, as the kernels index it: global loads of each warp, in program
// order, one request per load instruction executed with >= 1 active lane.
Counts brute_force(KernelId k, int T, int r, Precision p, GridDims g) {
    const int B = bytes_of(p);
    const bool conv27 = k == KernelId::conv27;  // naive's threads, a load for every cell of the cube
    const bool naive = k == KernelId::naive || conv27, tiled = k == KernelId::tiled;
    const bool streaming = k == KernelId::streaming;
    const bool temporal = k == KernelId::temporal;  // one step per launch (K = 1), chunked like streaming
    const int OUT = naive || streaming ? T : T - 2 * r;
    // streaming: the row's z-chunk, evened out to ceil(nz / blocks) as the kernel does
    const int chunk = std::max(1, version(k).z_chunk);
    const int bz_stream = (g.nz + chunk - 1) / chunk, Z = (g.nz + bz_stream - 1) / bz_stream;
    const int bx_n = (g.nx + OUT - 1) / OUT, by_n = (g.ny + OUT - 1) / OUT,
              bz_n = streaming || temporal ? bz_stream : (g.nz + OUT - 1) / OUT;
    const int tz_n = naive || tiled ? T : 1;
    const int threads = T * T * tz_n;
    // (dx, dy, dz) of each load instruction; for z-marching, dz is a plane selector handled below
    std::vector<std::array<int, 3>> offs;
    if (conv27) {
        for (int dz = -r; dz <= r; ++dz)
            for (int dy = -r; dy <= r; ++dy)
                for (int dx = -r; dx <= r; ++dx) offs.push_back({dx, dy, dz});
    } else if (naive) {
        offs.push_back({0, 0, 0});
        for (int d = 1; d <= r; ++d)
            for (int s : {-d, d}) offs.insert(offs.end(), {{s, 0, 0}, {0, s, 0}, {0, 0, s}});
    }
    Counts c;
    auto issue = [&](const std::vector<long long>& cells) {
        if (cells.empty()) return;
        std::set<long long> sec, lin;
        for (long long cell : cells) {
            sec.insert(cell * B / 32);
            lin.insert(cell * B / 128);
        }
        ++c.requests;
        c.sectors += (long long)sec.size();
        c.lines += (long long)lin.size();
        c.bytes += (long long)cells.size() * B;
        c.full_requests += cells.size() == 32;
    };
    auto in_grid = [&](long long x, long long y, long long z) {
        return x >= 0 && x < g.nx && y >= 0 && y < g.ny && z >= 0 && z < g.nz;
    };
    auto idx = [&](long long x, long long y, long long z) { return (z * g.ny + y) * g.nx + x; };
    std::vector<long long> cells;
    for (int bz = 0; bz < bz_n; ++bz)
        for (int by = 0; by < by_n; ++by)
            for (int bx = 0; bx < bx_n; ++bx)
                for (int w0 = 0; w0 < threads; w0 += 32) {
                    const int w1 = std::min(threads, w0 + 32);
                    auto lane = [&](int t, int& tx, int& ty, int& tz) {
                        tx = t % T;
                        ty = (t / T) % T;
                        tz = t / (T * T);
                    };
                    if (naive) {
                        for (const auto& o : offs) {
                            cells.clear();
                            for (int t = w0; t < w1; ++t) {
                                int tx, ty, tz;
                                lane(t, tx, ty, tz);
                                const int x = bx * T + tx, y = by * T + ty, z = bz * T + tz;
                                if (x < r || y < r || z < r || x >= g.nx - r || y >= g.ny - r || z >= g.nz - r)
                                    continue;  // the kernel's boundary test: no load
                                cells.push_back(idx(x + o[0], y + o[1], z + o[2]));
                            }
                            issue(cells);
                        }
                    } else if (tiled) {
                        cells.clear();
                        for (int t = w0; t < w1; ++t) {
                            int tx, ty, tz;
                            lane(t, tx, ty, tz);
                            const int x = bx * OUT + tx - r, y = by * OUT + ty - r, z = bz * OUT + tz - r;
                            if (in_grid(x, y, z)) cells.push_back(idx(x, y, z));
                        }
                        issue(cells);
                    } else if (streaming) {
                        // the kernel's program order: prologue planes b - r .. b + r - 1, then per
                        // plane i: the queue's top i + r, the x ring (low, high) and the y ring
                        const int b = std::max(bz * Z, r), e = std::min(bz * Z + Z, g.nz - r);
                        if (b >= e) continue;
                        auto own = [&](int zp) {
                            cells.clear();
                            for (int t = w0; t < w1; ++t) {
                                int tx, ty, tz;
                                lane(t, tx, ty, tz);
                                const int x = bx * T + tx, y = by * T + ty;
                                if (x < g.nx && y < g.ny) cells.push_back(idx(x, y, zp));
                            }
                            issue(cells);
                        };
                        for (int zp = b - r; zp < b + r; ++zp) own(zp);
                        for (int i = b; i < e; ++i) {
                            own(i + r);
                            for (int axis = 0; axis < 2; ++axis)
                                for (int s0 = 0; s0 < r; s0 += T)
                                    for (int side = 0; side < 2; ++side) {
                                        cells.clear();
                                        for (int t = w0; t < w1; ++t) {
                                            int tx, ty, tz;
                                            lane(t, tx, ty, tz);
                                            const int s = (axis == 0 ? tx : ty) + s0;
                                            if (s >= r) continue;
                                            int x = bx * T + tx, y = by * T + ty;
                                            int& a = axis == 0 ? x : y;
                                            a = (axis == 0 ? bx : by) * T + (side == 0 ? s - r : T + s);
                                            if (in_grid(x, y, i)) cells.push_back(idx(x, y, i));
                                        }
                                        issue(cells);
                                    }
                        }
                    } else if (temporal) {
                        // its own column over planes max(0, b - r) .. min(nz, e + r) - 1, in order
                        const int b = std::max(bz * Z, r), e = std::min(bz * Z + Z, g.nz - r);
                        if (b >= e) continue;
                        for (int zp = std::max(0, b - r); zp < std::min(g.nz, e + r); ++zp) {
                            cells.clear();
                            for (int t = w0; t < w1; ++t) {
                                int tx, ty, tz;
                                lane(t, tx, ty, tz);
                                const int x = bx * OUT + tx - r, y = by * OUT + ty - r;
                                if (in_grid(x, y, zp)) cells.push_back(idx(x, y, zp));
                            }
                            issue(cells);
                        }
                    } else {
                        // prologue: planes iStart - r .. iStart + r - 1; march: iStart + r .. + OUT - 1 + r
                        const int iStart = bz * OUT;
                        for (int zp = iStart - r; zp < iStart + OUT + r; ++zp) {
                            cells.clear();
                            for (int t = w0; t < w1; ++t) {
                                int tx, ty, tz;
                                lane(t, tx, ty, tz);
                                const int x = bx * OUT + tx - r, y = by * OUT + ty - r;
                                if (in_grid(x, y, zp)) cells.push_back(idx(x, y, zp));
                            }
                            issue(cells);
                        }
                    }
                }
    return c;
}

void require_same(KernelId k, int T, int r, Precision p, GridDims g) {
    CAPTURE(version(k).name, T, r, to_string(p), g.nx, g.ny, g.nz);
    const Counts b = brute_force(k, T, r, p, g);
    const WarpPattern w = warp_pattern(k, T, r, p, g);
    REQUIRE(w.requests == b.requests);
    REQUIRE(w.sectors == b.sectors);
    REQUIRE(w.bytes_requested == b.bytes);
    REQUIRE(w.full_warp_requests == b.full_requests);
    double lines = 0;
    for (const auto& l : w.all) lines += l.lines * double(l.requests);
    REQUIRE(lines == Approx(double(b.lines)));
}

}  // namespace

TEST_CASE("warp pattern: the class count equals lane-by-lane enumeration", "[analysis]") {
    const auto& v = GENERATE(from_range(kernel_versions().begin(), kernel_versions().end()));
    const Precision p = GENERATE(Precision::f32, Precision::f64);
    const int r = GENERATE(1, 2);
    // grids that are not multiples of anything, and one too thin for a whole tile
    const GridDims g = GENERATE(GridDims{19, 17, 23}, GridDims{33, 5, 9});
    if (g.ny < 2 * r + 1) return;
    for (int T : {3, 4, 5, 8, 10}) {
        if (v.halo_in_tile && T <= 2 * r) continue;
        if (threads_per_block(v.id, T) > 1024) continue;
        require_same(v.id, T, r, p, g);
    }
    if (v.id == KernelId::coarsened || v.id == KernelId::register_tiled) require_same(v.id, 16, r, p, g);
}

TEST_CASE("warp pattern: streaming across z-chunks, a radius wider than the tile", "[analysis]") {
    const Precision p = GENERATE(Precision::f32, Precision::f64);
    for (int r : {1, 3, 4})
        for (int T : {3, 8, 16}) require_same(KernelId::streaming, T, r, p, {21, 11, 2 * version(KernelId::streaming).z_chunk + 11});
}

TEST_CASE("warp pattern: naive 8^3 at N = 64 and 67 against enumeration", "[analysis]") {
    const Precision p = GENERATE(Precision::f32, Precision::f64);
    for (int n : {64, 67}) require_same(KernelId::naive, 8, 1, p, {n, n, n});
}

TEST_CASE("warp pattern: naive 8^3, N = 256 equals the H100's ncu counts", "[analysis]") {
    // ncu on an H100 (docs/results/h100-counters-naive-256.txt): l1tex requests and sectors.
    const WarpPattern f = warp_pattern(KernelId::naive, 8, 1, Precision::f32, {256, 256, 256});
    REQUIRE(f.requests == 3641344);
    REQUIRE(f.sectors == 18451576);
    REQUIRE(f.sectors_per_request == Approx(18451576.0 / 3641344.0));
    REQUIRE(f.sectors_per_request == Approx(5.067243).margin(5e-7));
    const WarpPattern d = warp_pattern(KernelId::naive, 8, 1, Precision::f64, {256, 256, 256});
    REQUIRE(d.requests == f.requests);  // the same warps and lanes, twice the bytes
    REQUIRE(d.sectors_per_request == Approx(9.035993).margin(5e-7));
}

// Guards against the brute force (hours at N ~ 1000), not a speed target: the thread's own CPU
// time, which a busy machine (other builds, CI neighbours) does not inflate as it does the wall
// clock (3.8 s of wall clock under a load of 9 on 2 cores, 2026-11-24), with a bound far from
// both.
static double thread_cpu_seconds() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

TEST_CASE("warp pattern: any valid grid answers in well under a second", "[analysis]") {
    const double t0 = thread_cpu_seconds();
    for (const auto& v : kernel_versions()) {
        const int T = v.threads == ThreadShape::cube ? 10 : 32;  // the largest T^3 block: 1000 threads
        (void)warp_pattern(v.id, T, 1, Precision::f32, {1000, 1000, 1000});
        (void)warp_pattern(v.id, T, 4, Precision::f64, {1001, 999, 1003});
    }
    const double s = thread_cpu_seconds() - t0;
    CAPTURE(s);
    REQUIRE(s < 4.0);  // a dozen whole-grid patterns at N ~ 1000 (the brute force: hours)
}

TEST_CASE("warp pattern: a block smaller than a warp", "[analysis]") {
    const int T = 3;
    const WarpPattern w = warp_pattern(KernelId::naive, T, 1, Precision::f32, {16, 16, 16});
    // 27 threads are one warp of 9 rows of 3, not ceil(32 / 3) = 11 rows
    REQUIRE(w.rows_per_warp == (T * T * T + T - 1) / T);
    REQUIRE(w.rows_per_warp == T * T);
    REQUIRE(w.full_warp_requests == 0);
    REQUIRE(w.explanation.find("Interior (full) warps: none") != std::string::npos);
    REQUIRE(w.explanation.find("0%") == std::string::npos);
}
