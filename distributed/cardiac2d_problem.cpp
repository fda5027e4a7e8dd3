#include "distributed/cardiac2d_problem.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

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

std::vector<unsigned char> as_precision(const std::vector<double>& values, Precision p) {
    std::vector<unsigned char> out(values.size() * bytes_of(p));
    if (p == Precision::f64) {
        std::memcpy(out.data(), values.data(), out.size());
    } else {
        const std::vector<float> f(values.begin(), values.end());
        std::memcpy(out.data(), f.data(), out.size());
    }
    return out;
}

std::vector<double> widened(const std::vector<unsigned char>& bytes, Precision p) {
    if (p == Precision::f64) {
        std::vector<double> v(bytes.size() / sizeof(double));
        std::memcpy(v.data(), bytes.data(), bytes.size());
        return v;
    }
    std::vector<float> f(bytes.size() / sizeof(float));
    std::memcpy(f.data(), bytes.data(), bytes.size());
    return {f.begin(), f.end()};
}

cardiac2d::State state_of(const Fields& fields, int n, Precision p) {
    cardiac2d::State s;
    s.n = n;
    s.E = widened(fields.at(0), p);
    s.R = widened(fields.at(1), p);
    return s;
}

Fields fields_of(const cardiac2d::State& s, Precision p) { return {as_precision(s.E, p), as_precision(s.R, p)}; }

GridDims Cardiac2dProblem::whole_dims() const {
    return {cardiac2d::mesh_width(o_.n), cardiac2d::mesh_width(o_.n), 1};
}

analysis::DecompositionModel Cardiac2dProblem::model() const {
    return analysis::cardiac_decomposition_model(o_.n, o_.decomposition, o_.precision);
}

Fields Cardiac2dProblem::start() const { return fields_of(cardiac2d::spiral_initial_state(o_.n), o_.precision); }

Verdict Cardiac2dProblem::compare(const Fields& gathered, const Fields& alone) const {
    Verdict v;
    const int n = o_.n, W = cardiac2d::mesh_width(n);
    for (std::size_t f = 0; f < 2; ++f) {
        const std::vector<double> got = widened(gathered.at(f), o_.precision);
        const std::vector<double> want = widened(alone.at(f), o_.precision);
        for (int y = 1; y <= n; ++y)
            for (int x = 1; x <= n; ++x) {
                const std::size_t i = std::size_t(y) * W + x;
                if (std::memcmp(&got[i], &want[i], sizeof(double)) != 0) v.add(got[i], want[i]);
            }
    }
    return v;
}

nlohmann::json Cardiac2dRunResult::to_json() const {
    const auto& p = options.decomposition.parts;
    nlohmann::json j = measures_json();
    const nlohmann::json own = {
        {"problem", "cardiac2d"},
        {"decomposition", fmt::format("{}x{}", p[0], p[1])},
        {"parts", {p[0], p[1]}},
        {"kernel", cardiac2d::version(options.kernel).name},
        {"precision", to_string(options.precision)},
        {"grid", {options.n, options.n}},
        {"steps", options.steps},
        {"overlap", halo_exchange == "nccl" ? nlohmann::json(options.overlap) : nlohmann::json(nullptr)},
    };
    j.update(own);
    return j;
}

}  // namespace stencil::distributed
