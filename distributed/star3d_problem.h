// The chapter's 3D star stencils as a decomposed problem (decomposed_problem.h): what a run is
// asked, the rules it must meet, the grid split over ranks with halos r (or r K) wide, one field
// (the input, x fastest), the bit-for-bit comparison with one domain alone, and the one JSON object
// rank 0 prints. Its engines: star3d_run.h (any backend, halos through MPI) and nccl_star3d.h
// (the lab's CUDA kernels, halos through NCCL). No MPI, no CUDA here.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/backend.h"
#include "distributed/decomposed_problem.h"

namespace stencil::distributed {

struct Star3dRunOptions {
    LaunchRequest request;  // dims: the whole grid
    analysis::Decomposition decomposition;
    int steps = 1;
    std::uint64_t seed = 1;  // input field and weights, as `run` draws them
    bool overlap = true;     // NCCL: compute the slab that reads no z halo while the z faces travel
};

// A pass: the steps between two halo exchanges. A version that fuses K steps (temporal) applies
// min(K, steps left) per launch, reading r K cells beyond what it writes, so its ranks exchange
// halos r K wide once per pass instead of r wide every step: the same bytes per step, 1/K of the
// messages. The launch is unchanged: on a rank's local array, a fused level is right wherever it
// lies at least r per level inside the array, and after K levels that is the owned box. Other
// versions: one step per pass, halos r wide.
int steps_per_pass(const Star3dRunOptions& o);
int pass_halo(const Star3dRunOptions& o);  // r x steps_per_pass: the halo width of the sub-boxes
// The launches of the run's passes, in order, on grid `dims` (S = 5, K = 2: 2, 2, 1 steps).
std::vector<LaunchRequest> pass_launches(const Star3dRunOptions& o, GridDims dims);

// Why these options cannot run on `ranks` ranks (or GPUs), in one sentence; nullopt when they can.
// Depends on nothing but its arguments, so every rank reaches the same verdict without talking.
// A fused pass reads cells diagonal to a rank's box (K star steps reach r K cells along any path of
// axis moves), which the face exchange does not carry: it needs a split along one axis.
std::optional<std::string> star3d_run_error(const Star3dRunOptions& o, int ranks);

class Star3dProblem : public DecomposedProblem {
public:
    explicit Star3dProblem(const Star3dRunOptions& o) : o_(o) {}
    std::optional<std::string> run_error(int ranks) const override { return star3d_run_error(o_, ranks); }
    GridDims whole_dims() const override { return o_.request.dims; }
    analysis::SubBox box_of(int rank) const override;
    int halo() const override { return pass_halo(o_); }
    int value_bytes() const override { return bytes_of(o_.request.precision); }
    int fields() const override { return 1; }
    int passes() const override;
    int steps() const override { return o_.steps; }
    analysis::DecompositionModel model() const override;
    Fields start() const override;  // the input as `run` draws it (random_field of the seed)
    Verdict compare(const Fields& gathered, const Fields& alone) const override;

private:
    Star3dRunOptions o_;
};

struct Star3dRunResult : DecomposedRunResult {
    Star3dRunResult() = default;
    Star3dRunResult(DecomposedRunResult run, const Star3dRunOptions& o)
        : DecomposedRunResult(std::move(run)), options(o) {}
    Star3dRunOptions options;
    nlohmann::json to_json() const;
};

}  // namespace stencil::distributed
