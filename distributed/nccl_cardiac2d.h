// The decomposed cardiac mesh on GPUs, ghost cells through NCCL (CUDA builds with NCCL only): the
// same pieces and order as the MPI run (cardiac2d_run.h), each GPU holding its piece of E_prev, E
// and R on the device. A step packs E_prev's edge rows and columns on a stream of their own
// (cudaMemcpy3DAsync into contiguous buffers), moves them with ncclSend/ncclRecv in one group,
// unpacks them into the ghost ring, then on the default stream (ordered by events) mirrors the
// outer sides and runs the version's kernel (launch_ghosts_on_device, launch_step_on_device). No
// overlap: a 2D piece has no slab that reads no ghost cell and an unchanged kernel could take.
// NVLink multicast stays off (NCCL_NVLS_ENABLE=0 before NCCL initialises).
// Before the timed steps each run probes the link its halos take and times its exchange alone
// (nccl_link_probe.h): the result's `link` and `exchange_alone_seconds`, the model beside the
// measurement.
#pragma once
#include "distributed/cardiac2d_result.h"
#if STENCIL_LAB_HAVE_MPI
#include "distributed/mpi_world.h"
#endif

namespace stencil::distributed {

// --gpus N: the pieces on the first N GPUs of this process, one host thread per GPU, communicators
// from ncclCommInitAll. GPU 0 also steps the whole mesh alone. Throws UserError for bad input
// before any GPU work; a GPU failing mid-run ends the process with one line.
Cardiac2dRunResult run_cardiac2d_gpus(int gpus, const Cardiac2dRunOptions& o);

#if STENCIL_LAB_HAVE_MPI
// Under mpirun, one rank per GPU (the rank's index among the ranks of its host picks the GPU);
// NCCL's communicator from an id rank 0 draws and MPI broadcasts; the start scattered and the
// result gathered through MPI. Collective.
Cardiac2dRunResult run_cardiac2d_nccl(const MpiWorld& world, const Cardiac2dRunOptions& o);
#endif

}  // namespace stencil::distributed
