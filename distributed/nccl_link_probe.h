// The link the NCCL runs' halos take, measured on the spot, and their exchange timed alone: what
// the link model (link_model.h) predicts from the one and is compared with the other. Both run
// once before the timed steps, after the untimed `connect` exchange (NCCL has then set up the
// peers' connection), and never inside the steps. CUDA builds with NCCL.
#pragma once
#include <nccl.h>

#include <functional>

#include "distributed/link_model.h"

namespace stencil::distributed {

// A ping-pong between ranks 0 and 1 of `comm` (ncclSend then ncclRecv on rank 0, the reverse on
// rank 1, each round trip timed on the host up to cudaStreamSynchronize): a small message and a
// `large_bytes` one, one way = half the median round trip. On a communicator of one rank, that
// rank's GPU with itself (LinkPath::nccl_self): a send and a receive to itself in one group, one
// way = the median group. Ranks above 1 return at once with an empty PingPong; the caller's GPU
// must be current. Complete on ranks 0 and 1.
PingPong nccl_ping_pong(ncclComm_t comm, int rank, int ranks, long long large_bytes);

// The median seconds of `repeats` calls of exchange_and_wait (every face packed, sent, received,
// unpacked, and waited for on the host: what one step's exchange costs with no kernel beside
// it). Each GPU times its own; the run reports the slowest GPU's median.
double median_exchange_seconds(const std::function<void()>& exchange_and_wait, int repeats = 11);

}  // namespace stencil::distributed
