// What a decomposed cardiac2d run is asked and what it reports (`run --problem cardiac2d
// --decompose PXxPY`), whatever carries the ghost cells: the options, the rules they must meet, the
// bit-for-bit comparison of E and R with the whole mesh computed alone, and the one JSON object
// rank 0 prints (the keys of star3d's, star3d_result.h). No MPI, no CUDA here.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "analysis/decomposition.h"
#include "distributed/link_model.h"
#include "kernels/cardiac2d/versions.h"

namespace stencil::distributed {

struct Cardiac2dRunOptions {
    cardiac2d::KernelId kernel = cardiac2d::KernelId::fused;
    Precision precision = Precision::f64;
    int n = 64;  // interior cells per side of the whole mesh
    analysis::Decomposition decomposition;  // parts[2] == 1
    int steps = 2;
};

// Why these options cannot run on `ranks` ranks, in one sentence; nullopt when they can. Depends
// on nothing but its arguments, so every rank reaches the same verdict without talking.
std::optional<std::string> cardiac2d_run_error(const Cardiac2dRunOptions& o, int ranks);

// The outer sides of a piece (OuterSide bits): those without a neighbour, mirrored by the rank.
int outer_sides(const analysis::SubBox& piece);

struct Cardiac2dRunResult {
    Cardiac2dRunOptions options;
    int ranks = 1;
    std::string backend, device;
    std::string halo_exchange = "mpi";
    bool ok = false;                   // gathered E and R equal to the whole mesh's, bit for bit
    double max_abs_diff = 0;           // over E and R, vs the single domain
    long long differing_cells = 0;     // interior values (E or R) whose bits differ
    double seconds_per_step = 0;       // the slowest rank's step loop / steps
    double exchange_seconds_per_step = 0;       // the slowest rank's time in the exchange / steps (MPI)
    double exchange_alone_seconds = 0;          // one exchange with no compute between (star3d_result.h)
    double single_domain_seconds_per_step = 0;  // the whole mesh alone, the same stepper
    std::vector<long long> halo_bytes_per_rank;  // sent per step
    long long halo_bytes_total = 0;
    long long model_halo_bytes_total = 0;  // analysis::cardiac_decomposition_model's figure
    // The link measured before the timed steps and the exchange time it predicts, next to
    // exchange_alone_seconds: MPI runs of two ranks or more (their ping-pong), NCCL runs always
    // (GPUs 0 and 1, or one GPU with itself). Complete on rank 0.
    std::optional<LinkEstimate> link;

    // Sets differing_cells, max_abs_diff and ok from the gathered mesh and the single domain's:
    // (n + 2)^2 fp64 values each for E and for R (the kernel's values widened, which keeps their
    // bits apart), compared on the interior; and the model's halo total.
    void compare(const std::vector<double>& gathered_E, const std::vector<double>& gathered_R,
                 const std::vector<double>& alone_E, const std::vector<double>& alone_R);
    nlohmann::json to_json() const;
};

}  // namespace stencil::distributed
