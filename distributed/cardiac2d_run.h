// The cardiac2d problem's engine on the host (`stencil-lab run --problem cardiac2d --decompose
// PXxPY` under mpirun, halos through MPI: mpi_run.h), on the CPU engine. Each step after the
// exchange, in this order: the rank mirrors the ring on the mesh's outer sides only (the no-flux
// boundary: ghosts.cuh with its side mask, after the exchange, since a mirror two cells in may
// reach a neighbour's cells); the version's kernel on the piece (the kernels take nx x ny and a
// pitch); E and E_prev swap. The whole mesh alone goes through the same stepper: the same
// arithmetic on the same values, so bit for bit. One engine worker per rank: under mpirun the ranks
// are the parallelism (and a sweep's rows then compare like with like).
#pragma once
#include "distributed/cardiac2d_problem.h"
#include "distributed/mpi_world.h"

namespace stencil::distributed {

// Collective over the world: every rank calls it with the same options. The result is complete on
// rank 0. Throws UserError for what cardiac2d_run_error finds (on every rank, before any message).
Cardiac2dRunResult run_cardiac2d(const MpiWorld& world, const Cardiac2dRunOptions& o);

}  // namespace stencil::distributed
