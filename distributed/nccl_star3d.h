// The decomposed star3d run on GPUs, halos through NCCL (CUDA builds with NCCL only). Each GPU
// holds its local array twice (in and out) on the device; a step packs the faces on a stream of
// their own (cudaMemcpy3DAsync into contiguous buffers), moves them with ncclSend/ncclRecv in one
// group, unpacks them into the halo, and launches the lab's kernel (launch_lab_kernel, unchanged
// kernels) on the default stream. With overlap on, the faces across x and y travel first and the
// faces across z travel while the z-slab that reads no z halo is computed: an unchanged kernel can
// be pointed at a z-slab (x-y planes are contiguous) but not at a box cut in x or y, so z is the
// axis whose halos hide behind compute. Off (--no-overlap), the kernel waits for every face.
// NVLink multicast stays off (NCCL_NVLS_ENABLE=0 before NCCL initialises), as the device notes ask.
// Before the timed steps each run probes the link its halos take and times its exchange alone
// (nccl_link_probe.h): the result's `link` and `exchange_alone_seconds`, the model beside the
// measurement.
#pragma once
#include <string>

#include "distributed/star3d_result.h"
#if STENCIL_LAB_HAVE_MPI
#include "distributed/mpi_world.h"
#endif

namespace stencil::distributed {

// --gpus N: the decomposition over the first N GPUs of this process, one host thread per GPU,
// communicators from ncclCommInitAll (no MPI needed). GPU 0 also computes the single domain.
// Throws UserError for bad input before any GPU work; a GPU failing mid-run ends the process
// (the other GPUs would wait for it inside NCCL), with one line.
Star3dRunResult run_star3d_gpus(int gpus, const Star3dRunOptions& o);

#if STENCIL_LAB_HAVE_MPI
// Under mpirun, one rank per GPU (the rank's index among the ranks of its host picks the GPU);
// NCCL's communicator from an id that rank 0 draws (ncclGetUniqueId) and MPI broadcasts. The
// input is scattered and the result gathered through MPI as on the host path. Collective.
Star3dRunResult run_star3d_nccl(const MpiWorld& world, const Star3dRunOptions& o);
#endif

}  // namespace stencil::distributed
