// The warp access pattern (model.h: warp_pattern): each kernel's global load instructions, and
// for each the requests, rows, sectors and lines of a warp, counted exactly over every warp of the
// launch by classes of warps that behave alike (the streaming kernel's rows of vectors have their
// own enumeration below).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

#include "analysis/model.h"
#include "analysis/model_detail.h"
#include "core/error.h"
#include "kernels/stencil_shape.h"

namespace stencil::analysis {

using detail::ceil_div;
using detail::check_arguments;
using detail::streaming_end_first;
using detail::streaming_planes;

namespace {

struct Offset3 {
    int dx = 0, dy = 0, dz = 0;
};

// The global load instructions of each kernel: a name and, for the naive kernel, the neighbour's
// offset; for the z-marching kernels a plane index (see the loop in warp_pattern).
constexpr int kMarchPlane = -1;  // plane i + r of each step
struct LoadInstr {
    std::string name;
    Offset3 off;
    int plane = 0;  // z-marching: prologue p (0..2r-1) or kMarchPlane
};

std::vector<LoadInstr> load_instructions(KernelId k, int radius, int bytes) {
    std::vector<LoadInstr> v;
    // The shape decides the loads (kernels/version_shapes.h): a version of an existing shape needs
    // no case of its own.
    switch (version(k).shared) {
        case SharedTile::none:
            if (version(k).weights == WeightLayout::dense_cube) {  // the whole cube: z, then y, then x
                for (int dz = -radius; dz <= radius; ++dz)
                    for (int dy = -radius; dy <= radius; ++dy)
                        for (int dx = -radius; dx <= radius; ++dx)
                            v.push_back({fmt::format("({:+d},{:+d},{:+d})", dx, dy, dz), {dx, dy, dz}, 0});
                break;
            }
            v.push_back({"centre", {}, 0});  // the star: the centre, then its 6r neighbours
            for (int d = 1; d <= radius; ++d) {
                const char* names[6] = {"x-", "x+", "y-", "y+", "z-", "z+"};
                const Offset3 o[6] = {{-d, 0, 0}, {d, 0, 0}, {0, -d, 0},
                                      {0, d, 0},  {0, 0, -d}, {0, 0, d}};
                for (int s = 0; s < 6; ++s) v.push_back({fmt::format("{}{}", names[s], d), o[s], 0});
            }
            break;
        case SharedTile::whole_tile: v.push_back({"tile", {}, 0}); break;
        case SharedTile::stencil_planes:
        case SharedTile::one_plane:
        case SharedTile::halo_plane:
            for (int p = 0; p < 2 * radius; ++p)
                v.push_back({fmt::format("prologue plane z{:+d}", p - radius), {}, p});
            v.push_back({fmt::format("march plane z+{}", radius), {}, kMarchPlane});
            break;
        case SharedTile::strip_edges: {  // each cell of the strip: the march's first plane, then each step's next
            const int V = cells_per_thread(k, bytes);
            auto cell = [&](int c, int e) { return V > 1 ? fmt::format("row +{}, cell +{}", c, e) : fmt::format("row +{}", c); };
            for (int c = 0; c < rows_per_thread(k); ++c)
                for (int e = 0; e < V; ++e) v.push_back({"first plane, " + cell(c, e), {e, c, 0}, 0});
            for (int c = 0; c < rows_per_thread(k); ++c)
                for (int e = 0; e < V; ++e) v.push_back({"march plane p+1, " + cell(c, e), {e, c, 0}, kMarchPlane});
            break;
        }
        case SharedTile::row_tile:  // warp rows of vectors: streaming_warp_pattern
            break;
    }
    return v;
}


struct Acc {
    long long requests = 0, rows = 0, sectors = 0, lines = 0, bytes = 0;
    void add(const Acc& o) {
        requests += o.requests;
        rows += o.rows;
        sectors += o.sectors;
        lines += o.lines;
        bytes += o.bytes;
    }
    WarpLoad finish(const std::string& name) const {
        WarpLoad w;
        w.name = name;
        w.requests = requests;
        if (requests) {
            w.rows = double(rows) / requests;
            w.sectors = double(sectors) / requests;
            w.lines = double(lines) / requests;
        }
        w.efficiency = sectors ? double(bytes) / (32.0 * sectors) : 0;
        return w;
    }
};

// Distinct values of a short array (sorted in place when it is not already).
int distinct(long long* a, int n) {
    if (n == 0) return 0;
    if (!std::is_sorted(a, a + n)) std::sort(a, a + n);
    int d = 1;
    for (int i = 1; i < n; ++i) d += a[i] != a[i - 1];
    return d;
}

// One activity class of blocks along an axis: the local thread indices [lo, hi) whose cells are
// active, and how many blocks of the class have their origin at each residue mod L (the values
// per 128-byte line), the only thing about a block's position that sectors and lines depend on.
struct AxisClass {
    int lo = 0, hi = 0;
    std::vector<long long> residues;  // size L
};

// Groups the blocks (or z-planes) of an axis by their active interval. `origin(b)` is the
// linear-index contribution of item b's first cell (x0, y0 nx or z0 nx ny), `interval(b)` its
// active local range.
template <class Origin, class Interval>
std::vector<AxisClass> axis_classes(int items, int L, Origin origin, Interval interval) {
    std::vector<AxisClass> out;
    for (int b = 0; b < items; ++b) {
        auto [lo, hi] = interval(b);
        if (lo >= hi) continue;  // no active lane along this axis: the warp issues nothing
        auto it = std::find_if(out.begin(), out.end(),
                               [&](const AxisClass& c) { return c.lo == lo && c.hi == hi; });
        if (it == out.end()) {
            out.push_back({lo, hi, std::vector<long long>(L, 0)});
            it = out.end() - 1;
        }
        const long long o = origin(b);
        ++it->residues[((o % L) + L) % L];
    }
    return out;
}

// What every step of warp_pattern reads: the launch's shape and the kernel's load instructions.
struct WarpLaunch {
    WarpLaunch(KernelId k, int T_, int radius, Precision p, GridDims g_, std::optional<Dim3> block, int z_chunk)
        : geo(launch_geometry(k, T_, radius, p, g_, block, 1, z_chunk)), g(g_), T(T_), r(radius), OUT(geo.out_tile),
          bytes(bytes_of(p)), L(128 / bytes), plane((long long)g_.nx * g_.ny), threads(geo.block.count()),
          warps(int((threads + 31) / 32)), instrs(load_instructions(k, radius, bytes_of(p))),
          naive(!version(k).halo_in_tile), zmarch(marches_in_z(k)), temporal(version(k).threads == ThreadShape::warp_strips),
          ystride(rows_per_thread(k)), xstride(temporal ? cells_per_thread(k, bytes_of(p)) : 1) {}
    LaunchGeometry geo;
    GridDims g;
    int T, r, OUT, bytes;
    int L;                   // values per 128-byte line
    long long plane;         // cells per z-plane
    long long threads;       // per block
    int warps;               // per block
    std::vector<LoadInstr> instrs;
    bool naive;      // blocks of outputs, no halo in the tile
    bool zmarch;
    bool temporal;   // a z-chunk per block, its own column only (one step per launch here)
    int ystride;     // rows between threads ty and ty + 1 (a strip's rows: load instruction dy = row)
    int xstride;     // cells between lanes tx and tx + 1 (a strip lane's V cells: load instruction dx = cell)

    // Along x and y: blocks b with first cell b S + shift (naive: S = the block's side along the
    // axis, T or the user's block, shift 0; the tiled kernels: S = OUT, shift -r) and lanes active
    // where the cell is interior (naive) or inside.
    // A strip's thread ty loads row ty S + dy (S = ystride): its active threads are those whose row
    // is inside the grid.
    std::pair<int, int> interval(int n, int b, const LoadInstr& ins, int axis) const {
        if (naive) {
            const int S = side(axis);
            return {std::max(0, r - b * S), std::min(S, n - r - b * S)};
        }
        const int S = axis == 2 ? ystride : xstride, dy = axis == 2 ? ins.off.dy : ins.off.dx;
        const long long lo_cell = r - (long long)b * out(axis) - dy, hi_cell = n + r - (long long)b * out(axis) - dy;
        return {int(std::max<long long>(0, ceil_div<long long>(lo_cell, S))),
                int(std::min<long long>(side(axis), ceil_div<long long>(hi_cell, S)))};
    }
    long long first(int b, int axis) const { return naive ? (long long)b * side(axis) : (long long)b * out(axis) - r; }
    // Outputs a block advances along the axis: out_width along x (a warp-wide tile's), else OUT.
    int out(int axis) const { return axis == 1 ? geo.out_width : OUT; }
    int side(int axis) const { return axis == 1 ? geo.block.x : axis == 2 ? geo.block.y : geo.block.z; }
};

using ClassesPerInstr = std::vector<std::vector<AxisClass>>;

// The x (or y) classes of each instruction: every instruction shares the first one's.
ClassesPerInstr xy_classes(const WarpLaunch& w, int axis) {
    const int n_instr = int(w.instrs.size());
    const int blocks = axis == 1 ? w.geo.grid.x : w.geo.grid.y;
    const int n = axis == 1 ? w.g.nx : w.g.ny;
    const long long stride = axis == 1 ? 1 : w.g.nx;
    ClassesPerInstr cls(n_instr);
    for (int ins = 0; ins < n_instr; ++ins) {
        if (ins > 0 && (axis == 1 ? w.xstride == 1 : w.ystride == 1)) {  // a strip's rows differ along y, its cells along x
            cls[ins] = cls[0];
            continue;
        }
        cls[ins] = axis_classes(blocks, w.L, [&](int b) { return w.first(b, axis) * stride; },
                                [&](int b) { return w.interval(n, b, w.instrs[ins], axis); });
    }
    return cls;
}

// Along z: blocks for naive and tiled; for the z-marching kernels each load instruction issues
// one request per plane it loads (prologue: one per block; march: OUT per block), and a plane
// outside the grid issues nothing.
ClassesPerInstr z_classes(const WarpLaunch& w) {
    const int n_instr = int(w.instrs.size());
    const GridDims& g = w.g;
    const int r = w.r;
    ClassesPerInstr zcls(n_instr);
    for (int ins = 0; ins < n_instr; ++ins) {
        if (!w.zmarch) {
            if (ins == 0)
                zcls[0] = axis_classes(w.geo.grid.z, w.L, [&](int b) { return w.first(b, 3) * w.plane; },
                                       [&](int b) { return w.interval(g.nz, b, w.instrs[0], 3); });
            else
                zcls[ins] = zcls[0];
            continue;
        }
        std::vector<int> planes;
        for (int bz = 0; bz < w.geo.grid.z; ++bz) {
            // The planes a block computes: OUT_TILE_DIM from iStart, or temporal's interior part
            // of its z-chunk (it loads nothing when that is empty).
            auto [iBegin, iEnd] = w.temporal
                                      ? streaming_planes(bz, w.geo.out_planes, g.nz, r)
                                      : std::pair<int, int>{bz * w.OUT, bz * w.OUT + w.OUT};
            if (iBegin >= iEnd) continue;
            if (w.temporal) {  // planes [max(0, iBegin - r), iEnd + r): the first, then the march
                const int first = std::max(0, iBegin - r);
                if (w.instrs[ins].plane >= 0) planes.push_back(first);
                else
                    for (int q = first + 1; q < std::min(g.nz, iEnd + r); ++q) planes.push_back(q);
                continue;
            }
            if (w.instrs[ins].plane >= 0) planes.push_back(iBegin - r + w.instrs[ins].plane);
            else
                for (int i = iBegin; i < iEnd; ++i) planes.push_back(i + r);
        }
        zcls[ins] = axis_classes(int(planes.size()), w.L, [&](int i) { return planes[i] * w.plane; },
                                 [&](int i) {
                                     const bool in = planes[i] >= 0 && planes[i] < g.nz;
                                     return std::pair<int, int>{0, in ? 1 : 0};
                                 });
    }
    return zcls;
}

// One warp's request of one instruction, for the blocks of one class whose first cell is at
// residue `res` (`m` of them): the active lanes' sectors, lines and rows, and how many lanes are
// active (0: the whole warp skips the load).
Acc warp_request(const WarpLaunch& w, int warp, const AxisClass& xc, const AxisClass& yc, const AxisClass& zc,
                 Offset3 off, long long lift, int res, long long m, int& active) {
    const GridDims& g = w.g;
    const int Bx = w.geo.block.x, By = w.geo.block.y;
    long long sec[32], lin[32], row[32];
    const int n_threads = int(std::min<long long>(32, w.threads - 32LL * warp));
    active = 0;
    for (int l = 0; l < n_threads; ++l) {
        const int t = 32 * warp + l;
        const int tx = t % Bx, ty = (t / Bx) % By, tz = t / (Bx * By);
        if (tx < xc.lo || tx >= xc.hi || ty < yc.lo || ty >= yc.hi || tz < zc.lo || tz >= zc.hi) continue;
        const long long rel_row = (long long)(tz + off.dz) * g.ny + (long long)ty * w.ystride + off.dy;
        const long long cell = lift + res + (long long)tx * w.xstride + off.dx + rel_row * g.nx;
        sec[active] = cell * w.bytes / 32;
        lin[active] = cell * w.bytes / 128;
        row[active] = rel_row;
        ++active;
    }
    Acc a;
    if (!active) return a;
    a.requests = m;
    a.bytes = m * active * w.bytes;
    a.sectors = m * distinct(sec, active);
    a.lines = m * distinct(lin, active);
    a.rows = m * distinct(row, active);
    return a;
}

// Every warp of every class, per instruction: all requests, and those of full warps.
void count_requests(const WarpLaunch& w, const ClassesPerInstr& xcls, const ClassesPerInstr& ycls,
                    const ClassesPerInstr& zcls, std::vector<Acc>& acc_all, std::vector<Acc>& acc_full) {
    const int L = w.L;
    // Keeps every relative address non-negative so that / 32 and / 128 are floor divisions;
    // a whole number of lines, so the counts do not change.
    const long long lift = (long long)L * ((long long)(w.r + 2) * (1 + w.g.nx + w.plane) / L + 1);
    std::vector<long long> xy(L), hist(L);
    for (int ins = 0; ins < int(w.instrs.size()); ++ins)
        for (const auto& xc : xcls[ins])
            for (const auto& yc : ycls[ins]) {
                // residue histograms combine by convolution mod L: x first, then y, then z
                std::fill(xy.begin(), xy.end(), 0);
                for (int a = 0; a < L; ++a)
                    if (xc.residues[a])
                        for (int b = 0; b < L; ++b) xy[(a + b) % L] += xc.residues[a] * yc.residues[b];
                for (const auto& zc : zcls[ins]) {
                    std::fill(hist.begin(), hist.end(), 0);
                    for (int a = 0; a < L; ++a)
                        if (xy[a])
                            for (int c = 0; c < L; ++c) hist[(a + c) % L] += xy[a] * zc.residues[c];
                    for (int res = 0; res < L; ++res) {
                        if (!hist[res]) continue;
                        for (int warp = 0; warp < w.warps; ++warp) {
                            int active = 0;
                            const Acc a =
                                warp_request(w, warp, xc, yc, zc, w.instrs[ins].off, lift, res, hist[res], active);
                            if (!active) continue;  // the whole warp skips the load: no request
                            acc_all[ins].add(a);
                            if (active == 32) acc_full[ins].add(a);
                        }
                    }
                }
            }
}

// Each load's figures and the totals, from the counts of all requests and of full warps.
void add_warp_loads(WarpPattern& wp, const std::vector<std::string>& names, const std::vector<Acc>& acc_all,
                    const std::vector<Acc>& acc_full) {
    Acc tot_all, tot_full;
    for (size_t i = 0; i < names.size(); ++i) {
        wp.all.push_back(acc_all[i].finish(names[i]));
        wp.interior.push_back(acc_full[i].finish(names[i]));
        tot_all.add(acc_all[i]);
        tot_full.add(acc_full[i]);
    }
    const WarpLoad a = tot_all.finish("all"), f = tot_full.finish("interior");
    wp.sectors_per_request = a.sectors;
    wp.lines_per_request = a.lines;
    wp.efficiency = a.efficiency;
    wp.requests = tot_all.requests;
    wp.sectors = tot_all.sectors;
    wp.bytes_requested = tot_all.bytes;
    wp.interior_sectors_per_request = f.sectors;
    wp.interior_lines_per_request = f.lines;
    wp.interior_efficiency = f.efficiency;
    wp.full_warp_requests = tot_full.requests;
}

// The per-instruction and total figures, from the counts of all requests and of full warps.
WarpPattern summarize_warp_loads(const WarpLaunch& w, const std::vector<Acc>& acc_all, const std::vector<Acc>& acc_full) {
    WarpPattern wp;
    wp.grid = w.g;
    wp.block_x = w.geo.block.x;
    // The rows one warp covers: 32 lanes over rows of Bx threads, but never more rows than the
    // block has (a 3x3x3 block is one warp of 27 threads in 9 rows).
    wp.rows_per_warp = ceil_div(int(std::min<long long>(32, w.threads)), wp.block_x);
    std::vector<std::string> names;
    for (const auto& ins : w.instrs) names.push_back(ins.name);
    add_warp_loads(wp, names, acc_all, acc_full);
    return wp;
}

// Why the figures are what they are. The text (003) says a warp of an 8x8x8 block "loads 4
// rows of 8 values": 4 separate places, hence 4 sectors if each row were one aligned 32-byte
// sector. That holds for the centre, y and z loads; the x-1 and x+1 loads are the same rows
// shifted by one value, so each row straddles two sectors: 8. An interior warp therefore
// averages (5 x 4 + 2 x 8) / 7 = 36/7 = 5.14 sectors per request, not 4. ncu reports 5.07 on
// the whole N = 256 grid because boundary warps have inactive lanes: a warp holding the row
// y = 0 or y = N-1 has 3 active rows (27 sectors for its 7 requests), a warp at x = 0 or
// x = N-1 saves a sector per row on x-1 or x+1, and warps in the planes z = 0 and z = N-1
// have no active lane and issue no request at all. Averaging every request gives 5.07.
std::string warp_pattern_explanation(KernelId k, int T, int radius, Precision p, const WarpLaunch& w,
                                     const WarpPattern& wp) {
    const GridDims& g = w.g;
    const Dim3& b = w.geo.block;
    const std::string shape = b == Dim3{T, T, T} || !version(k).takes_block ? fmt::format("T={}", T)
                                                                           : fmt::format("block {}x{}x{}", b.x, b.y, b.z);
    std::string text = fmt::format(
        "{} {}, r={}, {}: a block of {} threads ({} wide) is {} warp(s); the first spans {} "
        "row(s) of the block. ",
        version(k).name, shape, radius, to_string(p), w.threads, wp.block_x, w.warps, wp.rows_per_warp);
    if (wp.full_warp_requests)
        text += fmt::format("Interior (full) warps: {:.2f} sectors and {:.2f} lines of 128 B per "
                            "request, {:.0f}% of each fetched sector used. ",
                            wp.interior_sectors_per_request, wp.interior_lines_per_request,
                            100 * wp.interior_efficiency);
    else
        text += fmt::format("Interior (full) warps: none (no warp of this launch has all 32 lanes "
                            "active{}). ",
                            w.threads < 32 ? ": the block is smaller than a warp" : "");
    text += fmt::format("Over every request of the {}x{}x{} grid, boundary warps included: {:.3f} "
                        "sectors per request.",
                        g.nx, g.ny, g.nz, wp.sectors_per_request);
    if (k == KernelId::naive && T == 8 && b == Dim3{8, 8, 8} && radius == 1 && p == Precision::f32)
        text +=
            " The text's '4 rows of 8 values' is 4 sectors for the centre, y and z loads (each "
            "row one aligned 32-byte sector); x-1 and x+1 shift every row by 4 B across a sector "
            "edge: 8 sectors. So an interior warp averages (5x4 + 2x8)/7 = 36/7 = 5.14, not 4. "
            "ncu's 5.07 (H100, N = 256) is lower because warps at the faces have inactive "
            "lanes: the rows y = 0 and y = N-1 drop out (3 rows: 27 sectors per 7 requests), "
            "lanes at x = 0 and x = N-1 save a sector on x-1 and x+1, and warps in the planes "
            "z = 0 and z = N-1 issue nothing.";
    else if (k == KernelId::tiled)
        text += fmt::format(
            " Tile rows start at x = b*{} - {}: not a multiple of 8 values, so most rows straddle "
            "two sectors.", w.OUT, radius);
    return text;
}

// ---- the streaming kernel's warp pattern -----------------------------------------------------
// A streaming warp is one row of its block (blockDim.x = 32): lane tx owns the V cells from
// x0 = (32 bx + tx) V (kernels/streaming.cuh). Its global loads: the queue (each column's planes
// iBegin - r .. iEnd + r - 1 of its chunk), the halo rows (warps ty < r: rows r below and above
// the block, each computed plane) and the rows' ends (lanes tx < q west and tx >= 32 - q east,
// q = 1..Q, each computed plane, lanes inside the grid only: one value at a time, only the cells
// within r of the lane's own vector). The queue and halo rows are one 16-byte load per lane when
// the vector lies inside the row and rows are whole vectors (nx % V == 0), else V loads of one
// value (load e: the lanes whose cell x + e is inside the row): separate requests.
// A request's sectors depend on the x-block and on the residue mod L of its row's first cell
// (j nx + z nx ny); rows and planes enter only through that residue, so they are counted as
// histograms and the requests of one x-block are evaluated once per residue. Exact.
struct StreamingLoadKind {
    std::string name;
    int q = 0;          // the row's ends: vectors to the west (-q) or east (+q) of the lane's own; 0: own
    int rows = 0;       // 0: the block's own rows, -1: the halo rows below, +1: those above
    bool every_computed_plane = false;  // else the queue's planes
    int element = -1;   // the row's ends: the one value of that vector it loads (else the vector)
};

// The streaming kernel's load instructions: the queue, the halo rows, and each value of the rows'
// ends (Q vectors a side, the values within r of the lane's own vector).
std::vector<StreamingLoadKind> streaming_load_kinds(int Q, int V, int r) {
    std::vector<StreamingLoadKind> kinds{{"queue plane", 0, 0, false},
                                         {"halo row below", 0, -1, true},
                                         {"halo row above", 0, +1, true}};
    for (int q = 1; q <= Q; ++q)
        for (int e = streaming_end_first(q, V, r); e < V; ++e) {
            // West: value e of the vector q to the west; east: the mirrored value V - 1 - e.
            kinds.push_back({fmt::format("row end west {}.{}", q, e), -q, 0, true, e});
            kinds.push_back({fmt::format("row end east {}.{}", q, V - 1 - e), +q, 0, true, V - 1 - e});
        }
    return kinds;
}

int residue(long long v, int L) { return int(((v % L) + L) % L); }

// Residues mod L of the first cells of the rows a kind loads (the same for every x-block): the
// block's own rows (rows 0), or the r halo rows below (-1) or above (+1) it.
std::vector<long long> streaming_row_residues(const LaunchGeometry& geo, GridDims g, int T, int r, int L,
                                              int rows) {
    std::vector<long long> h(L, 0);
    for (int by = 0; by < geo.grid.y; ++by)
        for (int ty = 0; ty < (rows == 0 ? T : r); ++ty) {
            const int j = rows == 0 ? by * T + ty : rows < 0 ? by * T - r + ty : by * T + T + ty;
            if (j >= 0 && j < g.ny) ++h[residue((long long)j * g.nx, L)];
        }
    return h;
}

// Residues mod L of the planes' first cells: the queue's [iBegin - r, iEnd + r) per chunk, or the
// computed planes.
std::vector<long long> streaming_plane_residues(const LaunchGeometry& geo, GridDims g, int r, int L, bool computed) {
    const long long plane = (long long)g.nx * g.ny;
    std::vector<long long> h(L, 0);
    for (int bz = 0; bz < geo.grid.z; ++bz) {
        auto [b, e] = streaming_planes(bz, geo.out_planes, g.nz, r);
        if (b >= e) continue;
        for (int z = computed ? b : b - r; z < (computed ? e : e + r); ++z) ++h[residue(z * plane, L)];
    }
    return h;
}

std::string streaming_explanation(const WarpPattern& wp, int T, int r, Precision p, GridDims g, int V) {
    const int Q = (r + V - 1) / V;
    return fmt::format(
        "streaming T={}, r={}, {}: a block of 32 x {} threads, a warp per row, each lane one 16-byte vector "
        "({} values): a full warp's request is 512 contiguous bytes, {:.2f} sectors and {:.2f} lines per "
        "request, {:.0f}% of each fetched sector used. At a row's ends {} lane(s) a side load the r cells "
        "beyond it from the next block, one value each; the halo rows are r = {} warps a block. Over every "
        "request of the {}x{}x{} grid: {:.3f} sectors per request{}.",
        T, r, to_string(p), T, V, wp.interior_sectors_per_request, wp.interior_lines_per_request,
        100 * wp.interior_efficiency, Q, r, g.nx, g.ny, g.nz, wp.sectors_per_request,
        g.nx % V == 0 ? "" : fmt::format(" (rows of {} cells are not whole vectors: every load is {} loads of one value)",
                                         g.nx, V));
}

WarpPattern streaming_warp_pattern(int T, int r, Precision p, GridDims g, int z_chunk) {
    constexpr KernelId k = KernelId::streaming;
    const int bytes = bytes_of(p), V = cells_per_thread(k, bytes), Q = (r + V - 1) / V, L = 128 / bytes;
    const LaunchGeometry geo = launch_geometry(k, T, r, p, g, std::nullopt, 1, z_chunk);
    const bool aligned = g.nx % V == 0;
    const std::vector<StreamingLoadKind> kinds = streaming_load_kinds(Q, V, r);
    const long long lift = (long long)L * 4;  // keeps x0 - Q V + lift >= 0: floor divisions below

    std::vector<Acc> all(kinds.size()), full(kinds.size());
    for (size_t kind = 0; kind < kinds.size(); ++kind) {
        const auto& K = kinds[kind];
        const auto rows = streaming_row_residues(geo, g, T, r, L, K.rows);
        const auto planes = streaming_plane_residues(geo, g, r, L, K.every_computed_plane);
        std::vector<long long> count(L, 0);
        for (int a = 0; a < L; ++a)
            for (int b = 0; b < L; ++b) count[(a + b) % L] += rows[a] * planes[b];
        const int lane_lo = K.q > 0 ? 32 - K.q : 0, lane_hi = K.q < 0 ? -K.q : 32;
        for (int bx = 0; bx < geo.grid.x; ++bx)
            for (int res = 0; res < L; ++res) {
                if (!count[res]) continue;
                // One vector request (lanes on the vector path), then V value requests; a row's
                // end loads one value.
                for (int e = -1; e < V; ++e) {
                    if (K.element >= 0 && e != K.element) continue;
                    long long sec[32 * 4], lin[32 * 4];
                    int n = 0, lanes = 0;
                    for (int tx = lane_lo; tx < lane_hi; ++tx) {
                        const int x0 = (32 * bx + tx) * V;
                        if (K.q != 0 && x0 >= g.nx) continue;  // the row's ends: lanes inside the grid
                        const int start = x0 + K.q * V;
                        const bool vector = K.element < 0 && aligned && start >= 0 && start + V <= g.nx;
                        if (e < 0 ? !vector : vector) continue;
                        bool any = false;
                        for (int c = e < 0 ? 0 : e; c < (e < 0 ? V : e + 1); ++c) {
                            const int x = start + c;
                            if (x < 0 || x >= g.nx) continue;
                            const long long cell = lift + res + x;
                            sec[n] = cell * bytes / 32;
                            lin[n] = cell * bytes / 128;
                            ++n;
                            any = true;
                        }
                        lanes += any;
                    }
                    if (!lanes) continue;
                    Acc a;
                    a.requests = count[res];
                    a.rows = count[res];
                    a.bytes = count[res] * n * bytes;
                    a.sectors = count[res] * distinct(sec, n);
                    a.lines = count[res] * distinct(lin, n);
                    all[kind].add(a);
                    if (lanes == 32) full[kind].add(a);
                }
            }
    }
    WarpPattern wp;
    wp.grid = g;
    wp.block_x = 32;
    wp.rows_per_warp = 1;
    std::vector<std::string> names;
    for (const auto& kind : kinds) names.push_back(kind.name);
    add_warp_loads(wp, names, all, full);
    wp.explanation = streaming_explanation(wp, T, r, p, g, V);
    return wp;
}

}  // namespace

WarpPattern warp_pattern(KernelId k, int T, int radius, Precision p, GridDims g, std::optional<Dim3> block,
                         int z_chunk) {
    check_arguments(k, T, radius);
    if (auto e = grid_error(g, radius)) throw UserError(*e);
    if (block)
        if (auto e = block_error(k, *block)) throw UserError(*e);
    if (z_chunk != 0)
        if (auto e = z_chunk_error(k, z_chunk)) throw UserError(*e);
    if (version(k).threads == ThreadShape::warp_rows) return streaming_warp_pattern(T, radius, p, g, z_chunk);
    const WarpLaunch w(k, T, radius, p, g, block, z_chunk);
    // Enumerating every warp of the launch costs O(N^3) (a 1000^3 grid: 3 x 10^7 warps). Instead,
    // warps are grouped by what decides their counts: which lanes are active (the block's active
    // interval along each axis: the first, interior and last blocks differ) and where the block's
    // first cell falls within a 128-byte line (its linear index mod L). Two warps that agree on
    // both touch the same pattern of sectors and lines, shifted by whole lines, so one of each
    // class is evaluated and weighted by how many there are. Exact, not an estimate.
    std::vector<Acc> acc_all(w.instrs.size()), acc_full(w.instrs.size());
    count_requests(w, xy_classes(w, 1), xy_classes(w, 2), z_classes(w), acc_all, acc_full);
    WarpPattern wp = summarize_warp_loads(w, acc_all, acc_full);
    wp.explanation = warp_pattern_explanation(k, T, radius, p, w, wp);
    return wp;
}
}  // namespace stencil::analysis
