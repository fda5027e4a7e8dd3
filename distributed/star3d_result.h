// What a decomposed star3d run is asked and what it reports, whatever carries the halos (MPI on
// the host, NCCL between GPUs): the options, the rules they must meet, the bit-for-bit comparison
// with one domain alone, and the one JSON object rank 0 prints. No MPI, no CUDA here.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "analysis/decomposition.h"
#include "distributed/link_model.h"
#include "core/backend.h"

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

struct Star3dRunResult {
    Star3dRunOptions options;
    int ranks = 1;
    std::string backend, device;
    std::string halo_exchange = "mpi";  // "mpi" or "nccl"
    bool ok = false;                    // gathered result equal to the single domain's, bit for bit
    double max_abs_diff = 0;            // vs the single domain
    long long differing_cells = 0;      // cells whose bits differ
    double seconds_per_step = 0;        // the slowest rank's step loop / steps
    double exchange_seconds_per_step = 0;   // the slowest rank's time in the exchange / steps (MPI)
    // The exchange alone: exchanges back to back after a barrier, no compute between, the slowest
    // rank's median (MPI: exchange_timing.h; NCCL: each waited for on the host, nccl_link_probe.h).
    // The in-loop time above also holds the wait for a slower neighbour's compute, and NCCL's
    // exchange travels beside the kernels, so it has no in-loop time; this one is what the link
    // model (link_model.h) predicts.
    double exchange_alone_seconds = 0;
    double single_domain_seconds_per_step = 0;  // one domain alone, the same backend
    std::vector<long long> halo_bytes_per_rank;  // sent per step (an exchange's bytes per step of its pass)
    long long halo_bytes_total = 0;
    long long model_halo_bytes_total = 0;  // analysis/decomposition.h's figure for the same split
    // The link measured before the timed steps and the exchange time it predicts, next to
    // exchange_alone_seconds: MPI runs of two ranks or more (their ping-pong), NCCL runs always
    // (GPUs 0 and 1, or one GPU with itself). Complete on rank 0.
    std::optional<LinkEstimate> link;

    // Sets differing_cells, max_abs_diff and ok from the gathered field and the single domain's
    // (`cells` values of the request's precision each), and the model's halo total.
    void compare(const void* gathered, const void* alone, long long cells);
    // Bytes sent per step from bytes sent per exchange: an exchange serves a pass of K steps.
    long long per_step(long long bytes_per_exchange) const;
    // halo_bytes_per_rank and halo_bytes_total from each rank's bytes per exchange (the total
    // converted once, so that it equals the model's figure converted alike).
    void set_halo_bytes(const std::vector<long long>& per_exchange);
    nlohmann::json to_json() const;
};

}  // namespace stencil::distributed
