#include "distributed/link_model.h"

namespace stencil::distributed {

Link fit_link(const PingPong& p) {
    Link l;
    l.latency_us = p.small_seconds * 1e6;
    const double bytes = double(p.large_bytes - p.small_bytes), seconds = p.large_seconds - p.small_seconds;
    l.gbps = seconds > 0 && bytes > 0 ? bytes / seconds * 1e-9
                                      : (p.large_seconds > 0 ? double(p.large_bytes) / p.large_seconds * 1e-9 : 0);
    return l;
}

LinkEstimate estimate_exchange(const PingPong& p, const analysis::DecompositionModel& model) {
    LinkEstimate e;
    e.ping_pong = p;
    e.link = fit_link(p);
    e.predicted_exchange_seconds_per_step = e.link.gbps > 0 ? model.predicted_seconds(e.link.gbps, e.link.latency_us) : 0;
    return e;
}

nlohmann::json LinkEstimate::to_json() const {
    return {{"measured_by", "MPI ping-pong between ranks 0 and 1"},
            {"small_message_bytes", ping_pong.small_bytes},
            {"large_message_bytes", ping_pong.large_bytes},
            {"small_one_way_seconds", ping_pong.small_seconds},
            {"large_one_way_seconds", ping_pong.large_seconds},
            {"latency_us", link.latency_us},
            {"gbps", link.gbps},
            {"predicted_exchange_seconds_per_step", predicted_exchange_seconds_per_step}};
}

}  // namespace stencil::distributed
