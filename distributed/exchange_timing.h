// The halo exchange timed on its own (MPI), for the model's comparison: the ranks first meet at a
// barrier, then exchange a few times back to back with nothing between, so no rank waits for a
// neighbour's compute. Re-exchanging is harmless: the owned cells do not change, so the halos
// receive what they already hold.
#pragma once
#include "distributed/halo_exchange.h"

namespace stencil::distributed {

// The slowest rank's median seconds per exchange (complete on rank 0). Collective.
double time_exchange_alone(const MpiWorld& world, HaloExchange& halo, void* local, int repeats = 11);

}  // namespace stencil::distributed
