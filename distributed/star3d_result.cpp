#include "distributed/star3d_result.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace stencil::distributed {

int steps_per_pass(const Star3dRunOptions& o) {
    return steps_per_launch(o.request.kernel, std::min(fuse_of(o.request), std::max(o.steps, 1)));
}

int pass_halo(const Star3dRunOptions& o) { return o.request.radius * steps_per_pass(o); }

std::vector<LaunchRequest> pass_launches(const Star3dRunOptions& o, GridDims dims) {
    LaunchRequest all = o.request;
    all.dims = dims;
    all.steps = o.steps;
    return launches(all);
}

std::optional<std::string> star3d_run_error(const Star3dRunOptions& o, int ranks) {
    const LaunchRequest& req = o.request;
    if (o.decomposition.ranks() != ranks)
        return fmt::format("--decompose {} needs {} ranks, but this run has {} (mpirun -np {})", o.decomposition.text(),
                           o.decomposition.ranks(), ranks, o.decomposition.ranks());
    if (o.steps < 1) return std::string("--steps must be at least 1");
    if (auto e = tile_error(req.kernel, req.tile, req.radius, req.precision)) return e;
    if (auto e = grid_error(req.dims, req.radius)) return e;
    if (req.z_chunk != 0)
        if (auto e = z_chunk_error(req.kernel, req.z_chunk)) return e;
    if (req.fuse > 0)
        if (auto e = fuse_error(req.kernel, req.tile, req.radius, req.fuse)) return e;
    const int fused = steps_per_pass(o);
    if (fused == 1) return analysis::decomposition_error(req.dims, o.decomposition, req.radius);
    if (auto e = fuse_error(req.kernel, req.tile, req.radius, fused)) return e;
    int split_axes = 0;
    for (int parts : o.decomposition.parts) split_axes += parts > 1;
    if (split_axes > 1)
        return fmt::format("--decompose {} splits {} axes, but a pass fusing {} steps reads cells diagonal to a "
                           "rank's box, which the face exchange does not carry: split one axis (1x1x{})",
                           o.decomposition.text(), split_axes, fused, o.decomposition.ranks());
    if (auto e = analysis::decomposition_error(req.dims, o.decomposition, pass_halo(o)))
        return fmt::format("{} (a pass fusing {} steps has halos r x {} = {} cells wide)", *e, fused, fused,
                           pass_halo(o));
    return std::nullopt;
}

namespace {
template <class real>
void compare_typed(const real* got, const real* want, long long cells, long long& differing, double& max_abs) {
    for (long long i = 0; i < cells; ++i) {
        if (std::memcmp(&got[i], &want[i], sizeof(real)) == 0) continue;
        ++differing;
        const double d = std::fabs(static_cast<double>(got[i]) - static_cast<double>(want[i]));
        max_abs = std::isnan(d) || std::isnan(max_abs) ? NAN : std::max(max_abs, d);
    }
}
}  // namespace

void Star3dRunResult::compare(const void* gathered, const void* alone, long long cells) {
    differing_cells = 0;
    max_abs_diff = 0;
    if (options.request.precision == Precision::f32)
        compare_typed(static_cast<const float*>(gathered), static_cast<const float*>(alone), cells, differing_cells,
                      max_abs_diff);
    else
        compare_typed(static_cast<const double*>(gathered), static_cast<const double*>(alone), cells, differing_cells,
                      max_abs_diff);
    ok = differing_cells == 0;
    const LaunchRequest& q = options.request;
    model_halo_bytes_total = per_step(
        analysis::decomposition_model(q.dims, options.decomposition, pass_halo(options), q.precision).total_halo_bytes);
}

void Star3dRunResult::set_halo_bytes(const std::vector<long long>& per_exchange) {
    long long total = 0;
    halo_bytes_per_rank.clear();
    for (long long bytes : per_exchange) {
        halo_bytes_per_rank.push_back(per_step(bytes));
        total += bytes;
    }
    halo_bytes_total = per_step(total);
}

long long Star3dRunResult::per_step(long long bytes_per_exchange) const {
    const long long passes = static_cast<long long>(pass_launches(options, options.request.dims).size());
    return (bytes_per_exchange * passes + options.steps / 2) / std::max(options.steps, 1);
}

nlohmann::json Star3dRunResult::to_json() const {
    const LaunchRequest& q = options.request;
    const auto& p = options.decomposition.parts;
    const auto number = [](double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); };
    nlohmann::json j = {
        {"ok", ok},
        {"problem", "star3d"},
        {"ranks", ranks},
        {"decomposition", options.decomposition.text()},
        {"parts", {p[0], p[1], p[2]}},
        {"kernel", version(q.kernel).name},
        {"tile", q.tile},
        {"z_chunk", version(q.kernel).z_chunk == 0 ? nlohmann::json(nullptr)
                                                   : nlohmann::json(q.z_chunk != 0 ? q.z_chunk : version(q.kernel).z_chunk)},
        {"radius", q.radius},
        {"precision", to_string(q.precision)},
        {"grid", {q.dims.nx, q.dims.ny, q.dims.nz}},
        {"steps", options.steps},
        {"steps_per_pass", steps_per_pass(options)},
        {"halo_width", pass_halo(options)},
        {"seed", std::to_string(options.seed)},
        {"backend", backend},
        {"device", device},
        {"halo_exchange", halo_exchange},
        {"max_abs_diff_vs_single_domain", number(max_abs_diff)},
        {"differing_cells", differing_cells},
        {"seconds_per_step", seconds_per_step},
        {"exchange_seconds_per_step", halo_exchange == "mpi" ? nlohmann::json(exchange_seconds_per_step) : nlohmann::json(nullptr)},
        {"exchange_alone_seconds", exchange_alone_seconds},
        // Overlap hides the z faces behind the slab that reads none, for runs of one step a pass.
        {"overlap", halo_exchange == "nccl" ? nlohmann::json(options.overlap && steps_per_pass(options) == 1)
                                            : nlohmann::json(nullptr)},
        {"single_domain_seconds_per_step", single_domain_seconds_per_step},
        // t1 / (P tP): 1 when P ranks are P times faster than one domain alone.
        {"parallel_efficiency", number(single_domain_seconds_per_step / (ranks * seconds_per_step))},
        {"halo_bytes_per_step", {{"per_rank", halo_bytes_per_rank}, {"total", halo_bytes_total},
                                 {"model_total", model_halo_bytes_total}}},
    };
    if (link) j["link"] = link->to_json();
    return j;
}

}  // namespace stencil::distributed
