// What every decomposed run reports, whatever the problem (decomposed_problem.h) and whatever
// carries the halos (MPI on the host, NCCL between GPUs): the check against one domain alone, the
// times, the halo bytes and the link. A problem's result adds its options and its own keys
// (star3d_problem.h, cardiac2d_problem.h). No MPI, no CUDA here.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "distributed/link_model.h"

namespace stencil::distributed {

// The gathered fields against one domain alone: how many values differ in their bits, and by how
// much at most (NaN when a NaN is among them).
struct Verdict {
    long long differing_cells = 0;
    double max_abs_diff = 0;
    void add(double got, double want);  // one pair of values that differ in their bits
};

// Bytes per step from bytes per exchange: an exchange serves a pass of steps / passes steps.
long long per_step(long long bytes_per_exchange, int passes, int steps);

struct DecomposedRunResult {
    int ranks = 1;
    std::string backend, device;
    std::string halo_exchange = "mpi";  // "mpi" or "nccl"
    bool ok = false;                    // gathered result equal to the single domain's, bit for bit
    double max_abs_diff = 0;            // vs the single domain
    long long differing_cells = 0;      // values whose bits differ
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

    void set_verdict(const Verdict& v);  // differing_cells, max_abs_diff and ok
    // halo_bytes_per_rank and halo_bytes_total from each rank's bytes per exchange (the total
    // converted once, so that it equals the model's figure converted alike).
    void set_halo_bytes(const std::vector<long long>& per_exchange, int passes, int steps);
    // The keys every problem's report has (a problem adds its own: "problem", "kernel", "grid", ...).
    nlohmann::json measures_json() const;
};

}  // namespace stencil::distributed
