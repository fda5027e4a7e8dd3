// `stencil-lab model --decompose PXxPYxPZ [--size N] [--radius R] [--precision P]
// [--link-gbps G [--latency-us L]] [--json]`: what the split of an N^3 grid costs in halo traffic,
// rank by rank: the bytes each sends per step against the cells it owns (surface to volume), and,
// for a link of G GB/s, the exchange time they predict (analysis/decomposition.h). Runs nothing.
// `--problem cardiac2d --decompose PXxPY [--size n]`: the same for the n x n cardiac mesh, whose
// pieces exchange one ghost row or column of E per neighbour.
#include "cli/model_decomposition.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <iostream>

#include <nlohmann/json.hpp>

#include "analysis/decomposition.h"
#include "core/error.h"
#include "kernels/cardiac2d/versions.h"

namespace stencil::cli {

namespace {

struct DecompositionModelArgs {
    std::string decompose;
    double link_gbps = 0;  // 0: not given, no time predicted
    double latency_us = 0;
};
DecompositionModelArgs& decomposition_model_args() {
    static DecompositionModelArgs a;  // bound to the model command's options for the process
    return a;
}


}  // namespace

void add_decomposition_model_options(CLI::App& model) {
    model.add_option("--decompose", decomposition_model_args().decompose,
                     "the halo traffic of the N^3 grid split PXxPYxPZ over ranks: bytes per rank against its sub-box");
    model.add_option("--link-gbps", decomposition_model_args().link_gbps, "with --decompose: the link's bandwidth in GB/s, to predict the "
                                                      "exchange's time")
        ->check(CLI::Range(1e-6, 1e6));
    model.add_option("--latency-us", decomposition_model_args().latency_us, "with --link-gbps: microseconds per message (default 0)")
        ->check(CLI::Range(0.0, 1e6));
}

bool decomposition_model_requested(const CLI::App& model) { return model.get_option("--decompose")->count() > 0; }

// Long because it is the command's one pass: its options checked, then the model computed and
// printed, a few lines each.
int model_decomposition(const CLI::App& app) {
    const DecompositionModelArgs& a = decomposition_model_args();
    if (app.get_option("--latency-us")->count() && !app.get_option("--link-gbps")->count())
        throw UserError("--latency-us needs --link-gbps");
    for (const char* name : {"--kernel", "--tile", "--explain-invalid", "--bounds", "--registers", "--derivatives",
                             "--ghost"})
        if (app.get_option(name)->count())
            throw UserError(fmt::format("{} does not apply to model --decompose (halo bytes do not depend on the "
                                        "version)", name));
    const std::string problem = option_or(app, "--problem", "star3d");
    if (problem != "star3d" && problem != "cardiac2d")
        throw UserError("model --decompose covers --problem star3d and cardiac2d");
    const bool cardiac = problem == "cardiac2d";
    if (cardiac && app.get_option("--radius")->count())
        throw UserError("--radius does not apply to the cardiac mesh (its stencil reaches one cell)");
    const analysis::Decomposition d =
        cardiac ? analysis::parse_cardiac_decomposition(a.decompose) : analysis::parse_decomposition(a.decompose, 3);
    const int n = option_or(app, "--size", cardiac ? 2048 : 256), radius = option_or(app, "--radius", 1);
    const std::string precision = option_or(app, "--precision", "f32");
    const auto p = parse_precision(precision);
    if (!p) throw UserError(fmt::format("unknown precision '{}' (choose f32 or f64)", precision));
    const GridDims g = cardiac ? GridDims{n, n, 1} : GridDims{n, n, n};
    if (cardiac) {
        if (auto e = cardiac2d::size_error(n)) throw UserError(*e);
        if (auto e = analysis::cardiac_decomposition_error(n, d)) throw UserError(*e);
    } else {
        if (auto e = grid_error(g, radius)) throw UserError(*e);
        if (auto e = analysis::decomposition_error(g, d, radius)) throw UserError(*e);
    }
    const analysis::DecompositionModel m =
        cardiac ? analysis::cardiac_decomposition_model(n, d, *p) : analysis::decomposition_model(g, d, radius, *p);
    const std::string split = cardiac ? fmt::format("{}x{}", d.parts[0], d.parts[1]) : d.text();
    const bool timed = a.link_gbps > 0;
    const double seconds = timed ? m.predicted_seconds(a.link_gbps, a.latency_us) : 0;

    if (app.get_option("--json")->count()) {
        nlohmann::json ranks = nlohmann::json::array();
        for (const auto& t : m.ranks)
            ranks.push_back({{"rank", t.rank},
                             {"owned", cardiac ? nlohmann::json({t.owned.nx, t.owned.ny})
                                               : nlohmann::json({t.owned.nx, t.owned.ny, t.owned.nz})},
                             {"messages", t.messages},
                             {"halo_bytes", t.halo_bytes},
                             {"halo_per_owned", t.halo_per_owned}});
        const nlohmann::json j = {
            {"problem", problem},
            {"decomposition", split},
            {"ranks", d.ranks()},
            {"grid", cardiac ? nlohmann::json({n, n}) : nlohmann::json({n, n, n})},
            {"radius", cardiac ? nlohmann::json(nullptr) : nlohmann::json(radius)},
            {"precision", to_string(*p)},
            {"halo_bytes_per_step", {{"total", m.total_halo_bytes}, {"max_rank", m.max_rank_halo_bytes}}},
            {"per_rank", ranks},
            {"link_gbps", timed ? nlohmann::json(a.link_gbps) : nlohmann::json(nullptr)},
            {"latency_us", timed ? nlohmann::json(a.latency_us) : nlohmann::json(nullptr)},
            {"predicted_exchange_seconds", timed ? nlohmann::json(seconds) : nlohmann::json(nullptr)}};
        std::cout << j.dump(2) << "\n";
        return 0;
    }
    if (cardiac)
        std::cout << fmt::format("cardiac2d {}x{} {} split {} over {} ranks: E's ghost cells sent per step (one row or "
                                 "column per neighbour)\n",
                                 n, n, to_string(*p), split, d.ranks());
    else
        std::cout << fmt::format("{}^3 {} r={} split {} over {} ranks: halo bytes sent per step (faces only, r "
                                 "layers each)\n",
                                 n, to_string(*p), radius, split, d.ranks());
    std::cout << fmt::format("  {:>5} {:>16} {:>6} {:>14} {:>12}\n", "rank", "owned", "faces", "halo bytes",
                             "halo/owned");
    for (const auto& t : m.ranks)
        std::cout << fmt::format("  {:>5} {:>16} {:>6} {:>14} {:>12.4f}\n", t.rank,
                                 cardiac ? fmt::format("{}x{}", t.owned.nx, t.owned.ny)
                                         : fmt::format("{}x{}x{}", t.owned.nx, t.owned.ny, t.owned.nz),
                                 t.messages, t.halo_bytes,
                                 t.halo_per_owned);
    std::cout << fmt::format("  total {} bytes per step, the busiest rank {} bytes in {} messages\n",
                             m.total_halo_bytes, m.max_rank_halo_bytes, m.max_rank_messages);
    if (timed)
        std::cout << fmt::format("  predicted exchange: {:.4g} s per step over {} GB/s links ({} us per message; "
                                 "each rank sends its faces in turn, receives overlap)\n",
                                 seconds, a.link_gbps, a.latency_us);
    else
        std::cout << "  (--link-gbps G predicts the exchange's time from a link's bandwidth)\n";
    return 0;
}

}  // namespace stencil::cli
