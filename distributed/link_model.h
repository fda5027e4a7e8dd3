// The model next to the measurement: a link's latency and bandwidth from a ping-pong's times, and
// the exchange time per step they predict for a decomposition (analysis/decomposition.h: each rank
// sends its faces one after another, the busiest rank sets the step). Plain C++; the ping-pong
// itself is link_probe.h (MPI).
#pragma once
#include <nlohmann/json.hpp>

#include "analysis/decomposition.h"

namespace stencil::distributed {

// One-way times of two message sizes: the small one is (almost) all latency, the difference
// between the two is the bytes' time on the wire.
struct PingPong {
    long long small_bytes = 8, large_bytes = 0;
    double small_seconds = 0, large_seconds = 0;  // one way: half the median round trip
};

struct Link {
    double latency_us = 0;
    double gbps = 0;  // 10^9 bytes per second
};
// latency = the small message's time; bandwidth = (large - small bytes) / (large - small seconds),
// or large bytes / large seconds when the two times do not grow (noise on a tiny message).
Link fit_link(const PingPong& p);

// What rank 0 reports beside the measured exchange time: the link, and the model's time per step.
struct LinkEstimate {
    PingPong ping_pong;
    Link link;
    double predicted_exchange_seconds_per_step = 0;
    nlohmann::json to_json() const;
};
LinkEstimate estimate_exchange(const PingPong& p, const analysis::DecompositionModel& model);

}  // namespace stencil::distributed
