// `run --decompose` on GPUs, halos through NCCL (CUDA builds with NCCL only), for any problem
// (decomposed_problem.h) on its GPU engine (GpuSteps): each GPU holds its piece (device_piece.h);
// a pass exchanges field 0's faces on a stream of their own and launches the problem's steps on
// the default stream, ordered by events. NVLink multicast stays off (NCCL_NVLS_ENABLE=0 before
// NCCL initialises), as the device notes ask. Before the timed passes each run probes the link its
// halos take and times its exchange alone (nccl_link_probe.h): the result's `link` and
// `exchange_alone_seconds`, the model beside the measurement. The problems' engines:
// nccl_star3d.h, nccl_cardiac2d.h.
#pragma once
#include <memory>
#include <optional>
#include <string>

#include "distributed/decomposed_problem.h"
#include "distributed/device_piece.h"
#if STENCIL_LAB_HAVE_MPI
#include "distributed/mpi_world.h"
#endif

namespace stencil::distributed {

// A piece's launches on its GPU (current), on the default stream.
class GpuPieceSteps {
public:
    virtual ~GpuPieceSteps() = default;
    // Pass `k`: field 0's faces across the inner axes are in piece.in(); those across the
    // outermost one (DevicePiece::late_axis) are there after piece.wait_for_late_halos(). Reads
    // in(), writes out() and the other fields.
    virtual void pass(int k, DevicePiece& piece) = 0;
};

class GpuSteps {
public:
    virtual ~GpuSteps() = default;
    // Why this build or machine cannot launch the run's kernel; nullopt when it can.
    virtual std::optional<std::string> unavailable() const = 0;
    virtual void on_device() const = 0;  // once per GPU, made current, before its piece (weights)
    virtual std::unique_ptr<GpuPieceSteps> on_piece(const analysis::SubBox& box) const = 0;
    // The same steps on the whole grid on the current GPU, and their time per step.
    virtual Fields single_domain(const Fields& start, double* seconds_per_step) const = 0;
};

// --gpus N: the decomposition over the first N GPUs of this process, one host thread per GPU,
// communicators from ncclCommInitAll (no MPI needed). GPU 0 also computes the single domain.
// Throws UserError for bad input before any GPU work; a GPU failing mid-run ends the process
// (the other GPUs would wait for it inside NCCL), with one line.
DecomposedRunResult run_on_gpus(int gpus, const DecomposedProblem& problem, const GpuSteps& steps);

#if STENCIL_LAB_HAVE_MPI
// Under mpirun, one rank per GPU (the rank's index among the ranks of its host picks the GPU);
// NCCL's communicator from an id that rank 0 draws (ncclGetUniqueId) and MPI broadcasts. The
// start is scattered and the result gathered through MPI as on the host path. Collective.
DecomposedRunResult run_nccl(const MpiWorld& world, const DecomposedProblem& problem, const GpuSteps& steps);
#endif

}  // namespace stencil::distributed
