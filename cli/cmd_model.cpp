// `stencil-lab model --kernel K [--tile T] [--radius R] [--precision P] [--size N] [--json]`:
// the textbook's arithmetic-intensity model of one configuration (analysis/model.h), as readable
// text with the formulas or as JSON. Computes nothing itself.
#include <fmt/format.h>

#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "analysis/model.h"
#include "cli/command.h"
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
};

nlohmann::json loads_json(const std::vector<analysis::WarpLoad>& v) {
    nlohmann::json a = nlohmann::json::array();
    for (const auto& l : v)
        a.push_back({{"name", l.name}, {"requests", l.requests}, {"rows", l.rows},
                     {"sectors", l.sectors}, {"lines", l.lines}, {"efficiency", l.efficiency}});
    return a;
}

int model_command(const ModelArgs& a) {
    using namespace analysis;
    const KernelVersion* v = find_version(a.kernel);
    if (!v) throw UserError(fmt::format("unknown kernel '{}' (choose {})", a.kernel, version_names()));
    const auto p = parse_precision(a.precision);
    if (!p) throw UserError(fmt::format("unknown precision '{}' (choose f32 or f64)", a.precision));
    if (a.size < 1) throw UserError(fmt::format("--size {} must be positive", a.size));
    const int T = a.tile != 0 ? a.tile : v->default_tile;
    const GridDims g{a.size, a.size, a.size};
    if (auto e = grid_error(g, a.radius)) throw UserError(*e);

    const Model m = model(v->id, T, a.radius, *p);  // throws UserError on impossible T / r
    const GridTraffic gt = exact_grid_traffic(v->id, T, a.radius, *p, g);
    const WarpPattern wp = warp_pattern(v->id, T, a.radius, *p, g);

    if (a.json) {
        nlohmann::json j;
        j["kernel"] = v->name;
        j["tile"] = T;
        j["radius"] = a.radius;
        j["precision"] = std::string(to_string(*p));
        j["points"] = m.points;
        j["flops_per_point"] = m.flops_per_point;
        j["out_tile"] = m.out_tile;
        j["threads_per_block"] = m.threads_per_block;
        j["active_threads"] = m.active_threads;
        j["smem_bytes"] = m.smem_bytes;
        j["loads_per_block"] = m.loads_per_block;
        j["outputs_per_block"] = m.outputs_per_block;
        j["load_bytes_per_block"] = m.block.load_bytes;
        j["opb"] = m.opb;
        j["opb_textbook"] = m.opb_textbook;
        j["opb_limit"] = m.opb_limit;
        j["opb_formula"] = m.opb_formula;
        j["opb_note"] = m.opb_note;
        j["halo_fraction"] = m.halo.fraction;
        j["halo"] = {{"tile_cells", m.halo.tile_cells}, {"output_cells", m.halo.output_cells},
                     {"halo_cells", m.halo.halo_cells}, {"fraction", m.halo.fraction},
                     {"plane_fraction", m.halo_plane.fraction}};
        j["queue_registers"] = m.queue_registers;
        j["valid_tiles"] = m.valid_tiles;
        j["largest_fitting_tile"] = m.largest_fitting_tile;
        j["tile_bounds"] = m.tile_bounds;
        j["tile_error"] = m.tile_error ? nlohmann::json(*m.tile_error) : nlohmann::json(nullptr);
        j["grid"] = {{"n", a.size}, {"blocks", gt.blocks}, {"load_bytes", gt.load_bytes},
                     {"store_bytes", gt.store_bytes}, {"flops", gt.flops}, {"opb", gt.opb}};
        j["warp_pattern"] = {{"rows_per_warp", wp.rows_per_warp},
                             {"interior_sectors_per_request", wp.interior_sectors_per_request},
                             {"interior_lines_per_request", wp.interior_lines_per_request},
                             {"interior_efficiency", wp.interior_efficiency},
                             {"sectors_per_request", wp.sectors_per_request},
                             {"lines_per_request", wp.lines_per_request},
                             {"efficiency", wp.efficiency},
                             {"interior_loads", loads_json(wp.interior)},
                             {"all_loads", loads_json(wp.all)},
                             {"explanation", wp.explanation}};
        std::cout << j.dump(2) << "\n";
        return 0;
    }
    std::cout << m.summary;
    std::cout << fmt::format("  whole {}^3 grid      {} blocks, {} B loaded, {} B stored, OP/B {:.4g} "
                             "(faces load and compute less than interior blocks)\n",
                             a.size, gt.blocks, gt.load_bytes, gt.store_bytes, gt.opb);
    std::cout << "  warp loads (full warps): name, rows, 32-B sectors, 128-B lines, efficiency\n";
    for (const auto& l : wp.interior)
        if (l.requests)
            std::cout << fmt::format("    {:<22} {:5.2f} {:6.2f} {:6.2f} {:5.0f}%\n", l.name, l.rows,
                                     l.sectors, l.lines, 100 * l.efficiency);
    std::cout << "  " << wp.explanation << "\n";
    return 0;
}

const Command model_cmd("model", 30, [](CLI::App& app) -> std::function<int()> {
    app.description("the textbook's model of one kernel: FLOPs, loads, OP/B, halo, shared memory, "
                    "valid tiles, warp access pattern");
    auto a = std::make_shared<ModelArgs>();
    app.add_option("--kernel,-k", a->kernel, "which version: " + version_names())->required();
    app.add_option("--tile,-t", a->tile,
                   "T: IN_TILE_DIM (block edge for naive); default: the version table's");
    app.add_option("--radius,-r", a->radius, "stencil radius r (6r + 1 points), 1..4")->capture_default_str();
    app.add_option("--precision,-p", a->precision, "f32 or f64")->capture_default_str();
    app.add_option("--size,-n", a->size, "N of the N^3 grid for whole-grid figures")->capture_default_str();
    app.add_flag("--json", a->json, "JSON instead of text");
    return [a] { return model_command(*a); };
});

}  // namespace
}  // namespace stencil::cli
