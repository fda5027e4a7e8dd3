// `stencil-lab run --problem cardiac2d --decompose PXxPY` under mpirun: text 002's cardiac
// assignment as the course decomposes it (the P1..P15 picture), on the CPU backend. The n x n mesh
// is cut into pieces (analysis::cardiac_piece); each rank holds its piece of E_prev, E and R with a
// one-cell ghost ring. Each step, in this order: E_prev's edge rows and columns go to the
// neighbours and theirs come into the ring (halo_exchange.h, one cell wide, no corners: a 5-point
// stencil never reads them); the rank mirrors the ring on the mesh's outer sides only (the no-flux
// boundary: ghosts.cuh with its side mask, after the exchange, since a mirror two cells in may
// reach a neighbour's cells); the version's kernel on the piece (the kernels take nx x ny and a
// pitch); E and E_prev swap. Rank 0 gathers E and R and compares them with the whole mesh computed
// alone by the same stepper: the same arithmetic on the same values, so bit for bit.
#pragma once
#include "backends/cpu/cardiac2d_cpu.h"
#include "distributed/cardiac2d_result.h"
#include "distributed/mpi_world.h"

namespace stencil::distributed {

// Collective over the world: every rank calls it with the same options. The result is complete on
// rank 0. Throws UserError for what cardiac2d_run_error finds (on every rank, before any message).
Cardiac2dRunResult run_cardiac2d(const MpiWorld& world, cardiac2d::CpuStepper& stepper, const Cardiac2dRunOptions& o);

}  // namespace stencil::distributed
