#include "distributed/cardiac2d_result.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstring>

#include "kernels/cardiac2d/model_constants.h"

namespace stencil::distributed {

std::optional<std::string> cardiac2d_run_error(const Cardiac2dRunOptions& o, int ranks) {
    if (o.decomposition.ranks() != ranks)
        return fmt::format("--decompose {}x{} needs {} ranks, but this run has {} (mpirun -np {})",
                           o.decomposition.parts[0], o.decomposition.parts[1], o.decomposition.ranks(), ranks,
                           o.decomposition.ranks());
    if (auto e = cardiac2d::size_error(o.n)) return e;
    if (auto e = analysis::cardiac_decomposition_error(o.n, o.decomposition)) return e;
    if (o.steps < 1) return std::string("--steps must be at least 1");
    return std::nullopt;
}

int outer_sides(const analysis::SubBox& piece) {
    using analysis::kNoNeighbour;
    int sides = 0;
    if (piece.neighbour[0][0] == kNoNeighbour) sides |= cardiac2d::kWestSide;
    if (piece.neighbour[0][1] == kNoNeighbour) sides |= cardiac2d::kEastSide;
    if (piece.neighbour[1][0] == kNoNeighbour) sides |= cardiac2d::kNorthSide;
    if (piece.neighbour[1][1] == kNoNeighbour) sides |= cardiac2d::kSouthSide;
    return sides;
}

void Cardiac2dRunResult::compare(const std::vector<double>& gathered_E, const std::vector<double>& gathered_R,
                                 const std::vector<double>& alone_E, const std::vector<double>& alone_R) {
    differing_cells = 0;
    max_abs_diff = 0;
    const int n = options.n, W = cardiac2d::mesh_width(n);
    for (const auto& [got, want] : {std::pair{&gathered_E, &alone_E}, std::pair{&gathered_R, &alone_R}})
        for (int y = 1; y <= n; ++y)
            for (int x = 1; x <= n; ++x) {
                const std::size_t i = std::size_t(y) * W + x;
                if (std::memcmp(&(*got)[i], &(*want)[i], sizeof(double)) == 0) continue;
                ++differing_cells;
                const double d = std::fabs((*got)[i] - (*want)[i]);
                max_abs_diff = std::isnan(d) || std::isnan(max_abs_diff) ? NAN : std::max(max_abs_diff, d);
            }
    ok = differing_cells == 0;
    model_halo_bytes_total =
        analysis::cardiac_decomposition_model(n, options.decomposition, options.precision).total_halo_bytes;
}

nlohmann::json Cardiac2dRunResult::to_json() const {
    const auto& p = options.decomposition.parts;
    const auto number = [](double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); };
    nlohmann::json j = {
        {"ok", ok},
        {"problem", "cardiac2d"},
        {"ranks", ranks},
        {"decomposition", fmt::format("{}x{}", p[0], p[1])},
        {"parts", {p[0], p[1]}},
        {"kernel", cardiac2d::version(options.kernel).name},
        {"precision", to_string(options.precision)},
        {"grid", {options.n, options.n}},
        {"steps", options.steps},
        {"backend", backend},
        {"device", device},
        {"halo_exchange", halo_exchange},
        {"max_abs_diff_vs_single_domain", number(max_abs_diff)},
        {"differing_cells", differing_cells},
        {"seconds_per_step", seconds_per_step},
        // MPI times the exchange apart on the host; NCCL's runs on a stream beside the kernels.
        {"exchange_seconds_per_step", halo_exchange == "mpi" ? nlohmann::json(exchange_seconds_per_step) : nlohmann::json(nullptr)},
        {"exchange_alone_seconds", exchange_alone_seconds},
        {"single_domain_seconds_per_step", single_domain_seconds_per_step},
        // t1 / (P tP): 1 when P ranks are P times faster than the whole mesh alone.
        {"parallel_efficiency", number(single_domain_seconds_per_step / (ranks * seconds_per_step))},
        {"halo_bytes_per_step", {{"per_rank", halo_bytes_per_rank}, {"total", halo_bytes_total},
                                 {"model_total", model_halo_bytes_total}}},
    };
    if (link) j["link"] = link->to_json();
    return j;
}

}  // namespace stencil::distributed
