// The cardiac2d problem's engine on GPUs (nccl_run.h: ghost cells through NCCL; CUDA builds with
// NCCL only): each GPU mirrors its piece's outer sides and runs the version's kernel
// (launch_ghosts_on_device, launch_step_on_device), in the order of the MPI run (cardiac2d_run.h).
// The ghost columns arrive first; while the ghost rows travel, the rows that read none are stepped
// on the default stream (Cardiac2dRunOptions::overlap), and the two edge rows on the exchange's
// stream as soon as the ghost rows land.
#pragma once
#include "distributed/cardiac2d_problem.h"
#if STENCIL_LAB_HAVE_MPI
#include "distributed/mpi_world.h"
#endif

namespace stencil::distributed {

// --gpus N (nccl_run.h, run_on_gpus): GPU 0 also steps the whole mesh alone.
Cardiac2dRunResult run_cardiac2d_gpus(int gpus, const Cardiac2dRunOptions& o);

#if STENCIL_LAB_HAVE_MPI
// Under mpirun, one rank per GPU (nccl_run.h, run_nccl). Collective.
Cardiac2dRunResult run_cardiac2d_nccl(const MpiWorld& world, const Cardiac2dRunOptions& o);
#endif

}  // namespace stencil::distributed
