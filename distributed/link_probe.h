// The link between ranks 0 and 1 measured on the spot (MPI): a ping-pong of a small message and of
// the decomposition's largest halo message, so the model's prediction (link_model.h) uses the
// bandwidth these ranks really get for the sizes they really send.
#pragma once
#include "distributed/link_model.h"
#include "distributed/mpi_world.h"

namespace stencil::distributed {

// Collective over the world (ranks other than 0 and 1 return at once). Complete on rank 0; a
// world of one rank has no link (all zeros).
PingPong ping_pong(const MpiWorld& world, long long large_bytes);

}  // namespace stencil::distributed
