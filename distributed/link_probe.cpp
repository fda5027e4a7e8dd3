#include "distributed/link_probe.h"

#include <algorithm>
#include <climits>
#include <vector>

namespace stencil::distributed {

namespace {

constexpr int kWarmTrips = 3, kTimedTrips = 21;  // odd: the median is one sample
constexpr int kPingTag = 200;

// The median one-way time of `bytes`-byte round trips between ranks 0 and 1.
double one_way_seconds(const MpiWorld& world, int bytes) {
    std::vector<unsigned char> buffer(static_cast<std::size_t>(std::max(bytes, 1)));
    const int peer = world.rank() == 0 ? 1 : 0;
    std::vector<double> trips;
    for (int i = 0; i < kWarmTrips + kTimedTrips; ++i) {
        const double t0 = MPI_Wtime();
        if (world.rank() == 0) {
            mpi_check(MPI_Send(buffer.data(), bytes, MPI_BYTE, peer, kPingTag, world.comm()), "MPI_Send (ping)");
            mpi_check(MPI_Recv(buffer.data(), bytes, MPI_BYTE, peer, kPingTag, world.comm(), MPI_STATUS_IGNORE),
                      "MPI_Recv (pong)");
        } else {
            mpi_check(MPI_Recv(buffer.data(), bytes, MPI_BYTE, peer, kPingTag, world.comm(), MPI_STATUS_IGNORE),
                      "MPI_Recv (ping)");
            mpi_check(MPI_Send(buffer.data(), bytes, MPI_BYTE, peer, kPingTag, world.comm()), "MPI_Send (pong)");
        }
        if (i >= kWarmTrips) trips.push_back(MPI_Wtime() - t0);
    }
    std::nth_element(trips.begin(), trips.begin() + trips.size() / 2, trips.end());
    return trips[trips.size() / 2] / 2;
}

}  // namespace

PingPong ping_pong(const MpiWorld& world, long long large_bytes) {
    PingPong p;
    p.path = LinkPath::mpi_ranks;
    if (world.size() < 2 || world.rank() > 1) return p;
    p.large_bytes = std::min<long long>(large_bytes, INT_MAX);
    p.small_seconds = one_way_seconds(world, static_cast<int>(p.small_bytes));
    p.large_seconds = one_way_seconds(world, static_cast<int>(p.large_bytes));
    return p;
}

}  // namespace stencil::distributed
