// `stencil-lab run --decompose PXxPYxPZ`: the 3D star stencil on a grid split over MPI ranks. Each
// step every rank exchanges its faces (halo_exchange.h), then computes its local array with the
// chosen version through the backend's ordinary launch (Backend::execute, the kernels unchanged);
// out becomes in for the next step. Rank 0 scatters the input, gathers the result and compares it
// with the same steps computed on one domain alone, bit for bit: every cell is the same sum of the
// same products in the same order, so the maximum difference must be exactly 0.
#pragma once
#include "core/backend.h"
#include "distributed/mpi_world.h"
#include "distributed/star3d_result.h"

namespace stencil::distributed {

// Collective over the world: every rank calls it with the same options. The result is complete on
// rank 0. Throws UserError for what star3d_run_error finds (on every rank, before any message).
Star3dRunResult run_star3d(const MpiWorld& world, Backend& backend, const Star3dRunOptions& o);

}  // namespace stencil::distributed
