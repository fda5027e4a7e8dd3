// A student's kernel in the stepper: the file is vetted and wrapped as the checker does (its
// exercise's contract and harness), compiled with NVRTC and run on the CPU engine by the checker's
// runner in a child process (checker/process.h: own process group, wall-clock and memory limits),
// which records one block's accesses (checker/protocol.h TraceSpec). A fault, a hang or a crash
// of the kernel ends the child, never the viewer: the trace's `error` says what happened.
//
//   StepperConfig c; c.kernel_file = "exercises/tiled/stencil.cu"; c.exercise = "tiled";
//   StepperTrace t = trace_block(c);   // dispatches here when kernel_file is set
#pragma once
#include <atomic>
#include <string>

#include "viewer/core/stepper.h"

namespace stencil::viewer {

// The star3d exercise's row, T, r and precision written into `cfg` (kernel, tile, radius,
// precision), or why the exercise cannot be stepped (unknown, not a star3d exercise).
std::string resolve_student_config(StepperConfig& cfg);

StepperTrace trace_student_kernel(const StepperConfig& cfg, const std::atomic<bool>* cancel = nullptr);

// Where the checker's runner is: $STENCIL_CHECK_RUNNER, beside this executable or one folder up,
// then the build tree's.
std::string check_runner_path();

}  // namespace stencil::viewer
