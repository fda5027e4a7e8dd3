#include "distributed/star3d_run.h"

#include <utility>

#include "core/error.h"
#include "core/weights.h"
#include "distributed/mpi_run.h"
#include "distributed/seconds_since.h"

namespace stencil::distributed {

namespace {

// One launch as `run` makes it (one step, or a pass of fused steps): the output starts as a copy of
// the input, so the cells no kernel writes (the r outermost layers: the grid's fixed boundary, or a
// halo refreshed before the next pass) hold the input's values; then the backend's launch.
void launch(Backend& backend, const LaunchRequest& req, const StencilWeights& w, const std::vector<unsigned char>& in,
            std::vector<unsigned char>& out) {
    out = in;
    backend.execute(req, w, in.data(), out.data());
}

class PieceOnBackend : public HostPieceSteps {
public:
    PieceOnBackend(Backend& backend, const StencilWeights& weights, std::vector<LaunchRequest> passes)
        : backend_(backend), weights_(weights), passes_(std::move(passes)) {}
    void pass(int k, std::vector<unsigned char>& in, std::vector<unsigned char>& out, Fields&) override {
        launch(backend_, passes_[k], weights_, in, out);
    }

private:
    Backend& backend_;
    const StencilWeights& weights_;
    std::vector<LaunchRequest> passes_;
};

class Star3dOnBackend : public HostSteps {
public:
    Star3dOnBackend(Backend& backend, const Star3dRunOptions& o)
        : backend_(backend), o_(o), weights_(random_weights(o.request.radius, o.seed)) {}
    std::string backend() const override { return std::string(to_string(backend_.kind())); }
    std::string device() const override { return backend_.device().name; }
    std::optional<std::string> cannot_run(const analysis::SubBox& box) const override {
        return backend_.cannot_run(pass_launches(o_, box.local_dims()).front());
    }
    std::unique_ptr<HostPieceSteps> on_piece(const analysis::SubBox& box) override {
        return std::make_unique<PieceOnBackend>(backend_, weights_, pass_launches(o_, box.local_dims()));
    }
    // The same steps on the whole grid, through the same backend.
    Fields single_domain(const Fields& start, double* seconds_per_step) override {
        std::vector<unsigned char> alone = start.at(0), scratch;
        const auto t0 = Clock::now();
        for (const LaunchRequest& pass : pass_launches(o_, o_.request.dims)) {
            launch(backend_, pass, weights_, alone, scratch);
            std::swap(alone, scratch);
        }
        *seconds_per_step = seconds_since(t0) / o_.steps;
        return {std::move(alone)};
    }

private:
    Backend& backend_;
    Star3dRunOptions o_;
    StencilWeights weights_;
};

}  // namespace

Star3dRunResult run_star3d(const MpiWorld& world, Backend& backend, const Star3dRunOptions& o) {
    const Star3dProblem problem(o);
    if (auto e = problem.run_error(world.size())) throw UserError(*e);  // before the weights are drawn
    Star3dOnBackend steps(backend, o);
    return {run_on_ranks(world, problem, steps), o};
}

}  // namespace stencil::distributed
