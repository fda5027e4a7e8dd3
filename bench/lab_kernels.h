// The lab's own kernels (kernels/*.cuh) for the baseline's configurations: fp32, radius 1, the
// seed table's tiles. Instantiated and launched by this folder (lab_kernels.cu), not through the
// CUDA backend, so that `stencil-lab baseline` can interleave them launch by launch with the
// textbook's listings (Backend::time_ms times a block of launches of one kernel at a time).
// Plain C++: no CUDA headers.
#pragma once
#include "core/weights.h"
#include "kernels/versions.h"

namespace stencil::bench {

// True when (k, tile) is instantiated here: naive (any block edge), tiled 4/6/8/10, coarsened and
// register-tiled 16/32.
bool lab_is_built(KernelId k, int tile);

// Copies the weights, rounded to fp32, into this folder's copy of c_coefficients_f32 (each TU that
// launches the lab's kernels has its own: kernels/stencil_coefficients.cuh). Synchronous.
void upload_lab_weights(const StencilWeights& weights);

// Launches the lab's kernel (k, T, r = 1, fp32) on the geometry of launch_geometry()
// (kernels/versions.h: the one place the lab writes its launch shape down), default stream,
// asynchronously. Throws UserError when the launch itself fails.
void launch_lab(KernelId k, int tile, GridDims dims, const float* in, float* out);

// The kernel's handle (for cudaFuncGetAttributes); nullptr when not built.
const void* lab_function(KernelId k, int tile);

}  // namespace stencil::bench
