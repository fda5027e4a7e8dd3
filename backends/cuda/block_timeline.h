// The CUDA backend's block timelines (core/block_timelines.h says what they record).
//
// The instrumented kernels are the lab's kernels/tiled.cuh and kernels/coarsened.cuh themselves,
// compiled a second time (block_timeline.cu) with stamps behind their phase marks
// (kernels/phase_marks.cuh: nothing in the lab's launches); their outputs are checked against the
// fp64 reference like any launch's. Plain C++ here (no CUDA headers).
#pragma once
#include "core/block_timelines.h"

namespace stencil {

// Records the timeline of block (bx, by, bz) of req's kernel (tiled or coarsened) at its (T, r,
// precision, grid) on the first CUDA device. A usage error (another kernel, a block outside the
// grid, no GPU) is a UserError in one line.
RecordedTimeline record_block_timeline(const LaunchRequest& req, int bx, int by, int bz);

}  // namespace stencil
