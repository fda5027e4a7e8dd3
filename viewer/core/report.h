// The text the viewer prints with --headless-report on a machine without a display: the model of
// every kernel (the table the OP/B and halo panels draw), where the GPU figures would be, and
// a checked, timed run of each kernel on the best backend here (what the runs panel would show).
#pragma once
#include <string>

#include "core/backend.h"
#include "kernels/versions.h"

namespace stencil::viewer {

std::string headless_report(int radius = 1, Precision p = Precision::f32);

// Each kernel at its default tile on `backend`, N^3 (0: 256 on the GPU, 48 on the CPU backend):
// run_kernel checks it against the fp64 reference, then times it. One line per kernel; `ok` is
// false when a check failed.
std::string headless_runs(Backend& backend, int n, bool& ok);

}  // namespace stencil::viewer
