// The star3d problem's engine on GPUs (nccl_run.h: halos through NCCL; CUDA builds with NCCL
// only): the lab's kernel (launch_lab_kernel, unchanged kernels) on each GPU's local array. With
// overlap on, the faces across x and y travel first and the faces across z travel while the
// z-slab that reads no z halo is computed: an unchanged kernel can be pointed at a z-slab (x-y
// planes are contiguous) but not at a box cut in x or y, so z is the axis whose halos hide behind
// compute. Off (--no-overlap), the kernel waits for every face.
#pragma once
#include "distributed/star3d_problem.h"
#if STENCIL_LAB_HAVE_MPI
#include "distributed/mpi_world.h"
#endif

namespace stencil::distributed {

// --gpus N (nccl_run.h, run_on_gpus).
Star3dRunResult run_star3d_gpus(int gpus, const Star3dRunOptions& o);

#if STENCIL_LAB_HAVE_MPI
// Under mpirun, one rank per GPU (nccl_run.h, run_nccl). Collective.
Star3dRunResult run_star3d_nccl(const MpiWorld& world, const Star3dRunOptions& o);
#endif

}  // namespace stencil::distributed
