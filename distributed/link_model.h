// The model next to the measurement: a link's latency and bandwidth from a ping-pong's times, and
// the exchange time per step they predict for a decomposition (analysis/decomposition.h: each rank
// sends its faces one after another, the busiest rank sets the step). Plain C++; the ping-pongs
// themselves are link_probe.h (MPI between ranks 0 and 1) and nccl_link_probe.h (NCCL between the
// GPUs of ranks 0 and 1, or one GPU with itself).
#pragma once
#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "analysis/decomposition.h"

namespace stencil::distributed {

// Which link a ping-pong measured: the path the run's halos take.
enum class LinkPath {
    mpi_ranks,   // MPI between ranks 0 and 1 (the host path)
    nccl_peers,  // NCCL between the GPUs of ranks 0 and 1 (NVLink or PCIe)
    nccl_self,   // NCCL from one GPU to itself: a run on one GPU has no other link to measure
};
const char* measured_by(LinkPath p);  // "MPI ping-pong", "NCCL ping-pong", "NCCL send to itself"
const char* between(LinkPath p);      // "ranks 0 and 1", "GPUs of ranks 0 and 1", "self"

// One-way times of two message sizes: the small one is (almost) all latency, the difference
// between the two is the bytes' time on the wire.
struct PingPong {
    LinkPath path = LinkPath::mpi_ranks;
    long long small_bytes = 8, large_bytes = 0;
    double small_seconds = 0, large_seconds = 0;  // one way: half the median round trip (self: the median send)
};

struct Link {
    double latency_us = 0;
    double gbps = 0;  // 10^9 bytes per second
};
// latency = the small message's time; bandwidth = (large - small bytes) / (large - small seconds),
// or large bytes / large seconds when the two times do not grow (noise on a tiny message).
Link fit_link(const PingPong& p);

// The biggest single message a rank of this decomposition sends: one face (0 when no axis is cut).
long long largest_message_bytes(const analysis::DecompositionModel& model);
// The large message a probe sends: the largest halo message; on an uncut grid (one rank, one GPU)
// the face a cut across x would send, so that the probe of a GPU with itself still measures a size
// this grid's halos would have.
long long probe_message_bytes(const analysis::DecompositionModel& model);

// What rank 0 reports beside the measured exchange time: the link, and the model's time per step
// (0 when the decomposition sends nothing: one rank has no halo).
struct LinkEstimate {
    PingPong ping_pong;
    Link link;
    double predicted_exchange_seconds_per_step = 0;
    nlohmann::json to_json() const;
};
LinkEstimate estimate_exchange(const PingPong& p, const analysis::DecompositionModel& model);

// The "model" line of a run's text report: the link, what it measured, the prediction, and the
// measured exchange alone (and within a step, where that is timed apart: MPI).
std::string link_text(const LinkEstimate& e, double exchange_alone_seconds,
                      std::optional<double> exchange_in_step_seconds);

}  // namespace stencil::distributed
