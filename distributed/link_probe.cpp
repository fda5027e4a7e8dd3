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
    if (world.size() < 2 || world.rank() > 1) return p;
    p.large_bytes = std::min<long long>(large_bytes, INT_MAX);
    p.small_seconds = one_way_seconds(world, static_cast<int>(p.small_bytes));
    p.large_seconds = one_way_seconds(world, static_cast<int>(p.large_bytes));
    return p;
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

}  // namespace stencil::distributed
