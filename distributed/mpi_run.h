// `run --decompose` under mpirun, halos through MPI on the host, for any problem
// (decomposed_problem.h) on any engine of its (HostSteps). Rank 0 scatters the start as each
// rank's piece (halos included); every pass each rank exchanges field 0's faces (halo_exchange.h),
// then launches the problem's steps on its piece, unchanged kernels on a smaller grid; rank 0
// gathers the owned boxes and compares them with the same steps on one domain alone, bit for bit:
// every value is the same arithmetic on the same values, so the maximum difference must be 0.
#pragma once
#include "distributed/decomposed_problem.h"
#include "distributed/mpi_world.h"

namespace stencil::distributed {

// Collective over the world: every rank calls it with the same problem. The result is complete on
// rank 0 (its verdict on every rank). Throws UserError for what run_error finds, on every rank
// before any message.
DecomposedRunResult run_on_ranks(const MpiWorld& world, const DecomposedProblem& problem, HostSteps& steps);

// The pieces of the driver that the GPU run under mpirun (nccl_run.h) shares. Collective.
// Each rank's piece of every field; `whole` is read on rank 0 only.
Fields scatter_fields(const MpiWorld& world, const DecomposedProblem& problem, const Fields& whole);
// The whole grid's fields on rank 0 (empty elsewhere), each cell from the rank that owns it.
Fields gather_fields(const MpiWorld& world, const DecomposedProblem& problem, const Fields& piece);
// Every rank's `mine` on rank 0, in rank order (empty elsewhere).
std::vector<long long> gather_from_ranks(const MpiWorld& world, long long mine);
// Rank 0's ok for every rank's exit code.
void broadcast_verdict(const MpiWorld& world, DecomposedRunResult& r);

}  // namespace stencil::distributed
