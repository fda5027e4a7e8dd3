// Phase marks: where a kernel's warps pass from one phase of a block's work to the next (started,
// loaded their cells, released from the barrier, computed, stored). In the lab's launches a mark
// is an empty inline call that compiles to nothing: the kernels' PTX and speed do not change. The
// GPU's block timeline (backends/cuda/block_timeline.cu) compiles the same kernels a second time
// with a phase_mark of its own in scope, which stamps %clock64 and %globaltimer for one chosen
// block: one copy of each kernel, instrumented where it is recorded.
#pragma once
// Plain CUDA C++: nvcc (the GPU backend) and NVRTC (the PTX engine) compile this file unchanged.

namespace stencil {

// The phases, in the order a warp passes them (plain ints: a call finds the phase_mark in scope,
// never one in this namespace by argument-dependent lookup).
constexpr int kPhaseStart = 0;     // the block's work begins
constexpr int kPhaseLoaded = 1;    // this thread's cells are in shared memory; next, the barrier
constexpr int kPhaseReleased = 3;  // past the barrier
constexpr int kPhaseComputed = 4;  // the output is summed, not yet stored
constexpr int kPhaseStored = 5;    // the output is stored (or the thread had none)
constexpr int kPhasePlaneStart = 6;  // a z-marching block begins output plane `plane` (> 0)

__device__ __forceinline__ void phase_mark(int /*phase*/, int /*plane*/ = 0) {}

}  // namespace stencil
