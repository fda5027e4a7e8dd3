#include "distributed/exchange_timing.h"

#include <algorithm>
#include <chrono>
#include <vector>

namespace stencil::distributed {

double time_exchange_alone(const MpiWorld& world, HaloExchange& halo, void* local, int repeats) {
    mpi_check(MPI_Barrier(world.comm()), "MPI_Barrier before the exchanges");
    // The median, as the ping-pong's (link_probe.cpp): on a shared machine a rank descheduled for a
    // time slice would otherwise dominate a mean of microsecond exchanges.
    std::vector<double> times;
    for (int i = 0; i < repeats; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        halo.exchange(local);
        times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
    const double mine = times[times.size() / 2];
    double slowest = 0;
    mpi_check(MPI_Reduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, world.comm()), "MPI_Reduce of the times");
    return slowest;
}

}  // namespace stencil::distributed
