// What the NCCL runs share, whatever the problem (nccl_run.cpp, device_piece.cpp): NCCL's
// errors as one line, NVLink multicast kept off, a box of a device array packed into a contiguous
// device buffer and back on a stream, and the GPUs this process can use. CUDA builds with NCCL.
#pragma once
#include <cuda_runtime_api.h>
#include <nccl.h>

#include <barrier>
#include <functional>

#include "distributed/box_copy.h"
#if STENCIL_LAB_HAVE_MPI
#include "distributed/mpi_world.h"
#endif

namespace stencil::distributed {

// Throws UserError("WHAT failed: NCCL's words") unless rc is ncclSuccess.
void nccl_check(ncclResult_t rc, const char* what);
// NCCL reads its environment once, when it first initialises: call before that.
void nvlink_multicast_off();
// A box of a device array (dims, x fastest) to (to_packed) or from a packed device buffer.
void copy_box_async(void* array, GridDims dims, int value_bytes, const Box& box, void* packed, bool to_packed,
                    cudaStream_t stream);
// The stream a GPU's halos travel on: non-blocking, and first in line for SMs (the highest
// priority), because NCCL's kernels and the packing copies are small and, behind a kernel that
// fills the GPU, would wait for its blocks to drain: the exchange would no longer hide behind it.
cudaStream_t create_exchange_stream();
int gpu_count();
// The name of GPU 0 ("" when it cannot be asked).
const char* first_gpu_name();

// `--gpus N`: one host thread per GPU 0..gpus-1, each with its device current and its
// communicator from ncclCommInitAll (NVLink multicast off first); drive(g, comm, together) runs
// GPU g's part, `together` a barrier of all the threads (a common start for the timed steps).
// A thread that throws ends the process with one line: the other GPUs may be waiting for it
// inside NCCL, so nothing could join them (as MPI_Abort would end the ranks).
void on_each_gpu(int gpus, const std::function<void(int g, ncclComm_t comm, std::barrier<>& together)>& drive);

#if STENCIL_LAB_HAVE_MPI
// One rank per GPU: the rank's place among the ranks of its host picks its GPU, made current.
// Collective: every rank learns whether NCCL loads and whether the host has a GPU for each of its
// ranks, and all throw UserError alike when not (never one rank hanging in a collective).
int select_gpu_of_rank(const MpiWorld& world);

// One rank per GPU: the exchange timed alone (median_exchange_seconds, nothing computing), then
// `steps` steps timed from a common start; each the slowest rank's, complete on rank 0. Collective.
struct RankTimes {
    double exchange_alone = 0;  // seconds per exchange
    double steps = 0;           // seconds for all the steps
};
RankTimes time_on_every_rank(const MpiWorld& world, int steps, const std::function<void()>& exchange_and_wait,
                             const std::function<void()>& step, const std::function<void()>& synchronize);
#endif

}  // namespace stencil::distributed
