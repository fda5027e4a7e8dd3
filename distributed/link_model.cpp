#include "distributed/link_model.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>

namespace stencil::distributed {

const char* measured_by(LinkPath p) {
    switch (p) {
        case LinkPath::mpi_ranks: return "MPI ping-pong";
        case LinkPath::nccl_peers: return "NCCL ping-pong";
        case LinkPath::nccl_self: return "NCCL send to itself";
    }
    return "";
}

const char* between(LinkPath p) {
    switch (p) {
        case LinkPath::mpi_ranks: return "ranks 0 and 1";
        case LinkPath::nccl_peers: return "GPUs of ranks 0 and 1";
        case LinkPath::nccl_self: return "self";
    }
    return "";
}

Link fit_link(const PingPong& p) {
    Link l;
    l.latency_us = p.small_seconds * 1e6;
    const double bytes = double(p.large_bytes - p.small_bytes), seconds = p.large_seconds - p.small_seconds;
    l.gbps = seconds > 0 && bytes > 0 ? bytes / seconds * 1e-9
                                      : (p.large_seconds > 0 ? double(p.large_bytes) / p.large_seconds * 1e-9 : 0);
    return l;
}

long long largest_message_bytes(const analysis::DecompositionModel& model) {
    // A face across x is the owned ny x nz cells, r deep; across y nx x nz; across z nx x ny. Only
    // axes cut into parts carry faces.
    long long largest = 0;
    for (const analysis::RankTraffic& t : model.ranks) {
        const GridDims o = t.owned;
        const long long face[3] = {(long long)o.ny * o.nz, (long long)o.nx * o.nz, (long long)o.nx * o.ny};
        for (int axis = 0; axis < 3; ++axis)
            if (model.decomposition.parts[axis] > 1)
                largest = std::max(largest, face[axis] * model.radius * bytes_of(model.precision));
    }
    return largest;
}

long long probe_message_bytes(const analysis::DecompositionModel& model) {
    if (const long long largest = largest_message_bytes(model); largest > 0) return largest;
    return (long long)model.grid.ny * model.grid.nz * model.radius * bytes_of(model.precision);
}

LinkEstimate estimate_exchange(const PingPong& p, const analysis::DecompositionModel& model) {
    LinkEstimate e;
    e.ping_pong = p;
    e.link = fit_link(p);
    e.predicted_exchange_seconds_per_step = e.link.gbps > 0 ? model.predicted_seconds(e.link.gbps, e.link.latency_us) : 0;
    return e;
}

nlohmann::json LinkEstimate::to_json() const {
    return {{"measured_by", measured_by(ping_pong.path)},
            {"between", between(ping_pong.path)},
            {"small_message_bytes", ping_pong.small_bytes},
            {"large_message_bytes", ping_pong.large_bytes},
            {"small_one_way_seconds", ping_pong.small_seconds},
            {"large_one_way_seconds", ping_pong.large_seconds},
            {"latency_us", link.latency_us},
            {"gbps", link.gbps},
            {"predicted_exchange_seconds_per_step", predicted_exchange_seconds_per_step}};
}

std::string link_text(const LinkEstimate& e, double exchange_alone_seconds,
                      std::optional<double> exchange_in_step_seconds) {
    const PingPong& p = e.ping_pong;
    std::string s = fmt::format("  model     link {:.3g} GB/s, {:.3g} us latency ({} of {} and {} bytes, {}): ",
                                e.link.gbps, e.link.latency_us, measured_by(p.path), p.small_bytes, p.large_bytes,
                                between(p.path));
    if (e.predicted_exchange_seconds_per_step > 0)
        s += fmt::format("{:.4g} s per exchange predicted", e.predicted_exchange_seconds_per_step);
    else
        s += "no halo to exchange, 0 s predicted";
    s += fmt::format("; measured {:.4g} s alone", exchange_alone_seconds);
    if (exchange_in_step_seconds)
        s += fmt::format(", {:.4g} s within a step (waiting for the slower neighbour included)", *exchange_in_step_seconds);
    return s + "\n";
}

}  // namespace stencil::distributed
