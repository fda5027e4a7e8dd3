// The model: see model.h. Pure arithmetic; the only loops are the exact enumerations of a
// launch's warps (warp_pattern) and blocks (exact_grid_traffic).
//
// Sections: small formulas; halos (3D tile, 2D plane, ghost rings); registers; warp access pattern
// (load instructions per kernel, axis classes, warp_pattern); traffic (interior block, exact whole
// grid); valid tiles (tile table, bounds in words); the model (kernel_model and its readable text).
#include "analysis/model.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

#include "core/error.h"
#include "kernels/stencil_shape.h"

namespace stencil::analysis {

namespace {

long long cube(long long a) { return a * a * a; }
long long sq(long long a) { return a * a; }
// ceil(a / b) for b > 0 and any sign of a (C++ division truncates toward zero).
template <class I>
I ceil_div(I a, I b) { return a >= 0 ? (a + b - 1) / b : -((-a) / b); }

void check_arguments(KernelId k, int T, int radius, int fused = 1) {
    if (radius < 1 || radius > kMaxRadius)
        throw UserError(fmt::format("radius {} is outside 1..{}", radius, kMaxRadius));
    if (T < 1) throw UserError(fmt::format("tile {} must be at least 1", T));
    if (version(k).halo_in_tile && T <= 2 * radius)
        throw UserError(fmt::format("{}: tile T={} leaves no output cells: T must exceed 2r = {}",
                                    version(k).name, T, 2 * radius));
    if (auto e = fuse_error(k, T, radius, fused)) throw UserError(*e);
}

}  // namespace

// ---- small formulas --------------------------------------------------------------------------

int pattern_points(PatternShape shape, int dims, int size) {
    // Count the offsets of the window [-e, e]^dims that belong to the shape.
    const int e = shape == PatternShape::star ? size : (size - 1) / 2;
    int n = 0;
    for (int z = dims == 3 ? -e : 0; z <= (dims == 3 ? e : 0); ++z)
        for (int y = -e; y <= e; ++y)
            for (int x = -e; x <= e; ++x) {
                const int off_axis = (x != 0) + (y != 0) + (z != 0);
                n += shape == PatternShape::box || off_axis <= 1;
            }
    return n;
}

std::vector<PatternBound> pattern_bounds() {
    struct Row {
        PatternShape shape;
        int dims, size;
    };
    const Row rows[] = {{PatternShape::star, 2, 1}, {PatternShape::box, 2, 3},
                        {PatternShape::star, 2, 2}, {PatternShape::box, 2, 5},
                        {PatternShape::star, 2, 3}, {PatternShape::box, 2, 7},
                        {PatternShape::star, 3, 3}, {PatternShape::box, 3, 7}};
    std::vector<PatternBound> out;
    for (const Row& r : rows) {
        PatternBound b;
        b.shape = r.shape;
        b.dims = r.dims;
        b.size = r.size;
        b.points = pattern_points(r.shape, r.dims, r.size);
        b.name = r.shape == PatternShape::star
                     ? fmt::format("{}D {}-point star (order {})", r.dims, b.points, r.size)
                     : r.dims == 2 ? fmt::format("{}x{} convolution", r.size, r.size)
                                   : fmt::format("{}x{}x{} convolution", r.size, r.size, r.size);
        b.opb = points_upper_bound_opb(b.points);
        b.opb_exact = exact_upper_bound_opb(b.points);
        out.push_back(b);
    }
    return out;
}

double tiled_opb_textbook(int T) { return 13.0 * cube(T - 2) / (4.0 * cube(T)); }

// ---- halos -----------------------------------------------------------------------------------

Halo halo_2d(int T, int radius) {
    Halo h;
    h.tile_cells = sq(T);
    h.output_cells = T > 2 * radius ? sq(T - 2 * radius) : 0;
    h.halo_cells = h.tile_cells - h.output_cells;
    h.fraction = h.tile_cells ? double(h.halo_cells) / h.tile_cells : 0;
    return h;
}

Halo halo_3d(int T, int radius) {
    Halo h;
    h.tile_cells = cube(T);
    h.output_cells = T > 2 * radius ? cube(T - 2 * radius) : 0;
    h.halo_cells = h.tile_cells - h.output_cells;
    h.fraction = h.tile_cells ? double(h.halo_cells) / h.tile_cells : 0;
    return h;
}

long long ghost_ring_cells(int T, int ring) { return halo_2d(T, ring).halo_cells; }

XDerivativeTile x_derivative_tile(int tile_x, int tile_y, int halo, int nx, int bytes) {
    XDerivativeTile t;
    t.tile_x = tile_x;
    t.tile_y = tile_y;
    t.halo = halo;
    t.outputs = (long long)tile_x * tile_y;
    // A tile spanning the whole x extent of a periodic grid finds its halo inside itself (the
    // "periodic images" copied within shared memory); otherwise both halo columns come from
    // global memory and are the neighbouring tiles' cells: loaded twice.
    const bool whole_pencil = tile_x >= nx;
    t.reloaded = whole_pencil ? 0 : 2LL * halo * tile_y;
    t.loaded = t.outputs + t.reloaded;
    t.reload_share = double(t.reloaded) / t.outputs;
    t.rows_per_warp = ceil_div(32, tile_x);
    const int row_bytes = std::min(32, tile_x) * bytes;  // bytes of one row a warp reads
    t.lines_per_request = t.rows_per_warp * ceil_div(row_bytes, 128);
    t.fully_coalesced = t.rows_per_warp == 1 && row_bytes % 128 == 0;
    return t;
}

// ---- registers -------------------------------------------------------------------------------

std::vector<Offset> star_offsets(int radius) {
    std::vector<Offset> v{{0, 0, 0}};
    for (int d = 1; d <= radius; ++d)
        for (int s : {-d, d}) v.insert(v.end(), {{s, 0, 0}, {0, s, 0}, {0, 0, s}});
    return v;
}

std::vector<Offset> box_offsets(int half) {
    std::vector<Offset> v;
    for (int z = -half; z <= half; ++z)
        for (int y = -half; y <= half; ++y)
            for (int x = -half; x <= half; ++x) v.push_back({x, y, z});
    return v;
}

RegisterAnswer registers_for(const std::string& name, const std::vector<Offset>& offsets) {
    RegisterAnswer a;
    a.stencil = name;
    a.points = int(offsets.size());
    std::vector<std::pair<int, int>> cols{{0, 0}};  // the thread's own column, always
    bool off_column_other_plane = false;
    for (const Offset& o : offsets) {
        a.z_reach = std::max(a.z_reach, std::abs(o.dz));
        if (o.dz == 0) continue;
        if (o.dx || o.dy) off_column_other_plane = true;
        if (std::find(cols.begin(), cols.end(), std::pair{o.dx, o.dy}) == cols.end())
            cols.push_back({o.dx, o.dy});
    }
    a.columns = int(cols.size());
    a.queue_registers = (2 * a.z_reach + 1) * a.columns;
    if (!off_column_other_plane)
        a.note = fmt::format(
            "only the thread's own column reaches other planes (z-{0}..z+{0}): a z-queue of 2 x {0} "
            "+ 1 = {1} registers{2}; the x and y neighbours are other threads' values in the "
            "current plane, read from shared memory. The compiler's count adds the accumulator, "
            "indices and addresses.",
            a.z_reach, a.queue_registers,
            a.z_reach == 1 ? " (the text's inPrev, inCurr, inNext)" : "");
    else
        a.note = fmt::format(
            "offsets with dz != 0 use {0} (dx, dy) columns: values of other threads' columns in "
            "the previous and next planes, which the shared current plane does not hold, so the "
            "text's register tiling (own column only) no longer suffices. Held in registers: {1} "
            "planes x {0} columns = {2} per thread; or keep {1} planes in shared memory (the "
            "coarsened kernel) and {1} partial sums in registers.",
            a.columns, 2 * a.z_reach + 1, a.queue_registers);
    return a;
}

RegisterAnswer registers_star(int radius) {
    return registers_for(fmt::format("3D {}-point star (r = {})", point_count(radius), radius),
                         star_offsets(radius));
}

RegisterAnswer registers_nine_point() {
    // The 7-point star plus (0, 0, +-2): 9 points. No 3D star has 9 points, so the lab takes the
    // reading the question implies (a 9-point pattern reaching further in z) and says the other.
    auto off = star_offsets(1);
    off.push_back({0, 0, -2});
    off.push_back({0, 0, 2});
    RegisterAnswer a = registers_for("3D 9-point (read as the 7-point star plus z-2 and z+2)", off);
    auto flat = star_offsets(1);
    flat.push_back({-2, 0, 0});
    flat.push_back({2, 0, 0});
    a.note += fmt::format(
        " No 3D star stencil has 9 points (6r + 1 = 7, 13, 19, 25): the question's 'nine-point' is "
        "not a symmetric 3D star. Read with its two extra points in the plane (x-2, x+2) instead, it "
        "needs {}.",
        registers_for("", flat).queue_registers);
    return a;
}

RegisterAnswer registers_box27() { return registers_for("3D 27-point box (3x3x3)", box_offsets(1)); }

// ---- warp access pattern ---------------------------------------------------------------------

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

std::vector<LoadInstr> load_instructions(KernelId k, int radius) {
    std::vector<LoadInstr> v;
    switch (k) {
        case KernelId::conv27:  // the whole cube, in the kernel's order: z, then y, then x
            for (int dz = -radius; dz <= radius; ++dz)
                for (int dy = -radius; dy <= radius; ++dy)
                    for (int dx = -radius; dx <= radius; ++dx)
                        v.push_back({fmt::format("({:+d},{:+d},{:+d})", dx, dy, dz), {dx, dy, dz}, 0});
            break;
        case KernelId::naive: {
            v.push_back({"centre", {}, 0});
            const char* names[6] = {"x-", "x+", "y-", "y+", "z-", "z+"};
            for (int d = 1; d <= radius; ++d) {
                const Offset3 o[6] = {{-d, 0, 0}, {d, 0, 0}, {0, -d, 0},
                                      {0, d, 0},  {0, 0, -d}, {0, 0, d}};
                for (int s = 0; s < 6; ++s) v.push_back({fmt::format("{}{}", names[s], d), o[s], 0});
            }
            break;
        }
        case KernelId::tiled: v.push_back({"tile", {}, 0}); break;
        case KernelId::coarsened:
        case KernelId::register_tiled:
            for (int p = 0; p < 2 * radius; ++p)
                v.push_back({fmt::format("prologue plane z{:+d}", p - radius), {}, p});
            v.push_back({fmt::format("march plane z+{}", radius), {}, kMarchPlane});
            break;
        case KernelId::temporal:  // each row of the strip: the march's first plane, then each step's next
            for (int c = 0; c < rows_per_thread(k); ++c) v.push_back({fmt::format("first plane, row +{}", c), {0, c, 0}, 0});
            for (int c = 0; c < rows_per_thread(k); ++c)
                v.push_back({fmt::format("march plane p+1, row +{}", c), {0, c, 0}, kMarchPlane});
            break;
        case KernelId::streaming:  // warp rows of vectors: streaming_warp_pattern
            break;
    }
    return v;
}

// The interior planes [begin, end) of z-block b of the streaming kernel (empty: begin >= end), as
// kernels/streaming.cuh computes them from its z-chunk Z.
std::pair<int, int> streaming_planes(int b, int Z, int nz, int r) {
    return {std::max(b * Z, r), std::min(b * Z + Z, nz - r)};
}

// The values e of the vector q to the west of a streaming lane (east: the same count, mirrored)
// that a lane at a row's end loads: those within r of its own vector, e >= q V - r.
int streaming_end_first(int q, int V, int r) { return std::max(0, q * V - r); }

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
          warps(int((threads + 31) / 32)), instrs(load_instructions(k, radius)),
          naive(!version(k).halo_in_tile), zmarch(marches_in_z(k)), temporal(k == KernelId::temporal),
          ystride(rows_per_thread(k)) {}
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
        const int S = axis == 2 ? ystride : 1, dy = axis == 2 ? ins.off.dy : 0;
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
        if (ins > 0 && (axis == 1 || w.ystride == 1)) {  // a strip's rows differ along y only
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
        const long long cell = lift + res + tx + off.dx + rel_row * g.nx;
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

WarpPattern streaming_warp_pattern(int T, int r, Precision p, GridDims g, int z_chunk) {
    constexpr KernelId k = KernelId::streaming;
    const int bytes = bytes_of(p), V = cells_per_thread(k, bytes), Q = (r + V - 1) / V, L = 128 / bytes;
    const LaunchGeometry geo = launch_geometry(k, T, r, p, g, std::nullopt, 1, z_chunk);
    const bool aligned = g.nx % V == 0;
    const long long plane = (long long)g.nx * g.ny;
    auto mod = [&](long long v) { return int(((v % L) + L) % L); };

    std::vector<StreamingLoadKind> kinds{{"queue plane", 0, 0, false},
                                         {"halo row below", 0, -1, true},
                                         {"halo row above", 0, +1, true}};
    for (int q = 1; q <= Q; ++q)
        for (int e = streaming_end_first(q, V, r); e < V; ++e) {
            // West: value e of the vector q to the west; east: the mirrored value V - 1 - e.
            kinds.push_back({fmt::format("row end west {}.{}", q, e), -q, 0, true, e});
            kinds.push_back({fmt::format("row end east {}.{}", q, V - 1 - e), +q, 0, true, V - 1 - e});
        }
    // Residues of the rows each kind loads (the same for every x-block).
    auto row_histogram = [&](int rows) {
        std::vector<long long> h(L, 0);
        for (int by = 0; by < geo.grid.y; ++by)
            for (int ty = 0; ty < (rows == 0 ? T : r); ++ty) {
                const int j = rows == 0 ? by * T + ty : rows < 0 ? by * T - r + ty : by * T + T + ty;
                if (j >= 0 && j < g.ny) ++h[mod((long long)j * g.nx)];
            }
        return h;
    };
    // Residues of the planes: the queue's [iBegin - r, iEnd + r) per chunk, or the computed ones.
    auto plane_histogram = [&](bool computed) {
        std::vector<long long> h(L, 0);
        for (int bz = 0; bz < geo.grid.z; ++bz) {
            auto [b, e] = streaming_planes(bz, geo.out_planes, g.nz, r);
            if (b >= e) continue;
            for (int z = computed ? b : b - r; z < (computed ? e : e + r); ++z) ++h[mod(z * plane)];
        }
        return h;
    };
    const long long lift = (long long)L * 4;  // keeps x0 - Q V + lift >= 0: floor divisions below

    std::vector<Acc> all(kinds.size()), full(kinds.size());
    for (size_t kind = 0; kind < kinds.size(); ++kind) {
        const auto& K = kinds[kind];
        const auto rows = row_histogram(K.rows), planes = plane_histogram(K.every_computed_plane);
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
    wp.explanation = fmt::format(
        "streaming T={}, r={}, {}: a block of 32 x {} threads, a warp per row, each lane one 16-byte vector "
        "({} values): a full warp's request is 512 contiguous bytes, {:.2f} sectors and {:.2f} lines per "
        "request, {:.0f}% of each fetched sector used. At a row's ends {} lane(s) a side load the r cells "
        "beyond it from the next block, one value each; the halo rows are r = {} warps a block. Over every "
        "request of the {}x{}x{} grid: {:.3f} sectors per request{}.",
        T, r, to_string(p), T, V, wp.interior_sectors_per_request, wp.interior_lines_per_request,
        100 * wp.interior_efficiency, Q, r, g.nx, g.ny, g.nz, wp.sectors_per_request,
        aligned ? "" : fmt::format(" (rows of {} cells are not whole vectors: every load is {} loads of one value)",
                                   g.nx, V));
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
    if (k == KernelId::streaming) return streaming_warp_pattern(T, radius, p, g, z_chunk);
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

// ---- traffic ---------------------------------------------------------------------------------

BlockTraffic interior_block_traffic(KernelId k, int T, int radius, Precision p, int fused) {
    check_arguments(k, T, radius, fused);
    const int bytes = bytes_of(p);
    const long long OUT = out_tile(k, T, radius, fused);
    const int K = steps_per_launch(k, fused);
    BlockTraffic b;
    b.threads = threads_per_block(k, T);
    switch (k) {
        case KernelId::naive:
        case KernelId::conv27:  // every output loads each point it multiplies, zero weight or not
            b.outputs = cube(T);
            b.loads = (long long)executed_points(k, radius) * cube(T);
            break;
        case KernelId::tiled:
            // Every thread stores its input cell; each output reads its 6r + 1 points.
            b.outputs = cube(OUT);
            b.loads = cube(T);
            b.shared_stores = cube(T);
            b.shared_loads = point_count(radius) * cube(OUT);
            break;
        case KernelId::coarsened:
        case KernelId::register_tiled:
            // T^2 values per plane: 2r planes before the march and one per output plane.
            b.outputs = sq(OUT) * OUT;
            b.loads = sq(T) * (OUT + 2 * radius);
            if (k == KernelId::coarsened) {
                // Stores: the 2r planes before the march, then per output plane the new top plane
                // and the 2r-plane shift. Loads: the 6r + 1 points of each output, and the shift
                // reads 2r planes per output plane.
                b.shared_stores = sq(T) * (2LL * radius + OUT * (1 + 2LL * radius));
                b.shared_loads = OUT * (point_count(radius) * sq(OUT) + 2LL * radius * sq(T));
            } else {
                // Only the current plane is shared: published once before the march and once per
                // output plane; each output reads its 4r in-plane neighbours from it.
                b.shared_stores = sq(T) * (1 + OUT);
                b.shared_loads = OUT * (4LL * radius * sq(OUT));
            }
            break;
        case KernelId::streaming: {
            // Z planes of T rows of W = 32 V outputs. Global: the queue loads W T values for each
            // of Z + 2r planes; per plane, the 2r halo rows (W values each) and the rows' ends
            // (lanes tx < q a side, q = 1..Q, each the values of vector q within r of its own).
            // Shared: per plane each thread's vector and the halo rows are stored, and each output
            // reads its 2r y-neighbours.
            const int V = cells_per_thread(k, bytes), Q = (radius + V - 1) / V;
            const long long Z = version(k).z_chunk, W = 32LL * V;
            long long ends = 0;  // values one row's two ends load
            for (int q = 1; q <= Q; ++q) ends += 2LL * q * (V - streaming_end_first(q, V, radius));
            b.outputs = W * T * Z;
            b.loads = W * T * (Z + 2 * radius) + Z * (2LL * radius * W + T * ends);
            b.shared_stores = Z * W * (T + 2LL * radius);
            b.shared_loads = Z * W * T * 2LL * radius;
            break;
        }
        case KernelId::temporal: {
            // Z planes of W_OUT x OUT outputs of level K (W_OUT = 32 - 2rK across the warp-wide
            // tile). The march takes Z + 2rK steps, each loading the next plane of the tile's
            // 32 x T cells; in each step every level t = 1..K is computed on the whole tile (every
            // lane takes part in the shuffles; the cells outside level t's band are the halo's
            // redundant work), and every level 0..K-1 publishes each strip's r first and r last
            // rows. Shared reads: the y-neighbours beyond a strip's ends, r (r + 1) per column
            // and level (d = 1..r rows beyond each end, for the rows within d of it).
            const int S = rows_per_thread(k);
            const long long Z = version(k).z_chunk, steps = Z + 2LL * radius * K;
            const long long W_OUT = out_width(k, T, radius, bytes, K), tile = 32LL * T;
            b.outputs = W_OUT * OUT * Z;
            b.loads = tile * steps;
            const long long computed = tile * K * steps;
            b.shared_stores = (long long)K * (T / S) * 2 * radius * 32 * steps;
            b.shared_loads = 32LL * (T / S) * radius * (radius + 1) * K * steps;
            b.load_bytes = b.loads * bytes;
            b.store_bytes = b.outputs * bytes;
            b.flops = b.outputs * K * flops_per_point(radius);
            b.executed_flops = computed * flops_per_point(radius);
            b.opb = double(b.flops) / b.load_bytes;
            return b;
        }
    }
    b.load_bytes = b.loads * bytes;
    b.store_bytes = b.outputs * bytes;
    b.flops = b.outputs * flops_per_point(radius);
    b.executed_flops = b.outputs * executed_flops_per_point(k, radius);
    b.opb = double(b.flops) / b.load_bytes;
    return b;
}

namespace {
// sum over blocks b of |[b OUT - r, b OUT - r + T) n [0, n)|
long long axis_loads(int n, int T, int OUT, int r) {
    long long s = 0;
    for (int b = 0; b < ceil_div(n, OUT); ++b) {
        const int lo = std::max(0, b * OUT - r), hi = std::min(n, b * OUT - r + T);
        s += std::max(0, hi - lo);
    }
    return s;
}
}  // namespace

GridTraffic exact_grid_traffic(KernelId k, int T, int radius, Precision p, GridDims g, int fused, int z_chunk) {
    check_arguments(k, T, radius, fused);
    if (auto e = grid_error(g, radius)) throw UserError(*e);
    if (z_chunk != 0)
        if (auto e = z_chunk_error(k, z_chunk)) throw UserError(*e);
    const int bytes = bytes_of(p), r = radius;
    const LaunchGeometry geo = launch_geometry(k, T, radius, p, g, std::nullopt, fused, z_chunk);
    GridTraffic t;
    t.blocks = geo.grid.count();
    const long long interior_cells =
        (long long)(g.nx - 2 * r) * (g.ny - 2 * r) * (g.nz - 2 * r);
    if (k == KernelId::temporal) {  // its own cells over the march, the tile rK wider a side
        const int H = r * steps_per_launch(k, fused);
        long long march_planes = 0;
        for (int bz = 0; bz < geo.grid.z; ++bz) {
            auto [b, e] = streaming_planes(bz, geo.out_planes, g.nz, r);
            if (b < e) march_planes += std::min(g.nz, e + H) - std::max(0, b - H);
        }
        t.load_values = axis_loads(g.nx, geo.block.x, geo.out_width, H) * axis_loads(g.ny, T, geo.out_tile, H) *
                        march_planes;
    } else if (version(k).z_chunk > 0) {  // streaming: the queue per column; halo rows, rows' ends per plane
        long long queue_planes = 0, computed_planes = 0;
        for (int bz = 0; bz < geo.grid.z; ++bz) {
            auto [b, e] = streaming_planes(bz, geo.out_planes, g.nz, r);
            if (b < e) queue_planes += e - b + 2 * r, computed_planes += e - b;
        }
        // Halo rows in the grid: r below and r above each block of T rows, clipped at the faces.
        long long halo_rows = 0;
        for (int j0 = 0; j0 < g.ny; j0 += T) halo_rows += std::min(r, j0) + std::clamp(g.ny - j0 - T, 0, r);
        // The rows' ends of one row: lanes tx < q (tx >= 32 - q) inside the grid load the values
        // of the vector q to their west (east) that lie within r of their own, inside the row.
        const int V = cells_per_thread(k, bytes), Q = (r + V - 1) / V;
        long long ends = 0;
        for (int bx = 0; bx < geo.grid.x; ++bx)
            for (int q = 1; q <= Q; ++q)
                for (int i = 0; i < q; ++i) {
                    const int west0 = (32 * bx + i) * V, east0 = (32 * bx + 31 - i) * V;
                    for (int e = streaming_end_first(q, V, r); e < V; ++e) {
                        const int xw = west0 - q * V + e, xe = east0 + q * V + (V - 1 - e);
                        ends += west0 < g.nx && xw >= 0;
                        ends += east0 < g.nx && xe < g.nx;
                    }
                }
        t.load_values = (long long)g.nx * g.ny * queue_planes + computed_planes * (g.nx * halo_rows + g.ny * ends);
    } else if (!version(k).halo_in_tile) {  // every output loads its own points
        t.load_values = interior_cells * executed_points(k, r);
    } else {
        const int OUT = T - 2 * r;
        t.load_values =
            axis_loads(g.nx, T, OUT, r) * axis_loads(g.ny, T, OUT, r) * axis_loads(g.nz, T, OUT, r);
    }
    t.store_values = interior_cells;
    t.load_bytes = t.load_values * bytes;
    t.store_bytes = t.store_values * bytes;
    // A launch fusing K steps updates every interior cell K times (temporal; the halo's redundant
    // cells are interior_block_traffic's executed_flops, not counted here).
    const int K = steps_per_launch(k, fused);
    t.flops = interior_cells * flops_per_point(r) * K;
    t.executed_flops = interior_cells * executed_flops_per_point(k, r) * K;
    t.opb = t.load_bytes ? double(t.flops) / t.load_bytes : 0;
    return t;
}

// ---- bytes per cell update ---------------------------------------------------------------------

UpdateTraffic update_traffic(KernelId k, int T, int radius, Precision p, int fused) {
    if (version(k).z_chunk == 0)  // the z-chunked kernels: streaming and temporal
        throw UserError(fmt::format("bytes per cell update are modelled for streaming and temporal, not {}",
                                    version(k).name));
    const BlockTraffic b = interior_block_traffic(k, T, radius, p, fused);
    UpdateTraffic u;
    u.kernel = k;
    u.tile = T;
    u.radius = radius;
    u.fused = steps_per_launch(k, fused);
    u.z_chunk = version(k).z_chunk;
    u.bytes = bytes_of(p);
    const double updates = double(b.outputs) * u.fused;
    u.requested_bytes = double(b.load_bytes + b.store_bytes) / updates;
    u.l2_bytes = u.requested_bytes;  // no cell is loaded twice by one block: nothing for L1 to serve
    // DRAM: the chunk's own columns over its Z + 2rK planes, read once, and the outputs written once.
    const double Z = u.z_chunk, H = double(radius) * u.fused;
    u.dram_bytes = u.bytes * ((Z + 2 * H) / Z + 1) / u.fused;
    u.copy_bytes = 2.0 * u.bytes;
    u.halo_reread_share = 1.0 - double(b.outputs) / b.loads;
    u.redundant_work_share = 1.0 - double(b.flops) / b.executed_flops;
    u.queue_registers = u.fused * (2 * radius + 1) * rows_per_thread(k);
    u.copy_ratio_bound = u.copy_bytes / u.dram_bytes;
    return u;
}

// ---- valid tiles -----------------------------------------------------------------------------

std::vector<TileStatus> tile_table(KernelId k, int radius, Precision p, int max_tile,
                                   DeviceLimits lim) {
    std::vector<TileStatus> v;
    for (int T = 1; T <= max_tile; ++T) {
        TileStatus s;
        s.tile = T;
        s.fits = tile_fits(k, T, radius, bytes_of(p), lim);
        auto err = tile_error(k, T, radius, p, lim);
        s.runnable = !err;
        if (err) s.reason = *err;
        v.push_back(s);
    }
    return v;
}

int largest_fitting_tile(KernelId k, int radius, Precision p, DeviceLimits lim) {
    int best = 0;
    for (int T = 1; T <= 1024; ++T)
        if (tile_fits(k, T, radius, bytes_of(p), lim)) best = T;
    return best;
}

namespace {

std::string bounds_text(KernelId k, int radius, Precision p, DeviceLimits lim) {
    const int bytes = bytes_of(p);
    int max_threads_T = 0, max_smem_T = 0;
    for (int T = 1; T <= 1024; ++T) {
        if (threads_per_block(k, T) <= lim.max_threads_per_block) max_threads_T = T;
        if (smem_bytes(k, T, radius, bytes) <= lim.max_static_smem_per_block) max_smem_T = T;
    }
    const auto& v = version(k);
    std::string s;
    if (v.halo_in_tile)
        s += fmt::format("lower: T > 2r = {} (OUT_TILE_DIM = T - 2r must be at least 1); ",
                         2 * radius);
    s += fmt::format("threads: {} <= {} per block, so T <= {}; ", threads_formula(k),
                     lim.max_threads_per_block, max_threads_T);
    if (v.shared == SharedTile::none)
        s += "shared memory: none. ";
    else
        s += fmt::format("static shared memory: {} x {} B <= {} B, so T <= {}{}. ",
                         smem_formula(k, radius), bytes, lim.max_static_smem_per_block, max_smem_T,
                         max_smem_T >= max_threads_T ? " (not the binding limit)" : " (binding)");
    if (k == KernelId::tiled && max_threads_T > 2 * radius) {
        // The largest legal T by the thread rule, and the largest whose T^3 is a power of two
        // (the texts' "T <= 8 in practice"); everything computed for this r and precision.
        const int Tm = max_threads_T;
        int Tp = 1;
        while (cube(2 * Tp) <= lim.max_threads_per_block) Tp *= 2;
        const long long th = cube(Tm), rest = th % 32;
        s += fmt::format("T = {} is legal ({} threads <= {}) yet rarely used: {} threads are {:g} "
                         "warps{}, only (T - 2r)^3 = {}^3 = {} of them compute, and its rows of {} "
                         "values ({} B) {} 32-byte sectors",
                         Tm, th, lim.max_threads_per_block, th, th / 32.0,
                         rest ? fmt::format(" (the last warp runs {} of 32 lanes)", rest)
                              : std::string(),
                         Tm - 2 * radius, cube(Tm - 2 * radius), Tm, Tm * bytes,
                         (Tm * bytes) % 32 ? "straddle" : "fill whole");
        if (Tp != Tm)
            s += fmt::format("; the texts' 'T <= {} in practice' is {}^3 = {} threads, a power of two",
                             Tp, Tp, cube(Tp));
        s += ". ";
    }
    if (v.tile_is_template) {
        s += "built tiles: ";
        bool first = true;
        for (int t : built_tiles()) {
            s += fmt::format("{}{}", first ? "" : ",", t);
            first = false;
        }
        s += " (T is a template parameter).";
    }
    return s;
}

}  // namespace

// ---- the model -------------------------------------------------------------------------------

namespace {

// The naive kernel: no reuse, so T does not enter.
void model_naive(Model& m) {
    const int F = m.flops_per_point, B = m.bytes;
    m.active_threads = m.threads_per_block;
    m.opb_limit = m.opb;
    m.opb_formula = fmt::format("(12r+1) / ((6r+1) x {} B) = {} / ({} x {}) = {:.4g}", B,
                                F, m.points, B, m.opb);
    m.opb_note = "no reuse through shared memory: every output loads its 6r+1 inputs "
                 "itself, so T does not enter. The caches catch most of that reuse; the "
                 "DRAM-level OP/B is several times this figure (lab 1).";
}

// The tiled kernel: a T^3 tile for (T - 2r)^3 outputs.
void model_tiled(Model& m) {
    const int T = m.tile, r = m.radius, F = m.flops_per_point, B = m.bytes, OUT = m.out_tile;
    m.active_threads = cube(OUT);
    m.halo = halo_3d(T, r);
    m.halo_plane = halo_2d(T, r);
    m.opb_limit = double(F) / B;
    m.opb_formula = fmt::format("{} (T-{})^3 / ({} T^3) = {} x {}^3 / ({} x {}^3) = {:.4g}",
                                F, 2 * r, B, F, OUT, B, T, m.opb);
    // The text's points/2 is 2 ops per point over 4-byte values: 2p / 4. In this precision
    // the same reasoning gives 2p / B; the exact count has one addition fewer: (2p - 1) / B.
    m.opb_note = fmt::format(
        "the limit as T grows is {}/{} = {:.4g}, not 2 x {} points / {} B = {:.4g} (the "
        "text's points/2 bound, in {} B values): that bound counts 2 ops per point, but "
        "{} values need only {} additions ({} mul + {} add = {} FLOP).",
        F, B, double(F) / B, m.points, B, 2.0 * m.points / B, B, m.points, m.points - 1,
        m.points, m.points - 1, F);
}

// The coarsened kernels' note: against the tiled kernel of the same r and precision at the
// text's T = 8 (or, where 8 cannot run for this r, the tiled kernel's largest legal T).
void compare_with_tiled(Model& m) {
    const int T = m.tile, r = m.radius, B = m.bytes;
    const Precision p = m.precision;
    int Tt = tile_fits(KernelId::tiled, 8, r, B) && 8 > 2 * r
                 ? 8
                 : largest_fitting_tile(KernelId::tiled, r, p);
    if (Tt > 2 * r) {
        const double tiled = interior_block_traffic(KernelId::tiled, Tt, r, p).opb;
        const double ratio = m.opb / tiled;
        m.opb_note += fmt::format(
            " Against the tiled kernel at T = {} ({:.4g}, same r and precision) the ratio is "
            "x{:.2f}{}",
            Tt, tiled, ratio,
            ratio > 1.01 ? "" : ratio < 0.99 ? ": coarsening at this T loses" : ": no gain");
        // The text's claim is about one configuration: r = 1, fp32, T = 32 vs tiled T = 8.
        if (r == 1 && p == Precision::f32 && T == 32 && Tt == 8)
            m.opb_note += ", the text's 'almost doubled'";
        m.opb_note += ".";
    }
}

// The z-marching kernels (coarsened, register-tiled): T^2 values per plane for 2r + OUT planes.
void model_z_marching(Model& m) {
    const int T = m.tile, r = m.radius, F = m.flops_per_point, B = m.bytes, OUT = m.out_tile;
    const KernelId k = m.kernel;
    m.active_threads = sq(OUT);
    m.halo = halo_3d(T, r);
    m.halo_plane = halo_2d(T, r);
    m.opb_limit = double(F) / B;
    // The text's figure: a block is charged T^3 loads for (T-2r)^3 outputs, the tiled
    // formula at the larger T. The exact count: T^2 values per plane for 2r + OUT planes.
    m.opb_textbook = double(F) * cube(T - 2 * r) / (double(B) * cube(T));
    m.opb_formula = fmt::format(
        "{} OUT^3 / ({} T^2 (OUT + {})) with OUT = T - {} = {}: {} x {}^3 / ({} x {}^2 x "
        "{}) = {:.4g}",
        F, B, 2 * r, 2 * r, OUT, F, OUT, B, T, OUT + 2 * r, m.opb);
    const double zinf = double(F) * sq(OUT) / (double(B) * sq(T));
    m.opb_note = fmt::format(
        "the text's {} (T-{})^3 / ({} T^3) = {:.4g} charges each block T^3 loads. Exactly, a "
        "block loads T^2 = {} values for each of 2r + OUT = {} planes ({} before the "
        "z-march, then one per output plane) and writes OUT^2 x OUT = {} outputs. Because the "
        "kernel marches exactly OUT_TILE_DIM planes, 2r + OUT = T and the two agree for an "
        "interior block; they part ways (a) over a whole grid, where blocks at the faces "
        "load less (exact_grid_traffic), and (b) if a block marched Z planes instead: "
        "{} OUT^2 Z / ({} T^2 (Z + {})), which tends to {} (T-{})^2 / ({} T^2) = {:.4g} as Z "
        "grows.",
        F, 2 * r, B, m.opb_textbook, sq(T), T, 2 * r, cube(OUT), F, B, 2 * r, F, 2 * r, B,
        zinf);
    compare_with_tiled(m);
    if (k == KernelId::register_tiled) m.queue_registers = 2 * r + 1;
}

// The streaming kernel: a z-chunk of Z planes per block, T rows of W = 32 V outputs each.
void model_streaming(Model& m) {
    const int T = m.tile, r = m.radius, F = m.flops_per_point, B = m.bytes;
    const int Z = m.out_planes, V = cells_per_thread(KernelId::streaming, B), W = 32 * V, Q = (r + V - 1) / V;
    long long ends = 0;  // values one row's two ends load
    for (int q = 1; q <= Q; ++q) ends += 2LL * q * (V - streaming_end_first(q, V, r));
    m.active_threads = m.threads_per_block;
    m.halo_plane.output_cells = (long long)W * T;
    m.halo_plane.halo_cells = 2LL * r * (W + T);  // a star needs no corner
    m.halo_plane.tile_cells = m.halo_plane.output_cells + m.halo_plane.halo_cells;
    m.halo_plane.fraction = double(m.halo_plane.halo_cells) / m.halo_plane.tile_cells;
    m.opb_limit = double(F) / B;
    m.queue_registers = 2 * r + 1;
    m.opb_formula = fmt::format(
        "{} W T Z / ({} (W T (Z + {}) + Z ({} W + T E))) with W = 32 V = {}, V = {}, Z = {}, E = {} values "
        "at a row's two ends: {} x {} x {} x {} / ({} x ({} x {} x {} + {} x ({} x {} + {} x {}))) = {:.4g}",
        F, B, 2 * r, 2 * r, W, V, Z, ends, F, W, T, Z, B, W, T, Z + 2 * r, Z, 2 * r, W, T, ends, m.opb);
    m.opb_note = fmt::format(
        "every thread computes (T counts output rows, not the halo), owns a 16-byte vector of {} values and "
        "marches a z-chunk of Z = {} planes, so a block requests {:.3f} values per output: 1 of its own, "
        "2r/Z = {:.3f} for the {} planes beside its chunk, 2r/T = {:.3f} for the halo rows and "
        "E/W = {:.3f} for the rows' ends ({:.1f}% of its loads re-read a value another block loads "
        "too). The halo rows and ends are the neighbouring blocks' cells, read at about the same time, so "
        "they are mostly L2 hits: DRAM sees close to one read and one write per cell, the copy's traffic. "
        "As T and Z grow the OP/B tends to {}/{} = {:.4g}.",
        V, Z, m.requested_per_output, 2.0 * r / Z, 2 * r, 2.0 * r / T, double(ends) / W,
        100 * m.halo_reread_share, F, B, double(F) / B);
}

// The temporal kernel: K steps per launch, a z-chunk of Z planes per block, the halo rK wide, a
// tile 32 cells wide (a warp) and T rows tall, each thread a strip of S rows.
void model_temporal(Model& m) {
    const int T = m.tile, r = m.radius, F = m.flops_per_point, B = m.bytes, K = m.fused_steps;
    const int Z = m.out_planes, OUT = m.out_tile, H = r * K, S = rows_per_thread(m.kernel);
    const int W_OUT = out_width(m.kernel, T, r, B, K);
    const UpdateTraffic& u = *m.per_update;
    // Threads that write an output: the lanes of level K's band, in the strips that hold a row of it.
    int writing_strips = 0;
    for (int s = 0; s < T / S; ++s) writing_strips += s * S + S > H && s * S < T - H;
    m.active_threads = (long long)W_OUT * writing_strips;
    m.halo_plane.tile_cells = 32LL * T;
    m.halo_plane.output_cells = (long long)W_OUT * OUT;
    m.halo_plane.halo_cells = m.halo_plane.tile_cells - m.halo_plane.output_cells;
    m.halo_plane.fraction = double(m.halo_plane.halo_cells) / m.halo_plane.tile_cells;
    m.opb_limit = double(F) * K / B;
    m.queue_registers = u.queue_registers;
    m.tile_bounds += fmt::format(" Fusing K = {} steps needs T > 2rK = {} and a warp's 32 > 2rK (each step widens "
                                 "the halo by r); T a multiple of the strip's {} rows.",
                                 K, 2 * H, S);
    m.opb_formula = fmt::format(
        "{} K W_OUT OUT Z / ({} x 32 T (Z + 2rK)) with K = {}, W_OUT = 32 - 2rK = {}, OUT = T - 2rK = {}, Z = {}: "
        "{} x {} x {} x {} x {} / ({} x 32 x {} x {}) = {:.4g}",
        F, B, K, W_OUT, OUT, Z, F, K, W_OUT, OUT, Z, B, T, Z + 2 * H, m.opb);
    m.opb_note = fmt::format(
        "K = {} time steps per pass: level t is valid on a band r cells narrower per level, so a 32 x {} tile "
        "writes {} x {} cells of level K and {:.1f}% of its loads are the neighbours' cells (mostly L2 hits). "
        "Each thread owns {} rows of its column: a register queue of 2r + 1 planes per row and level ({} "
        "registers), x-neighbours from the neighbouring lanes (shuffles), y-neighbours from its own rows "
        "except r beyond each end of its strip (shared memory). Per cell update: requested {:.3g} B, L2 {:.3g} "
        "B, DRAM {:.3g} B (a copy: {} B), so a DRAM-bound pass can reach {:.2f}x the copy's updates per "
        "second; the price is arithmetic: {:.1f}% of the cells computed are halo cells that a neighbour "
        "computes too ({} FLOP executed per block for {} useful). As the tile grows the OP/B tends to "
        "K (12r+1) / B = {:.4g}.",
        K, T, W_OUT, OUT, 100 * u.halo_reread_share, S, u.queue_registers, u.requested_bytes, u.l2_bytes,
        u.dram_bytes, 2 * B, u.copy_ratio_bound, 100 * u.redundant_work_share, m.block.executed_flops, m.block.flops,
        m.opb_limit);
}

// conv27: naive's launch and cells, the dense cube's loads and arithmetic. Every output issues
// (2r+1)^3 loads and 2 (2r+1)^3 - 1 FLOPs for the star's 12r + 1 useful ones.
void model_conv27(Model& m) {
    const int r = m.radius, F = m.flops_per_point, Fx = m.executed_flops_per_point, B = m.bytes;
    const int P = m.executed_points;
    m.active_threads = m.threads_per_block;
    m.opb_limit = m.opb;
    m.opb_formula = fmt::format(
        "useful (12r+1) / ((2r+1)^3 x {} B) = {} / ({} x {}) = {:.4g}; executed (2 (2r+1)^3 - 1) / "
        "((2r+1)^3 x {} B) = {} / ({} x {}) = {:.4g}",
        B, F, P, B, m.opb, B, Fx, P, B, m.executed_opb);
    m.opb_note = fmt::format(
        "the 7-point stencil as a dense {}^3 convolution: the {} off-axis weights are zero, so the "
        "value is the star's, but each output does {} FLOP where the star needs {} (x{:.2f}) and "
        "issues {} loads instead of 6r+1 = {}. The extra {} loads are cells that other threads "
        "load too: the caches serve them, and DRAM sees the same cells as naive. If DRAM moved "
        "each cell once each way (read + write, the copy's bytes), the OP/B would be {}/{} = {:.4g} "
        "useful and {}/{} = {:.4g} executed: same bytes, {:.2f}x the arithmetic. No reuse through "
        "shared memory, so T does not enter. "
        "`stencil-lab run --kernel conv27` beside `--kernel naive` measures what the extra work "
        "costs.",
        dense_edge(r), P - m.points, Fx, F, double(Fx) / F, P, m.points, P - m.points, F, 2 * B, m.dram_opb,
        Fx, 2 * B, m.executed_dram_opb, double(Fx) / F);
}

// The model in words: the summary `stencil-lab model` prints.
std::string model_summary(const Model& m) {
    const KernelId k = m.kernel;
    const Precision p = m.precision;
    const int T = m.tile, r = m.radius, F = m.flops_per_point, B = m.bytes, OUT = m.out_tile;
    const auto& v = version(k);
    std::string s;
    s += fmt::format("{} ({}): T = {}, r = {} ({}-point star), {}\n", v.title, v.name, T, r,
                     m.points, to_string(p));
    s += fmt::format("  idea: {}\n", v.idea);
    if (m.executed_points != m.points)
        s += fmt::format("  FLOP per output      useful (the star) 12r + 1 = {} ({} mul + {} add); executed "
                         "(the {}^3 cube) 2 (2r+1)^3 - 1 = {} ({} mul + {} add), x{:.2f}\n",
                         F, m.points, m.points - 1, dense_edge(r), m.executed_flops_per_point,
                         m.executed_points, m.executed_points - 1, double(m.executed_flops_per_point) / F);
    else
        s += fmt::format("  FLOP per output      12r + 1 = {} ({} mul + {} add)\n", F, m.points,
                         m.points - 1);
    s += fmt::format("  threads per block    {} = {}\n", threads_formula(k), m.threads_per_block);
    if (v.halo_in_tile && m.fused_steps > 1)
        s += fmt::format("  OUT_TILE_DIM         T - 2rK = {} (K = {} steps per pass); writing threads {}\n", OUT,
                         m.fused_steps, m.active_threads);
    else if (v.halo_in_tile)
        s += fmt::format("  OUT_TILE_DIM         T - 2r = {}; computing threads {}\n", OUT,
                         m.active_threads);
    if (v.z_chunk > 0)
        s += fmt::format("  z-chunk              {} planes per block (every thread computes)\n",
                         m.out_planes);
    s += fmt::format("  shared memory        {} B{}\n", m.smem_bytes,
                     v.shared == SharedTile::none
                         ? std::string()
                         : fmt::format(" ({} = {} values)", smem_formula(k, r),
                                       shared_cells(k, T, r, m.bytes, m.fused_steps)));
    s += fmt::format("  per interior block   {} loads ({} B), {} outputs ({} B), {} FLOP{}\n",
                     m.loads_per_block, m.block.load_bytes, m.outputs_per_block,
                     m.block.store_bytes, m.block.flops,
                     m.block.executed_flops != m.block.flops
                         ? fmt::format(" useful, {} executed", m.block.executed_flops)
                         : std::string());
    s += fmt::format("  OP/B                 {}\n", m.opb_formula);
    if (m.executed_points != m.points)
        s += fmt::format("  OP/B (DRAM, least)   each cell read once and written once, as naive: useful "
                         "{} / {} B = {:.4g}, executed {} / {} B = {:.4g}\n",
                         F, 2 * B, m.dram_opb, m.executed_flops_per_point, 2 * B, m.executed_dram_opb);
    if (marches_in_z(k) && v.halo_in_tile && v.z_chunk == 0)
        s += fmt::format("  OP/B (text's form)   {} (T-{})^3 / ({} T^3) = {:.4g}\n", F, 2 * r, B,
                         m.opb_textbook);
    s += fmt::format("  OP/B limit (T -> oo) {:.4g}\n", m.opb_limit);
    s += fmt::format("  requested per output {:.3f} values (a copy: 1); halo re-reads {:.1f}% of loads\n",
                     m.requested_per_output, 100 * m.halo_reread_share);
    s += fmt::format("  note                 {}\n", m.opb_note);
    if (v.halo_in_tile) {
        if (v.z_chunk == 0)  // a block of a z-chunk has no 3D tile: its plane is the picture
            s += fmt::format("  halo (3D tile)       {} of {} cells = {:.1f}% (output {})\n",
                             m.halo.halo_cells, m.halo.tile_cells, 100 * m.halo.fraction,
                             m.halo.output_cells);
        s += fmt::format("  halo (one plane, 2D) {} of {} cells = {:.1f}%\n", m.halo_plane.halo_cells,
                         m.halo_plane.tile_cells, 100 * m.halo_plane.fraction);
    }
    if (m.queue_registers && m.fused_steps > 1)
        s += fmt::format("  z-queue registers    K (2r + 1) x {} rows = {} per thread\n", rows_per_thread(k),
                         m.queue_registers);
    else if (m.queue_registers)
        s += fmt::format("  z-queue registers    2r + 1 = {} per thread\n", m.queue_registers);
    if (m.per_update)
        s += fmt::format("  bytes per update     requested {:.3g}, L2 {:.3g}, DRAM {:.3g} (a copy: {}); "
                         "DRAM-bound at {:.2f}x the copy's updates per second\n",
                         m.per_update->requested_bytes, m.per_update->l2_bytes, m.per_update->dram_bytes,
                         m.per_update->copy_bytes, m.per_update->copy_ratio_bound);
    s += fmt::format("  valid T              {}\n", m.tile_bounds);
    std::string vt;
    for (int t : m.valid_tiles) vt += fmt::format("{}{}", vt.empty() ? "" : ",", t);
    s += fmt::format("  runnable T here      {}\n", vt);
    s += fmt::format("  this T               {}\n", m.tile_error ? *m.tile_error : "runs");
    return s;
}

}  // namespace

Model model(KernelId k, int T, int radius, Precision p, int fused) {
    check_arguments(k, T, radius, fused);
    fused = steps_per_launch(k, fused);
    Model m;
    m.fused_steps = fused;
    m.kernel = k;
    m.tile = T;
    m.radius = radius;
    m.precision = p;
    m.bytes = bytes_of(p);
    m.points = point_count(radius);
    m.flops_per_point = flops_per_point(radius);
    m.executed_points = executed_points(k, radius);
    m.executed_flops_per_point = executed_flops_per_point(k, radius);
    m.out_tile = out_tile(k, T, radius, fused);
    m.out_planes = version(k).z_chunk > 0 ? version(k).z_chunk : m.out_tile;
    m.threads_per_block = threads_per_block(k, T);
    m.smem_bytes = smem_bytes(k, T, radius, m.bytes, fused);
    m.block = interior_block_traffic(k, T, radius, p, fused);
    if (version(k).z_chunk > 0) m.per_update = update_traffic(k, T, radius, p, fused);
    m.loads_per_block = m.block.loads;
    m.outputs_per_block = m.block.outputs;
    m.opb = m.block.opb;
    m.opb_textbook = m.opb;
    m.executed_opb = double(m.block.executed_flops) / m.block.load_bytes;
    m.dram_opb = double(m.flops_per_point) / (2 * m.bytes);
    m.executed_dram_opb = double(m.executed_flops_per_point) / (2 * m.bytes);
    m.requested_per_output = double(m.block.loads) / m.block.outputs;  // per output of the launch
    m.halo_reread_share = 1.0 - double(m.block.outputs) / m.block.loads;
    m.tile_error = tile_error(k, T, radius, p);
    m.valid_tiles = runnable_tiles(k, radius, p);
    m.largest_fitting_tile = largest_fitting_tile(k, radius, p);
    m.tile_bounds = bounds_text(k, radius, p, {});
    switch (k) {
        case KernelId::naive: model_naive(m); break;
        case KernelId::tiled: model_tiled(m); break;
        case KernelId::coarsened:
        case KernelId::register_tiled: model_z_marching(m); break;
        case KernelId::streaming: model_streaming(m); break;
        case KernelId::conv27: model_conv27(m); break;
        case KernelId::temporal: model_temporal(m); break;
    }
    m.summary = model_summary(m);
    return m;
}

}  // namespace stencil::analysis
