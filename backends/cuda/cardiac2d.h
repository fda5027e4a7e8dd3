// The cardiac2d kernels on the GPU: kernels/cardiac2d/*.cuh compiled by nvcc (cardiac2d.cu), one
// launcher per row of the versions table, each for float and double, launched on the geometry of
// kernels/cardiac2d/versions.h. Plain C++ header: the CLI, the viewer and the GPU tests include it.
#pragma once
#include <vector>

#include "backends/cuda/gpu_stream.h"
#include "core/cardiac2d_check.h"

namespace stencil::cardiac2d {

class CudaStepper : public Stepper, public StepTimer {
public:
    std::string backend_name() const override { return "cuda"; }
    // Copies the state in, runs `steps` steps (ghost filling, then the version's kernel or kernels,
    // then a swap of E and E_prev), copies it back. Throws UserError on any CUDA error.
    void advance(KernelId k, Precision p, State& s, int steps) override;

    // Milliseconds per step: `reps` samples, each the mean over `steps` steps from the spiral's
    // start on an n x n mesh, timed with CUDA events after one untimed run of the same steps. The
    // steps follow each other as in a simulation (no cache flush between them).
    std::vector<double> time_step_ms(KernelId k, Precision p, int n, int steps, int reps) override;
    StepTimer* timer() override { return this; }
};

// One update of kernel k on device arrays of (n + 2)^2 values (the ghost ring of E_prev already
// filled; nothing else launched), on the default stream, asynchronous: the checker's runner times
// a submission against the lab's kernel with it. Throws UserError when the launch fails.
void launch_update_on_device(KernelId k, Precision p, const void* E_prev, void* E, void* R, int n, double alpha,
                             double dt);

// The same on a piece of the mesh (kernels/cardiac2d/versions.h, Piece), and the ghost filler that
// mirrors only the sides in `outer_sides` (OuterSide bits): the two halves of a step for a caller
// that fills the other sides' ghost cells itself (a rank of a decomposition). Asynchronous, the
// step on `stream` (the default stream unless told), the ghosts on the default stream; throw
// UserError when the launch fails.
void launch_step_on_device(KernelId k, Precision p, const void* E_prev, void* E, void* R, const Piece& piece,
                           double alpha, double dt, GpuStream stream = nullptr);
void launch_ghosts_on_device(Precision p, void* E_prev, const Piece& piece, int outer_sides);

}  // namespace stencil::cardiac2d
