// The text the viewer prints with --headless-report on a machine without a display: the model of
// the four kernels (the table the OP/B and halo panels draw), and where the GPU figures would be.
#pragma once
#include <string>

#include "kernels/versions.h"

namespace stencil::viewer {

std::string headless_report(int radius = 1, Precision p = Precision::f32);

}  // namespace stencil::viewer
