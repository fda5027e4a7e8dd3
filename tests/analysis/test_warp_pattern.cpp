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

struct WarpLoads {
    long long requests = 0, sectors = 0, lines = 0, bytes = 0, full_requests = 0;

    // One request of a warp: the cells its active lanes load (`lanes` of 32 take part), B bytes each.
    void add_request(const std::vector<long long>& cells, int B, int lanes) {
        if (cells.empty()) return;
        std::set<long long> sec, lin;
        for (long long cell : cells) sec.insert(cell * B / 32), lin.insert(cell * B / 128);
        ++requests;
        sectors += (long long)sec.size();
        lines += (long long)lin.size();
        bytes += (long long)cells.size() * B;
        full_requests += lanes == 32;
    }
};

// Every thread of every block, as the kernels index it: global loads of each warp, in program
// order, one request per load instruction executed with >= 1 active lane.
WarpLoads warp_loads_by_brute_force(KernelId k, int T, int r, Precision p, GridDims g) {
    const int B = bytes_of(p);
    const bool conv27 = k == KernelId::conv27;  // naive's threads, a load for every cell of the cube
    const bool naive = k == KernelId::naive || conv27, tiled = k == KernelId::tiled;
    const int OUT = naive ? T : T - 2 * r;
    const int bx_n = (g.nx + OUT - 1) / OUT, by_n = (g.ny + OUT - 1) / OUT, bz_n = (g.nz + OUT - 1) / OUT;
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
    WarpLoads c;
    auto issue = [&](const std::vector<long long>& cells) { c.add_request(cells, B, int(cells.size())); };
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

// streaming (kernels/streaming.cuh): 32 x T threads, a warp per row; lane tx owns the V cells from
// x0 = (32 bx + tx) V. A queue or halo-row load is one 16-byte access per lane when its vector lies
// inside the row and nx % V == 0, else V accesses of one value (each a request of the lanes whose
// cell is inside); at a row's ends, the lanes load the cells within r beyond it one at a time.
WarpLoads brute_force_streaming(int T, int r, Precision p, GridDims g) {
    const int B = bytes_of(p), V = 16 / B, W = 32 * V, Q = (r + V - 1) / V;
    const int chunk = version(KernelId::streaming).z_chunk;
    const int bz_n = (g.nz + chunk - 1) / chunk, Z = (g.nz + bz_n - 1) / bz_n;
    const bool aligned = g.nx % V == 0;
    WarpLoads c;
    auto issue = [&](const std::vector<long long>& cells, int lanes) { c.add_request(cells, B, lanes); };
    std::vector<long long> cells;
    for (int bz = 0; bz < bz_n; ++bz)
        for (int by = 0; by < (g.ny + T - 1) / T; ++by)
            for (int bx = 0; bx < (g.nx + W - 1) / W; ++bx)
                for (int ty = 0; ty < T; ++ty) {  // one warp per row of threads
                    const int b = std::max(bz * Z, r), e = std::min(bz * Z + Z, g.nz - r);
                    if (b >= e) continue;
                    const int j = by * T + ty;
                    // Lanes [lo, hi) load the vector dq vectors beside their own in row jj of plane
                    // z (`inside`: only lanes whose own cells are in the grid).
                    auto load = [&](int jj, int z, int dq, int lo, int hi, bool inside) {
                        const long long row = ((long long)z * g.ny + jj) * g.nx;
                        for (int part = -1; part < V; ++part) {  // the vector load, then value loads
                            cells.clear();
                            int lanes = 0;
                            for (int tx = lo; tx < hi; ++tx) {
                                const int x0 = (32 * bx + tx) * V, start = x0 + dq * V;
                                if (inside && (x0 >= g.nx || j >= g.ny)) continue;
                                const bool vector = aligned && start >= 0 && start + V <= g.nx;
                                if (part < 0 && vector) {
                                    for (int q = 0; q < V; ++q) cells.push_back(row + start + q);
                                    ++lanes;
                                } else if (part >= 0 && !vector && start + part >= 0 && start + part < g.nx) {
                                    cells.push_back(row + start + part);
                                    ++lanes;
                                }
                            }
                            issue(cells, lanes);
                        }
                    };
                    for (int z = b - r; z < e + r; ++z) load(j, z, 0, 0, 32, true);  // the queue
                    if (ty < r) {                                                    // the halo rows
                        const int below = by * T - r + ty, above = by * T + T + ty;
                        for (int z = b; z < e; ++z) {
                            if (below >= 0) load(below, z, 0, 0, 32, false);
                            if (above < g.ny) load(above, z, 0, 0, 32, false);
                        }
                    }
                    // The rows' ends: lanes tx < q (tx >= 32 - q) load, one value at a time, the
                    // cells of the vector q to their west (east) within r of their own vector.
                    auto end_value = [&](int z, int lo, int hi, int dx) {
                        cells.clear();
                        for (int tx = lo; tx < hi; ++tx) {
                            const int x0 = (32 * bx + tx) * V, x = x0 + dx;
                            if (x0 < g.nx && j < g.ny && x >= 0 && x < g.nx)
                                cells.push_back(((long long)z * g.ny + j) * g.nx + x);
                        }
                        issue(cells, int(cells.size()));
                    };
                    for (int z = b; z < e; ++z)
                        for (int q = 1; q <= Q; ++q)
                            for (int d = 1; d <= r; ++d) {  // cell x0 - d west, x0 + V - 1 + d east
                                if (d <= (q - 1) * V || d > q * V) continue;  // in another vector
                                end_value(z, 0, q, -d);
                                end_value(z, 32 - q, 32, V - 1 + d);
                            }
                }
    return c;
}

// temporal (kernels/temporal.cuh), one step per launch: a tile 32 V cells wide (from bx (32 V - 2r)
// - r, V cells a lane) and T rows tall (from by (T - 2r) - r), a warp per strip of 4 rows; per plane
// of the march (max(0, b - r) .. min(nz, e + r) - 1 of its z-chunk's interior planes [b, e)) each
// cell of each row of the strip is one load of the lanes whose cell is in the grid.
WarpLoads brute_force_temporal(int T, int r, Precision p, GridDims g) {
    const int B = bytes_of(p), S = kTemporalStripRows, V = temporal_lane_cells(B), W = 32 * V - 2 * r,
              OUT = T - 2 * r;
    const int chunk = version(KernelId::temporal).z_chunk;
    const int bz_n = (g.nz + chunk - 1) / chunk, Z = (g.nz + bz_n - 1) / bz_n;
    WarpLoads c;
    std::vector<long long> cells;
    for (int bz = 0; bz < bz_n; ++bz) {
        const int b = std::max(bz * Z, r), e = std::min(bz * Z + Z, g.nz - r);
        if (b >= e) continue;
        for (int by = 0; by < (g.ny + OUT - 1) / OUT; ++by)
            for (int bx = 0; bx < (g.nx + W - 1) / W; ++bx)
                for (int strip = 0; strip < T / S; ++strip)
                    for (int z = std::max(0, b - r); z < std::min(g.nz, e + r); ++z)
                        for (int row = 0; row < S; ++row)
                            for (int e = 0; e < V; ++e) {
                                const int y = by * OUT - r + strip * S + row;
                                cells.clear();
                                for (int tx = 0; tx < 32; ++tx) {
                                    const int x = bx * W - r + tx * V + e;
                                    if (x >= 0 && x < g.nx && y >= 0 && y < g.ny)
                                        cells.push_back(((long long)z * g.ny + y) * g.nx + x);
                                }
                                c.add_request(cells, B, int(cells.size()));
                            }
    }
    return c;
}

void require_same(KernelId k, int T, int r, Precision p, GridDims g) {
    CAPTURE(version(k).name, T, r, to_string(p), g.nx, g.ny, g.nz);
    const WarpLoads b = k == KernelId::streaming  ? brute_force_streaming(T, r, p, g)
                     : k == KernelId::temporal ? brute_force_temporal(T, r, p, g)
                                               : warp_loads_by_brute_force(k, T, r, p, g);
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
        if (!tile_fits(v.id, T, r, bytes_of(p))) continue;
        require_same(v.id, T, r, p, g);
    }
    if (v.id == KernelId::coarsened || v.id == KernelId::register_tiled || v.id == KernelId::temporal)
        require_same(v.id, 16, r, p, g);
}

// Rows of whole vectors (16-byte loads) and not (value loads), several blocks along x (the rows'
// ends reach into the next block), several z-chunks, fp64's two vectors a side at r >= 3.
TEST_CASE("warp pattern: streaming across blocks and z-chunks, vectors and values", "[analysis]") {
    const Precision p = GENERATE(Precision::f32, Precision::f64);
    const int nz = 2 * version(KernelId::streaming).z_chunk + 11;
    for (int r : {1, 3, 4})
        for (int T : {4, 8, 16})
            for (int nx : {21, 136, 260}) require_same(KernelId::streaming, T, r, p, {nx, 11, nz});
}

// Several tiles along x and y (two and three strips), several z-chunks, grids that do not divide.
TEST_CASE("warp pattern: temporal across tiles, strips and z-chunks", "[analysis]") {
    const Precision p = GENERATE(Precision::f32, Precision::f64);
    const int nz = 2 * version(KernelId::temporal).z_chunk + 11;
    for (int r : {1, 3})
        for (int T : {16, 24, 64})
            for (int nx : {21, 70}) require_same(KernelId::temporal, T, r, p, {nx, 37, nz});
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
        const int T = v.threads == ThreadShape::cube ? 10 : v.default_tile;  // 10^3: 1000 threads
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
