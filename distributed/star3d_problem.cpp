#include "distributed/star3d_problem.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/field.h"

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

analysis::SubBox Star3dProblem::box_of(int rank) const {
    return analysis::sub_box(o_.request.dims, o_.decomposition, halo(), rank);
}

int Star3dProblem::passes() const { return static_cast<int>(pass_launches(o_, o_.request.dims).size()); }

analysis::DecompositionModel Star3dProblem::model() const {
    return analysis::decomposition_model(o_.request.dims, o_.decomposition, halo(), o_.request.precision);
}

Fields Star3dProblem::start() const {
    const LaunchRequest& req = o_.request;
    std::vector<unsigned char> bytes(std::size_t(req.dims.cells()) * bytes_of(req.precision));
    if (req.precision == Precision::f32)
        std::memcpy(bytes.data(), random_field<float>(req.dims, o_.seed).data.data(), bytes.size());
    else
        std::memcpy(bytes.data(), random_field<double>(req.dims, o_.seed).data.data(), bytes.size());
    return {std::move(bytes)};
}

namespace {
template <class real>
Verdict compare_typed(const std::vector<unsigned char>& gathered, const std::vector<unsigned char>& alone) {
    Verdict v;
    const std::size_t cells = gathered.size() / sizeof(real);
    const auto* got = reinterpret_cast<const real*>(gathered.data());
    const auto* want = reinterpret_cast<const real*>(alone.data());
    for (std::size_t i = 0; i < cells; ++i)
        if (std::memcmp(&got[i], &want[i], sizeof(real)) != 0) v.add(got[i], want[i]);
    return v;
}
}  // namespace

Verdict Star3dProblem::compare(const Fields& gathered, const Fields& alone) const {
    return o_.request.precision == Precision::f32 ? compare_typed<float>(gathered.at(0), alone.at(0))
                                                  : compare_typed<double>(gathered.at(0), alone.at(0));
}

nlohmann::json Star3dRunResult::to_json() const {
    const LaunchRequest& q = options.request;
    const auto& p = options.decomposition.parts;
    const int default_chunk = version(q.kernel).z_chunk;
    nlohmann::json j = measures_json();
    const nlohmann::json own = {
        {"problem", "star3d"},
        {"decomposition", options.decomposition.text()},
        {"parts", {p[0], p[1], p[2]}},
        {"kernel", version(q.kernel).name},
        {"tile", q.tile},
        {"z_chunk", default_chunk == 0 ? nlohmann::json(nullptr)
                                       : nlohmann::json(q.z_chunk != 0 ? q.z_chunk : default_chunk)},
        {"radius", q.radius},
        {"precision", to_string(q.precision)},
        {"grid", {q.dims.nx, q.dims.ny, q.dims.nz}},
        {"steps", options.steps},
        {"steps_per_pass", steps_per_pass(options)},
        {"halo_width", pass_halo(options)},
        {"seed", std::to_string(options.seed)},
        // Overlap hides the z faces behind the slab that reads none, for runs of one step a pass.
        {"overlap", halo_exchange == "nccl" ? nlohmann::json(options.overlap && steps_per_pass(options) == 1)
                                            : nlohmann::json(nullptr)},
    };
    j.update(own);
    return j;
}

}  // namespace stencil::distributed
