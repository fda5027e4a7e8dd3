// `stencil-lab versions [--problem P] [--json] [--radius R] [--precision P]`: the versions table,
// as the CLI, the model, the checker, the tests and the viewer read it: problem, kernel, the tiles
// that run for (r, precision), launch shape and the idea in one line.
//
//   {"versions": [{"problem": "star3d", "kernel": "tiled", "tiles": [3, 4, ...], "idea": ...}, ...]}
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <iostream>
#include <optional>

#include "cli/command.h"
#include "kernels/catalog.h"

namespace stencil::cli {
namespace {

struct VersionsArgs {
    std::string problem;  // empty: every problem
    std::string precision = "f32";
    int radius = 1;
    std::string backend = "auto";
    bool json = false;
};

// A star3d tile is a number (T); another problem's is a block or pencil shape ("16x16").
nlohmann::json tiles_json(const std::vector<std::string>& tiles) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& t : tiles) {
        const bool number = !t.empty() && t.find_first_not_of("0123456789") == std::string::npos;
        out.push_back(number ? nlohmann::json(std::stoi(t)) : nlohmann::json(t));
    }
    return out;
}

std::string join(const std::vector<std::string>& v) {
    std::string s;
    for (const auto& t : v) s += (s.empty() ? "" : ",") + t;
    return s;
}

int versions_command(const VersionsArgs& a) {
    const Precision p = *parse_precision(a.precision);
    const std::optional<Problem> only =
        a.problem.empty() ? std::nullopt : parse_problem(a.problem);
    nlohmann::json rows = nlohmann::json::array();
    std::string text = fmt::format("{:<10} {:<15} {:<8} {:<7} {:<20} {}\n", "problem", "kernel",
                                   "threads", "halo", "shared", "idea");
    for (const CatalogEntry& e : catalog(only, a.radius, p)) {
        nlohmann::json row = {{"problem", to_string(e.problem)}, {"kernel", e.kernel}, {"title", e.title},
                              {"tiles", tiles_json(e.tiles)}, {"threads_per_block", e.threads},
                              {"source_file", e.source_file}, {"idea", e.idea}};
        std::string halo = "-", shared = "-";
        // star3d's rows carry the chapter's tile facts as well
        if (const KernelVersion* v = e.problem == Problem::star3d ? find_version(e.kernel) : nullptr) {
            const std::string smem = smem_formula(v->id, a.radius);
            row["sweep_tiles"] = sweep_tiles(v->id, a.radius, p);
            row["default_tile"] = v->default_tile;
            const bool fuses = v->max_fused_steps > 1;
            row["out_tile"] = v->halo_in_tile ? (fuses ? "T - 2rK" : "T - 2r") : "T";
            row["shared_memory"] = smem.empty() ? nlohmann::json() : nlohmann::json(smem);
            row["tile_is_template"] = v->tile_is_template;
            row["textbook_file"] = v->textbook_file;
            row["takes_block"] = v->takes_block;  // `run --block BXxBYxBZ`
            // Time steps per launch: K = `run --fuse` (1..max), fused_steps without it.
            row["fused_steps"] = v->fused_steps;
            row["max_fused_steps"] = v->max_fused_steps;
            halo = v->halo_in_tile ? (fuses ? "T-2rK" : "T-2r") : "none";
            shared = smem.empty() ? "none" : smem;
        }
        rows.push_back(std::move(row));
        text += fmt::format("{:<10} {:<15} {:<8} {:<7} {:<20} {}\n", to_string(e.problem), e.kernel,
                            e.threads, halo, shared, e.idea);
        // star3d's tiles depend on r and the precision, the others' on the precision only
        const std::string given = e.problem == Problem::star3d ? fmt::format("r={}, {}", a.radius, to_string(p))
                                                               : std::string(to_string(p));
        text += fmt::format("{:<10} {:<15} tiles ({}): {}\n", "", "", given, join(e.tiles));
    }
    if (a.json)
        std::cout << nlohmann::json{{"radius", a.radius}, {"precision", to_string(p)}, {"versions", rows}}.dump(2)
                  << "\n";
    else
        std::cout << text;
    return 0;
}

const Command versions_cmd("versions", 15, [](CLI::App& app) -> std::function<int()> {
    app.description("the versions table: every kernel, the tiles that run, its idea in one line");
    auto a = std::make_shared<VersionsArgs>();
    add_problem_option(app, a->problem);
    // The table is the same on every backend (tiles use the default limits every CUDA GPU since
    // Volta has); the option is accepted as on every command.
    add_backend_option(app, a->backend);
    add_int_option(app, "--radius,-r", a->radius, 1, kMaxRadius, "stencil radius r: which tiles run")
        ->capture_default_str();
    app.add_option("--precision,-p", a->precision, "f32 or f64: which tiles run")
        ->check(CLI::IsMember({"f32", "f64", "float", "double", "fp32", "fp64"}))
        ->capture_default_str();
    app.add_flag("--json", a->json, "one JSON object {\"versions\": [...]}");
    return [a] { return versions_command(*a); };
});

}  // namespace
}  // namespace stencil::cli
