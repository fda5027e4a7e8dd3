// The cardiac2d kernels on the CPU backend: kernels/cardiac2d/*.cuh compiled by NVRTC to PTX (one
// program per precision, every version's kernels and the ghost filler, through the lab's disk
// cache: backends/cpu/ptx/lab_ptx.h) and run by the PTX engine (backends/cpu/ptx/engine.h), so the
// CPU runs the very instructions the GPU's driver would assemble.
#pragma once
#include <memory>

#include "core/engine_trace.h"
#include "core/cardiac2d_check.h"

namespace stencil::cardiac2d {

class CpuStepper : public Stepper {
public:
    // `exec`: the engine's options for every launch (checks, schedules, workers).
    explicit CpuStepper(engine::ExecOptions exec = {});
    std::string backend_name() const override { return "cpu"; }
    // Throws UserError when a launch faults or, with checks on, races or reads unset shared memory:
    // the first diagnostic, with its source line.
    void advance(KernelId k, Precision p, State& s, int steps) override;

    // The two halves of a step on one piece of the mesh, for a caller that owns the ghost ring (a
    // rank of a decomposition: distributed/cardiac2d_run.cpp). Arrays of piece.cells() values of
    // p's type (float or double). fill_ghosts mirrors the sides in `outer_sides` (OuterSide bits)
    // and leaves the others as the caller filled them; step runs kernel k once, reading E_prev
    // and writing E and R on the interior. alpha and dt are the whole mesh's (discretise(n)),
    // rounded to p here as advance rounds them. Throw UserError as advance does.
    void fill_ghosts(Precision p, void* E_prev, const Piece& piece, int outer_sides);
    void step(KernelId k, Precision p, const void* E_prev, void* E, void* R, const Piece& piece, double alpha,
              double dt);

    // Totals over every launch since construction: interpreted instructions and wall seconds.
    long long instructions() const { return instructions_; }
    double seconds() const { return seconds_; }

private:
    engine::ExecOptions exec_;
    long long instructions_ = 0;
    double seconds_ = 0;
};

}  // namespace stencil::cardiac2d
