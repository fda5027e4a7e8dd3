// The model: see model.h. Pure arithmetic. The exact enumerations of a launch's warps and
// blocks have files of their own: warp_pattern.cpp (warp_pattern) and traffic.cpp
// (interior_block_traffic, exact_grid_traffic, update_traffic); model_detail.h holds what the
// three share.
//
// Sections: small formulas; halos (3D tile, 2D plane, ghost rings); registers; valid tiles (tile
// table, bounds in words); the model (kernel_model and its readable text).
#include "analysis/model.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

#include "analysis/model_detail.h"
#include "core/error.h"
#include "kernels/stencil_shape.h"

namespace stencil::analysis {

using detail::ceil_div;
using detail::cube;
using detail::sq;
using detail::streaming_end_first;

void detail::check_arguments(KernelId k, int T, int radius, int fused) {
    if (radius < 1 || radius > kMaxRadius)
        throw UserError(fmt::format("radius {} is outside 1..{}", radius, kMaxRadius));
    if (T < 1) throw UserError(fmt::format("tile {} must be at least 1", T));
    if (version(k).halo_in_tile && T <= 2 * radius)
        throw UserError(fmt::format("{}: tile T={} leaves no output cells: T must exceed 2r = {}",
                                    version(k).name, T, 2 * radius));
    if (auto e = fuse_error(k, T, radius, fused)) throw UserError(*e);
}

using detail::check_arguments;

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
    const long long limit = smem_limit(k, lim);
    int max_threads_T = 0, max_smem_T = 0;
    for (int T = 1; T <= 1024; ++T) {
        if (threads_per_block(k, T) <= lim.max_threads_per_block) max_threads_T = T;
        if (smem_bytes(k, T, radius, bytes) <= limit) max_smem_T = T;
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
        s += fmt::format("{} shared memory: {} x {} B <= {} B, so T <= {}{}. ",
                         smem_is_dynamic(k) ? "dynamic" : "static", smem_formula(k, radius), bytes, limit, max_smem_T,
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
    if (version(k).shared == SharedTile::one_plane) m.queue_registers = 2 * r + 1;
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
    const UpdateTraffic& u = *m.per_update;
    m.queue_registers = u.queue_registers;
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
        "Its launch bounds give a thread {} registers, so that an SM holds at least {} warps and their loads "
        "in flight; the z-queue takes {} of them. As T and Z grow the OP/B tends to {}/{} = {:.4g}.",
        V, Z, m.requested_per_output, 2.0 * r / Z, 2 * r, 2.0 * r / T, double(ends) / W,
        100 * m.halo_reread_share, u.register_budget, u.min_warps_per_sm, u.queue_registers, F, B, double(F) / B);
}

// The temporal kernel: K steps per launch, a z-chunk of Z planes per block, the halo rK wide, a
// tile 32 V cells wide (a warp, V cells a lane) and T rows tall, each thread a strip of S rows.
void model_temporal(Model& m) {
    const int T = m.tile, r = m.radius, F = m.flops_per_point, B = m.bytes, K = m.fused_steps;
    const int Z = m.out_planes, OUT = m.out_tile, H = r * K, S = rows_per_thread(m.kernel);
    const int V = cells_per_thread(m.kernel, B), W = 32 * V;
    const int W_OUT = out_width(m.kernel, T, r, B, K);
    const UpdateTraffic& u = *m.per_update;
    // Threads that write an output: the lanes of level K's band, in the strips that hold a row of it.
    int writing_strips = 0;
    for (int s = 0; s < T / S; ++s) writing_strips += s * S + S > H && s * S < T - H;
    int writing_lanes = 0;
    for (int l = 0; l < 32; ++l) writing_lanes += l * V + V > H && l * V < W - H;
    m.active_threads = (long long)writing_lanes * writing_strips;
    m.halo_plane.tile_cells = (long long)W * T;
    m.halo_plane.output_cells = (long long)W_OUT * OUT;
    m.halo_plane.halo_cells = m.halo_plane.tile_cells - m.halo_plane.output_cells;
    m.halo_plane.fraction = double(m.halo_plane.halo_cells) / m.halo_plane.tile_cells;
    m.opb_limit = double(F) * K / B;
    m.queue_registers = u.queue_registers;
    m.tile_bounds += fmt::format(" Fusing K = {} steps needs T > 2rK = {} and the fp64 warp's 32 cells > 2rK (each "
                                 "step widens the halo by r); T a multiple of the strip's {} rows.",
                                 K, 2 * H, S);
    m.opb_formula = fmt::format(
        "{} K W_OUT OUT Z / ({} x {} T (Z + 2rK)) with K = {}, W_OUT = {} - 2rK = {}, OUT = T - 2rK = {}, Z = {}: "
        "{} x {} x {} x {} x {} / ({} x {} x {} x {}) = {:.4g}",
        F, B, W, K, W, W_OUT, OUT, Z, F, K, W_OUT, OUT, Z, B, W, T, Z + 2 * H, m.opb);
    m.opb_note = fmt::format(
        "K = {} time steps per pass: level t is valid on a band r cells narrower per level, so a {} x {} tile "
        "writes {} x {} cells of level K and {:.1f}% of its loads are the neighbours' cells (mostly L2 hits). "
        "Each thread owns {} rows of {} cell{} of its row: a register queue of 2r + 1 planes per cell and level ({} "
        "registers), x-neighbours from the neighbouring lanes (shuffles), y-neighbours from its own rows "
        "except r beyond each end of its strip (shared memory). Per cell update: requested {:.3g} B, L2 {:.3g} "
        "B, DRAM {:.3g} B (a copy: {} B), so a DRAM-bound pass can reach {:.2f}x the copy's updates per "
        "second; the price is arithmetic: {:.1f}% of the cells computed are halo cells that a neighbour "
        "computes too ({} FLOP executed per block for {} useful). As the tile grows the OP/B tends to "
        "K (12r+1) / B = {:.4g}.",
        K, W, T, W_OUT, OUT, 100 * u.halo_reread_share, S, V, V > 1 ? "s" : "", u.queue_registers,
        u.requested_bytes, u.l2_bytes,
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

// The summary's line on a thread's z-queue registers ("" for a version with no queue): streaming's
// against its budget, temporal's K levels of strips (at every K, 1 included), else 2r + 1 values.
std::string queue_registers_line(const Model& m) {
    const KernelId k = m.kernel;
    if (m.per_update && m.per_update->register_budget)
        return fmt::format("  registers            z-queue of 2r + 1 16-byte vectors = {} of a budget of {} a "
                           "thread (at least {} warps an SM)\n",
                           m.queue_registers, m.per_update->register_budget, m.per_update->min_warps_per_sm);
    if (m.queue_registers && version(k).threads == ThreadShape::warp_strips) {
        const int V = cells_per_thread(k, m.bytes);
        return fmt::format("  z-queue registers    K (2r + 1) x {} rows x {} {}{}{} = {} per thread\n",
                           rows_per_thread(k), V, m.bytes == 8 ? "double" : "float", V > 1 ? "s" : "",
                           m.bytes == 8 ? " x 2 registers" : "", m.queue_registers);
    }
    if (m.queue_registers) return fmt::format("  z-queue registers    2r + 1 = {} per thread\n", m.queue_registers);
    return "";
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
    s += queue_registers_line(m);
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
    switch (version(k).shared) {  // the shape decides the model's story (kernels/version_shapes.h)
        case SharedTile::none:
            if (version(k).weights == WeightLayout::dense_cube)
                model_conv27(m);
            else
                model_naive(m);
            break;
        case SharedTile::whole_tile: model_tiled(m); break;
        case SharedTile::stencil_planes:
        case SharedTile::one_plane:
        case SharedTile::halo_plane: model_z_marching(m); break;
        case SharedTile::row_tile: model_streaming(m); break;
        case SharedTile::strip_edges: model_temporal(m); break;
    }
    m.summary = model_summary(m);
    return m;
}

}  // namespace stencil::analysis
