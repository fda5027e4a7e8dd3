#include "distributed/run_result.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

namespace stencil::distributed {

void Verdict::add(double got, double want) {
    ++differing_cells;
    const double d = std::fabs(got - want);
    max_abs_diff = std::isnan(d) || std::isnan(max_abs_diff) ? NAN : std::max(max_abs_diff, d);
}

long long per_step(long long bytes_per_exchange, int passes, int steps) {
    return (bytes_per_exchange * passes + steps / 2) / std::max(steps, 1);
}

void DecomposedRunResult::set_verdict(const Verdict& v) {
    differing_cells = v.differing_cells;
    max_abs_diff = v.max_abs_diff;
    ok = differing_cells == 0;
}

void DecomposedRunResult::set_halo_bytes(const std::vector<long long>& per_exchange, int passes, int steps) {
    long long total = 0;
    halo_bytes_per_rank.clear();
    for (long long bytes : per_exchange) {
        halo_bytes_per_rank.push_back(per_step(bytes, passes, steps));
        total += bytes;
    }
    halo_bytes_total = per_step(total, passes, steps);
}

nlohmann::json DecomposedRunResult::measures_json() const {
    const auto number = [](double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); };
    const bool mpi = halo_exchange == "mpi";
    nlohmann::json j = {
        {"ok", ok},
        {"ranks", ranks},
        {"backend", backend},
        {"device", device},
        {"halo_exchange", halo_exchange},
        {"max_abs_diff_vs_single_domain", number(max_abs_diff)},
        {"differing_cells", differing_cells},
        {"seconds_per_step", seconds_per_step},
        // MPI times the exchange apart on the host; NCCL's runs on a stream beside the kernels.
        {"exchange_seconds_per_step", mpi ? nlohmann::json(exchange_seconds_per_step) : nlohmann::json(nullptr)},
        {"exchange_alone_seconds", exchange_alone_seconds},
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
