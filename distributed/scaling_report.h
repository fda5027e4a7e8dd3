// A scaling sweep's table (`run --decompose auto --scaling strong|weak`, one mpirun of P ranks, or
// --gpus N): one row per rank count, built from that count's run report (the JSON object of
// star3d_problem.h or cardiac2d_problem.h, whose keys are the same: run_result.h), with the efficiency against the
// first row, and its gnuplot figure. Plain C++: the rows are measured by the CLI's loop over
// sub-worlds (distributed/mpi_world.h, first_ranks), the files written by the front end.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/json_value.h"
#include "distributed/link_model.h"

namespace stencil::distributed {

enum class ScalingMode { strong, weak };
std::optional<ScalingMode> parse_scaling_mode(const std::string& text);
const char* to_string(ScalingMode m);

// 1, 2, 4, ... up to `ranks`, and `ranks` itself when it is not a power of two.
std::vector<int> scaling_rank_counts(int ranks);

struct ScalingRow {
    JsonValue run;  // the count's whole run report, as a single run prints it
    int ranks = 1;
    double seconds_per_step = 0;
    double efficiency = 0;  // set by ScalingSweep::set_efficiencies
};
ScalingRow scaling_row(const nlohmann::json& run_report);

struct ScalingSweep {
    ScalingMode mode = ScalingMode::strong;
    std::vector<ScalingRow> rows;  // rank counts ascending

    // Against the first row (1 rank when the sweep starts there), with r0 ranks and t0 seconds:
    // strong (the same grid) r0 t0 / (N tN), which is t1 / (N tN) from one rank; weak (the same
    // work per rank) t0 / tN. 1 is perfect scaling.
    void set_efficiencies();
    bool ok() const;  // every row equal to its single domain
    nlohmann::json to_json() const;
    std::string text() const;  // the table for a terminal
    // scaling.dat and scaling.gp (writes scaling.png and scaling.svg): seconds per step (measured,
    // exchange measured, exchange predicted) and efficiency against the rank count.
    std::string plot_data() const;
    std::string plot_script(const std::string& png_terminal) const;
};

}  // namespace stencil::distributed
