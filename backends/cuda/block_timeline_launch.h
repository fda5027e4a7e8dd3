// Internal to block_timeline: the instrumented launch (block_timeline.cu, nvcc) as the host side
// (block_timeline.cpp) calls it. Plain C++: no CUDA types cross it.
#pragma once
#include <cstdint>

#include "core/weights.h"
#include "kernels/versions.h"

namespace stencil::cuda_detail {

struct TimelineLaunch {
    Precision precision = Precision::f32;
    int tile = 8, radius = 1;
    GridDims dims;
    Dim3 grid, block;
    int chosen[3] = {0, 0, 0};             // the block that records
    const void* in = nullptr;               // device arrays of the precision
    void* out = nullptr;
    unsigned long long* cycles = nullptr;   // device: warps x planes x 6 stamps (tiled: 1 plane)
    unsigned long long* ns = nullptr;
    const StencilWeights* weights = nullptr;
};

// Uploads the weights to this TU's constant memory, launches and synchronises (a CUDA error is a
// UserError). False when (precision, T, r) is not built.
bool launch_tiled_timeline(const TimelineLaunch& l);
// The same for the coarsened kernel: OUT_TILE_DIM planes of stamps per warp.
bool launch_coarsened_timeline(const TimelineLaunch& l);

}  // namespace stencil::cuda_detail
