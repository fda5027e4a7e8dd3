#include "distributed/nccl_link_probe.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <vector>

#include "backends/cuda/cuda_util.h"
#include "core/stats.h"
#include "distributed/nccl_library.h"
#include "distributed/nccl_support.h"
#include "distributed/seconds_since.h"

namespace stencil::distributed {

namespace {

using cuda_detail::check;
using cuda_detail::DeviceBuffer;

// As the MPI ping-pong (link_probe.cpp): a few trips to warm the path (the self path is set up at
// its first send), then an odd count timed.
constexpr int kWarmTrips = 3, kTimedTrips = 21;

class Prober {
public:
    Prober(ncclComm_t comm, int rank, bool self, std::size_t largest)
        : comm_(comm), peer_(self ? rank : 1 - rank), rank_(rank), self_(self),
          send_(std::max<std::size_t>(largest, 1), "the link probe's message (send)"),
          receive_(send_.bytes(), "the link probe's message (receive)") {
        check(cudaMemset(send_.get(), 0, send_.bytes()), "cudaMemset of the link probe's message");
        check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate");
    }
    ~Prober() { cudaStreamDestroy(stream_); }
    Prober(const Prober&) = delete;
    Prober& operator=(const Prober&) = delete;

    double one_way_seconds(std::size_t bytes) {
        std::vector<double> trips;
        for (int i = 0; i < kWarmTrips + kTimedTrips; ++i) {
            const auto t0 = Clock::now();
            trip(bytes);
            check(cudaStreamSynchronize(stream_), "the link probe (cudaStreamSynchronize)");
            if (i >= kWarmTrips) trips.push_back(seconds_since(t0));
        }
        const double median = summarize(trips).median;
        return self_ ? median : median / 2;  // a round trip is two messages; a self group is one
    }

private:
    void send(std::size_t bytes) {
        nccl_check(nccl().send(send_.get(), bytes, ncclUint8, peer_, comm_, stream_), "ncclSend (link probe)");
    }
    void receive(std::size_t bytes) {
        nccl_check(nccl().recv(receive_.get(), bytes, ncclUint8, peer_, comm_, stream_), "ncclRecv (link probe)");
    }
    void trip(std::size_t bytes) {
        if (self_) {
            // A send to itself completes only with its receive in the same group.
            nccl_check(nccl().group_start(), "ncclGroupStart");
            send(bytes);
            receive(bytes);
            nccl_check(nccl().group_end(), "ncclGroupEnd");
        } else if (rank_ == 0) {
            send(bytes);
            receive(bytes);
        } else {
            receive(bytes);
            send(bytes);
        }
    }

    ncclComm_t comm_;
    int peer_, rank_;
    bool self_;
    DeviceBuffer send_, receive_;
    cudaStream_t stream_{};
};

}  // namespace

PingPong nccl_ping_pong(ncclComm_t comm, int rank, int ranks, long long large_bytes) {
    PingPong p;
    p.path = ranks == 1 ? LinkPath::nccl_self : LinkPath::nccl_peers;
    if (rank > 1) return p;
    p.large_bytes = std::max(large_bytes, p.small_bytes);
    Prober prober(comm, rank, ranks == 1, static_cast<std::size_t>(p.large_bytes));
    p.small_seconds = prober.one_way_seconds(static_cast<std::size_t>(p.small_bytes));
    p.large_seconds = prober.one_way_seconds(static_cast<std::size_t>(p.large_bytes));
    return p;
}

double median_exchange_seconds(const std::function<void()>& exchange_and_wait, int repeats) {
    std::vector<double> times;
    for (int i = 0; i < repeats; ++i) {
        const auto t0 = Clock::now();
        exchange_and_wait();
        times.push_back(seconds_since(t0));
    }
    return summarize(times).median;
}

}  // namespace stencil::distributed
