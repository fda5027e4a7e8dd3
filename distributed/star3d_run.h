// The star3d problem's engine on the host (`stencil-lab run --decompose PXxPYxPZ` under mpirun,
// halos through MPI: mpi_run.h): each pass computes a rank's local array with the chosen version
// through the backend's ordinary launch (Backend::execute, the kernels unchanged); out becomes in
// for the next pass.
#pragma once
#include "core/backend.h"
#include "distributed/mpi_world.h"
#include "distributed/star3d_problem.h"

namespace stencil::distributed {

// Collective over the world: every rank calls it with the same options. The result is complete on
// rank 0. Throws UserError for what star3d_run_error finds (on every rank, before any message).
Star3dRunResult run_star3d(const MpiWorld& world, Backend& backend, const Star3dRunOptions& o);

}  // namespace stencil::distributed
