// `stencil-lab model --kernel K [--tile T | --block BXxBYxBZ] [--fuse K] [--radius R] [--precision P]
//  [--size N] [--json] [--explain-invalid] [--backend B]`: the textbook's arithmetic-intensity model of one configuration
// (analysis/model.h), as readable text with the formulas or as JSON. The curriculum's tables:
// `--bounds` (points/2 upper bounds, 003), `--registers` (registers per thread, 000),
// `--derivatives` (central difference order, 8th-order weights and dx^8, 000/001/004),
// `--ghost [T]` (2D halo / ghost ring, 002/003). Computes nothing itself and runs nothing: --backend
// is accepted (every command takes it) and the output says that the limits are CUDA's block rules,
// the same on both backends. --explain-invalid stops at T = 64 (its work grows with T^3).
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cmath>
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "analysis/derivative_tiles.h"
#include "analysis/finite_difference.h"
#include "analysis/model.h"
#include "cli/cardiac2d.h"
#include "cli/command.h"
#include "cli/model_decomposition.h"
#include "cli/suggest.h"
#include "core/error.h"

namespace stencil::cli {
namespace {

struct ModelArgs {
    std::string kernel;
    int tile = 0;  // 0: the version table's default
    int radius = 1;
    std::string precision = "f32";
    int size = 256;  // grid for the whole-grid warp pattern and traffic
    bool json = false;
    bool tile_given = false;
    bool explain_invalid = false;
    bool bounds = false, registers = false, derivatives = false;
    int ghost = 0;  // the 2D ghost-ring / halo table for a T x T tile (when given)
    bool ghost_given = false;
    std::string backend = "auto";  // accepted like every command's; the model runs nothing
    bool backend_given = false;
    std::string problem = "star3d";  // derivative: text 004's tile table (no kernels yet)
    std::string block;               // --block BXxBYxBZ (naive): "" when not given
    int fuse = 0;                    // --fuse K (temporal): 0 when not given
};

// The model runs nothing: its tile rules are CUDA's per-block limits, which the CPU backend
// enforces too, so every --backend gives the same figures. Said in the output.
std::string limits_line(const std::string& backend) {
    const DeviceLimits lim;
    return fmt::format("tile limits of CUDA blocks ({} threads, {} KiB static shared memory, {} KiB dynamic), the "
                       "same on both backends; the model runs nothing, so --backend {} needs no device",
                       lim.max_threads_per_block, lim.max_static_smem_per_block / 1024,
                       lim.max_dynamic_smem_per_block / 1024, backend);
}

// ---- the curriculum's tables (no kernel needed) ----

int bounds_table(bool json) {
    using namespace analysis;
    nlohmann::json j = nlohmann::json::array();
    std::string s = "upper bound of OP/B with perfect reuse (text 003): points / 2 (2 ops per point over "
                    "4-byte values); exact: (2 points - 1) / 4\n";
    s += fmt::format("  {:<30} {:>6} {:>9} {:>9}\n", "pattern", "points", "points/2", "exact");
    for (const auto& b : pattern_bounds()) {
        s += fmt::format("  {:<30} {:>6} {:>9.4g} {:>9.4g}\n", b.name, b.points, b.opb, b.opb_exact);
        j.push_back({{"name", b.name}, {"dims", b.dims}, {"shape", b.shape == PatternShape::star ? "star" : "box"},
                     {"size", b.size}, {"points", b.points}, {"opb", b.opb}, {"opb_exact", b.opb_exact}});
    }
    s += "  points: star of order k in 2D 4k + 1, in 3D 6k + 1; k x k convolution k^2, k^3 in 3D "
         "(counted from each shape's offsets)\n";
    std::cout << (json ? j.dump(2) + "\n" : s);
    return 0;
}

int registers_table(bool json) {
    using namespace analysis;
    nlohmann::json j = nlohmann::json::array();
    std::string s = "registers per thread of a z-marching kernel (text 000's question), from each "
                    "stencil's offsets: (2 zr + 1) planes x the (dx, dy) columns used off the current plane\n";
    for (const auto& a : {registers_star(1), registers_nine_point(), registers_box27()}) {
        s += fmt::format("  {:<55} points {:>2}  z reach {}  columns {}  registers {}\n    {}\n", a.stencil,
                         a.points, a.z_reach, a.columns, a.queue_registers, a.note);
        j.push_back({{"stencil", a.stencil}, {"points", a.points}, {"z_reach", a.z_reach},
                     {"columns", a.columns}, {"registers", a.queue_registers}, {"note", a.note}});
    }
    std::cout << (json ? j.dump(2) + "\n" : s);
    return 0;
}

int derivatives_table(bool json) {
    using namespace analysis;
    nlohmann::json j;
    std::string s;
    // Row 1: the central difference (m = 1) and its measured order on a smooth function.
    auto f = [](double x) { return std::sin(x) + 0.5 * std::exp(x); };
    auto df = [](double x) { return std::cos(x) + 0.5 * std::exp(x); };
    const auto cd = central_difference_study(f, df, {0.3, 1.0, 2.1}, 0.1, 5);
    const auto w1 = central_derivative_weights(1);
    s += fmt::format("central difference: f'(x) ~ {}/{} (f(x+h) - f(x-h)) / h; f = sin x + exp(x)/2 at "
                     "x = 0.3, 1.0, 2.1\n", w1[0].num, w1[0].den);
    s += "  h          max error    order\n";
    for (size_t i = 0; i < cd.h.size(); ++i)
        s += fmt::format("  {:<10.6g} {:<12.4e} {}\n", cd.h[i], cd.error[i],
                         i ? fmt::format("{:.3f}", cd.order[i - 1]) : std::string());
    j["central_difference"] = {{"h", cd.h}, {"error", cd.error}, {"order", cd.order}};
    // Row 15: the 8th-order weights solved from the Taylor system, and dx^8 on periodic grids.
    const auto w = central_derivative_weights(4);
    s += "8th-order first derivative (text 004), weights c_j of (f(x+j dx) - f(x-j dx)) / dx solved "
         "from the Taylor (Vandermonde) system:\n ";
    nlohmann::json wj = nlohmann::json::array();
    for (size_t i = 0; i < w.size(); ++i) {
        s += fmt::format(" c{} = {}/{}", i + 1, w[i].num, w[i].den);
        wj.push_back({{"num", w[i].num}, {"den", w[i].den}, {"value", w[i].value()}});
    }
    s += "\n";
    const auto st = eighth_order_study(16, 3);
    s += "  periodic n^3 grid, f = sin(2 pi x) cos(2 pi y) + sin(2 pi z):\n  n    max error    order\n";
    for (size_t i = 0; i < st.h.size(); ++i)
        s += fmt::format("  {:<4} {:<12.4e} {}\n", int(std::lround(1 / st.h[i])), st.error[i],
                         i ? fmt::format("{:.3f}", st.order[i - 1]) : std::string());
    j["eighth_order"] = {{"weights", wj}, {"h", st.h}, {"error", st.error}, {"order", st.order}};
    std::cout << (json ? j.dump(2) + "\n" : s);
    return 0;
}

int ghost_table(int T, bool json) {
    using namespace analysis;
    const long long ring = ghost_ring_cells(T);
    const Halo h2 = halo_2d(T, 1);
    nlohmann::json j = {{"tile", T}, {"ghost_ring_cells", ring}, {"interior_cells", h2.output_cells},
                        {"tile_cells", h2.tile_cells}, {"fraction", h2.fraction}};
    std::string s = fmt::format(
        "2D 5-point Jacobi (text 002): a {0}x{0} thread block that includes its one-cell ghost ring has "
        "4T - 4 = {1} ghost cells and (T-2)^2 = {2} cells it updates; the ring is {1}/{3} = {4:.1f}% of the "
        "block\n",
        T, ring, h2.output_cells, h2.tile_cells, 100 * h2.fraction);
    std::cout << (json ? j.dump(2) + "\n" : s);
    return 0;
}

// Text 004's x-derivative tiles on its periodic 64^3 grid: values loaded, reloaded by another
// block, and the warp's access (analysis/derivative_tiles.h).
int derivative_tiles_table(const std::string& precision, bool json) {
    using namespace analysis;
    const auto p = parse_precision(precision);
    if (!p) throw UserError(fmt::format("unknown precision '{}' (choose f32 or f64)", precision));
    const int n = 64, bytes = *p == Precision::f64 ? 8 : 4;
    nlohmann::json tiles = nlohmann::json::array();
    std::string s = fmt::format("x-derivative tiles of text 004 on a periodic {}^3 grid, {}-wide halos, {}: outputs, "
                                "values loaded, loaded by another block too, their share of the outputs, rows per "
                                "warp, 128-B lines per warp load\n",
                                n, kDerivativeHalo, to_string(*p));
    for (const auto& r : derivative_tile_table(n, bytes)) {
        const auto& t = r.shape;
        tiles.push_back({{"tile", r.tile}, {"kernel", r.kernel}, {"role", r.role}, {"halo", t.halo}, {"outputs", t.outputs},
                         {"loaded", t.loaded}, {"reloaded", t.reloaded}, {"reload_share", t.reload_share},
                         {"rows_per_warp", t.rows_per_warp}, {"lines_per_request", t.lines_per_request},
                         {"fully_coalesced", t.fully_coalesced}});
        s += fmt::format("  {:<6} outputs {:>4}  loaded {:>4}  reloaded {:>3} ({:.2f})  rows/warp {}  lines {}  {}\n"
                         "         {} (kernel {})\n",
                         r.tile, t.outputs, t.loaded, t.reloaded, t.reload_share, t.rows_per_warp,
                         t.lines_per_request, t.fully_coalesced ? "coalesced" : "not coalesced", r.role, r.kernel);
    }
    const nlohmann::json j = {{"problem", "derivative"}, {"grid", n}, {"precision", std::string(to_string(*p))},
                              {"tiles", tiles}};
    std::cout << (json ? j.dump(2) + "\n" : s);
    return 0;
}

nlohmann::json loads_json(const std::vector<analysis::WarpLoad>& v) {
    nlohmann::json a = nlohmann::json::array();
    for (const auto& l : v)
        a.push_back({{"name", l.name}, {"requests", l.requests}, {"rows", l.rows},
                     {"sectors", l.sectors}, {"lines", l.lines}, {"efficiency", l.efficiency}});
    return a;
}

// The model of one star3d kernel as JSON: the block's figures, the whole grid's, the warp pattern.
nlohmann::json kernel_model_json(const ModelArgs& a, const KernelVersion* v, int T, Precision p, const analysis::Model& m,
                                 const analysis::GridTraffic& gt, const analysis::WarpPattern& wp) {
    nlohmann::json j;
    j["kernel"] = v->name;
    j["tile"] = T;
    j["radius"] = a.radius;
    j["precision"] = std::string(to_string(p));
    j["points"] = m.points;
    j["flops_per_point"] = m.flops_per_point;  // useful (the star's)
    j["executed_points"] = m.executed_points;  // what the kernel multiplies: conv27's cube
    j["executed_flops_per_point"] = m.executed_flops_per_point;
    j["out_tile"] = m.out_tile;
    j["threads_per_block"] = m.threads_per_block;
    j["active_threads"] = m.active_threads;
    j["smem_bytes"] = m.smem_bytes;
    j["loads_per_block"] = m.loads_per_block;
    j["outputs_per_block"] = m.outputs_per_block;
    j["load_bytes_per_block"] = m.block.load_bytes;
    j["opb"] = m.opb;
    j["executed_opb"] = m.executed_opb;
    j["dram_opb"] = m.dram_opb;
    j["executed_dram_opb"] = m.executed_dram_opb;
    j["opb_textbook"] = m.opb_textbook;
    j["opb_limit"] = m.opb_limit;
    j["opb_formula"] = m.opb_formula;
    j["opb_note"] = m.opb_note;
    j["halo_fraction"] = m.halo.fraction;
    j["halo"] = {{"tile_cells", m.halo.tile_cells}, {"output_cells", m.halo.output_cells},
                 {"halo_cells", m.halo.halo_cells}, {"fraction", m.halo.fraction},
                 {"plane_fraction", m.halo_plane.fraction}};
    j["queue_registers"] = m.queue_registers;
    j["fused_steps"] = m.fused_steps;
    if (m.per_update) {  // streaming and temporal: bytes per cell update at three levels
        const auto& u = *m.per_update;
        j["per_update"] = {{"requested_bytes", u.requested_bytes}, {"l2_bytes", u.l2_bytes},
                           {"dram_bytes", u.dram_bytes}, {"copy_bytes", u.copy_bytes},
                           {"halo_reread_share", u.halo_reread_share},
                           {"redundant_work_share", u.redundant_work_share},
                           {"queue_registers", u.queue_registers}, {"z_chunk", u.z_chunk},
                           {"register_budget", u.register_budget}, {"min_warps_per_sm", u.min_warps_per_sm},
                           {"copy_ratio_bound", u.copy_ratio_bound}};
    }
    if (!a.block.empty()) j["user_block"] = a.block;
    j["valid_tiles"] = m.valid_tiles;
    j["largest_fitting_tile"] = m.largest_fitting_tile;
    j["tile_bounds"] = m.tile_bounds;
    j["tile_error"] = m.tile_error ? nlohmann::json(*m.tile_error) : nlohmann::json(nullptr);
    j["cannot_run"] = bool(m.tile_error);
    j["grid"] = {{"n", a.size}, {"blocks", gt.blocks}, {"load_bytes", gt.load_bytes},
                 {"store_bytes", gt.store_bytes}, {"flops", gt.flops},
                 {"executed_flops", gt.executed_flops}, {"opb", gt.opb}};
    j["backend"] = a.backend;
    j["limits"] = {{"max_threads_per_block", DeviceLimits{}.max_threads_per_block},
                   {"max_static_smem_per_block", DeviceLimits{}.max_static_smem_per_block},
                   {"max_dynamic_smem_per_block", DeviceLimits{}.max_dynamic_smem_per_block},
                   {"note", limits_line(a.backend)}};
    j["warp_pattern"] = {{"rows_per_warp", wp.rows_per_warp},
                         {"interior_sectors_per_request", wp.interior_sectors_per_request},
                         {"interior_lines_per_request", wp.interior_lines_per_request},
                         {"interior_efficiency", wp.interior_efficiency},
                         {"sectors_per_request", wp.sectors_per_request},
                         {"lines_per_request", wp.lines_per_request},
                         {"efficiency", wp.efficiency},
                         {"requests", wp.requests},
                         {"sectors", wp.sectors},
                         {"full_warp_requests", wp.full_warp_requests},
                         {"interior_loads", loads_json(wp.interior)},
                         {"all_loads", loads_json(wp.all)},
                         {"explanation", wp.explanation}};
    return j;
}

// The same as text.
void print_kernel_model(const ModelArgs& a, const analysis::Model& m, const analysis::GridTraffic& gt,
                        const analysis::WarpPattern& wp) {
    if (m.tile_error) std::cout << "cannot run: " << *m.tile_error << " (model shown on request)\n";
    std::cout << m.summary;
    std::cout << fmt::format("  whole {}^3 grid      {} blocks, {} B loaded, {} B stored, OP/B {:.4g} "
                             "(faces load and compute less than interior blocks)\n",
                             a.size, gt.blocks, gt.load_bytes, gt.store_bytes, gt.opb);
    if (!a.block.empty())
        std::cout << fmt::format("  block {}: the warp pattern below is of this shape ({} rows per warp)\n", a.block,
                                 wp.rows_per_warp);
    std::cout << "  warp loads (full warps): name, rows, 32-B sectors, 128-B lines, efficiency\n";
    for (const auto& l : wp.interior)
        if (l.requests)
            std::cout << fmt::format("    {:<22} {:5.2f} {:6.2f} {:6.2f} {:5.0f}%\n", l.name, l.rows,
                                     l.sectors, l.lines, 100 * l.efficiency);
    std::cout << "  " << wp.explanation << "\n";
    std::cout << "  limits    " << limits_line(a.backend) << "\n";
}

// One star3d kernel's model (`--kernel K [--tile T] ...`).
int kernel_model(const ModelArgs& a) {
    using namespace analysis;
    if (a.kernel.empty())
        throw UserError("--kernel is required (or one of --bounds, --registers, --derivatives, --ghost)");
    const KernelVersion* v = find_version(a.kernel);
    if (!v) throw UserError(unknown_choice("kernel", a.kernel, version_names()));
    const auto p = parse_precision(a.precision);
    if (!p) throw UserError(fmt::format("unknown precision '{}' (choose f32 or f64)", a.precision));
    // (--tile, --radius and --size are range-checked by the parser.)
    const int T = a.tile_given ? a.tile : v->default_tile;
    // The model of a tile that cannot run grows with T (T^2 and more per block): a cap keeps the
    // answer instant, well above any tile a kernel can run (T <= 32).
    if (a.explain_invalid && T > kMaxExplainTile)
        throw UserError(fmt::format("--tile with --explain-invalid must be between 1 and {} (got '{}'): no kernel "
                                    "runs a tile over 32",
                                    kMaxExplainTile, T));
    const GridDims g{a.size, a.size, a.size};
    if (auto e = grid_error(g, a.radius)) throw UserError(*e);

    // --block: naive on a block of the user's shape; only the warp pattern (sectors per request)
    // changes, since every output loads its own points whatever the block.
    std::optional<Dim3> block;
    if (!a.block.empty()) {
        block = parse_block(a.block);
        if (!block) throw UserError(fmt::format("--block '{}': expected BXxBYxBZ, e.g. 32x4x2", a.block));
        if (a.tile_given) throw UserError("--block and --tile both shape the block: give one");
        if (auto e = block_error(v->id, *block)) throw UserError(*e);
    }
    // --fuse: temporal's K (without it, the row's fused_steps: 1 but for temporal).
    const int fused = a.fuse ? a.fuse : v->fused_steps;
    if (auto e = fuse_error(v->id, T, a.radius, fused)) throw UserError(*e);
    const Model m = model(v->id, T, a.radius, *p, fused);  // throws UserError on impossible T / r
    // A tile that cannot run is an error unless the user asked to see its model anyway.
    if (m.tile_error && !a.explain_invalid)
        throw UserError(fmt::format("{} T={} cannot run: {} (--explain-invalid prints its model anyway)",
                                    v->name, T, *m.tile_error));
    const GridTraffic gt = exact_grid_traffic(v->id, T, a.radius, *p, g, m.fused_steps);
    // (temporal's warps load one plane of their own columns per step whatever K: the pattern of K = 1)
    const WarpPattern wp = warp_pattern(v->id, T, a.radius, *p, g, block);
    if (a.json)
        std::cout << kernel_model_json(a, v, T, *p, m, gt, wp).dump(2) << "\n";
    else
        print_kernel_model(a, m, gt, wp);
    return 0;
}

int model_command(const ModelArgs& a) {
    // The tables need no kernel and no backend (their options exclude the kernel's: main says so).
    const auto table = [&](int rc) {
        if (a.backend_given && !a.json)
            std::cout << fmt::format("(--backend {}: this table needs no backend)\n", a.backend);
        return rc;
    };
    if (a.bounds) return table(bounds_table(a.json));
    if (a.registers) return table(registers_table(a.json));
    if (a.derivatives) return table(derivatives_table(a.json));
    if (a.ghost_given) return table(ghost_table(a.ghost, a.json));
    if (a.problem != "star3d" && !a.kernel.empty())
        throw UserError(fmt::format("--kernel does not apply to model --problem {}: its model is a table of tile "
                                    "shapes for all its kernels (drop --kernel)",
                                    a.problem));
    if (a.problem == "cardiac2d") return table(model_cardiac2d(a.tile_given ? a.tile : 0, a.json));
    if (a.problem == "derivative") return table(derivative_tiles_table(a.precision, a.json));
    return kernel_model(a);
}

const Command model_cmd("model", 30, [](CLI::App& app) -> std::function<int()> {
    app.description("the textbook's model of one kernel: FLOPs, loads, OP/B, halo, shared memory, "
                    "valid tiles, warp access pattern");
    auto a = std::make_shared<ModelArgs>();
    auto* kernel = app.add_option("--kernel,-k", a->kernel, "which version: " + version_names());
    auto* tile = add_int_option(app, "--tile,-t", a->tile, 1, kMaxTile,
                                "T: IN_TILE_DIM (block edge for naive); default: the version table's",
                                "a CUDA block has at most 1024 threads");
    auto* radius = add_int_option(app, "--radius,-r", a->radius, 1, kMaxRadius, "stencil radius r (6r + 1 points), 1..4")
                       ->capture_default_str();
    auto* precision = app.add_option("--precision,-p", a->precision, "f32 or f64")->capture_default_str();
    auto* size = add_int_option(app, "--size,-n", a->size, 1, kMaxSide, "N of the N^3 grid for whole-grid figures")
                     ->capture_default_str();
    auto* block = app.add_option("--block", a->block,
                                 "BXxBYxBZ: naive's block shape instead of T^3 (sectors per request per shape)");
    auto* fuse = add_int_option(app, "--fuse", a->fuse, 1, 4, fmt::format("temporal: time steps fused per pass, K (default {})",
                                               version(KernelId::temporal).fused_steps));
    app.add_flag("--json", a->json, "JSON instead of text");
    auto* explain = app.add_flag("--explain-invalid", a->explain_invalid,
                                 fmt::format("print the model of a tile that cannot run (marked 'cannot run: ...') "
                                             "instead of failing; T <= {}",
                                             kMaxExplainTile));
    auto* backend = add_backend_option(app, a->backend,
                                       "accepted as by every command; the model runs nothing (CUDA's block limits, "
                                       "which both backends enforce)");
    // derivative: text 004's tile table.
    add_problem_option(app, a->problem, {Problem::star3d, Problem::cardiac2d, Problem::derivative});
    add_decomposition_model_options(app);
    std::vector<CLI::Option*> tables{
        app.add_flag("--bounds", a->bounds, "the points/2 upper-bound table of text 003, points from each shape"),
        app.add_flag("--registers", a->registers, "registers per thread for the 3D 7-, 9- and 27-point stencils (000)"),
        app.add_flag("--derivatives", a->derivatives,
                     "central difference order 2; 8th-order weights solved from Taylor; dx^8 convergence (004)"),
        add_int_option(app, "--ghost", a->ghost, 3, 1024, "the 2D ghost ring of a T x T block (text 002: T = 16 -> 60)",
                       "a block with a one-cell ghost ring and an interior has T >= 3; a block side is at most "
                       "1024 threads")};
    // One table at a time, and no kernel options with a table (they would be ignored).
    for (size_t i = 0; i < tables.size(); ++i) {
        for (size_t k = i + 1; k < tables.size(); ++k) tables[i]->excludes(tables[k]);
        for (CLI::Option* o : {kernel, tile, radius, precision, size, explain, block, fuse}) tables[i]->excludes(o);
    }
    return [a, tile, backend, tables, &app] {
        if (decomposition_model_requested(app)) return model_decomposition(app);
        a->tile_given = tile->count() > 0;
        a->ghost_given = tables[3]->count() > 0;
        a->backend_given = backend->count() > 0;
        return model_command(*a);
    };
});

}  // namespace
}  // namespace stencil::cli
