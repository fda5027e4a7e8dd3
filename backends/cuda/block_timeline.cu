// ---------------------------------------------------------------------------------------------
// The tiled kernel (kernels/tiled.cuh) and the coarsened one (kernels/coarsened.cuh) with a
// stopwatch: the lab's own kernels, compiled a second time here with the phase_mark below in scope
// of their phase marks (kernels/phase_marks.cuh) instead of the lab's empty one. Six stamps per
// warp (per plane of the z-march for coarsened) of one chosen block (block_timeline.h): start,
// loaded, arrived (at the barrier, right after loading), released, computed, stored. Only the
// chosen block writes stamps, and only the lowest active lane of a warp, so the other blocks run
// the kernel's own instruction stream but for a compare and a branch per mark.
// nvcc compiles this file only: no fmt here (block_timeline.cpp is the host side).
// ---------------------------------------------------------------------------------------------
#include "backends/cuda/block_timeline_launch.h"

#include "backends/cuda/cuda_util.h"
#include "backends/cuda/weights_star.cuh"
#include "kernels/dispatch.h"
#include "kernels/phase_marks.cuh"
#include "kernels/stencil_coefficients.cuh"

namespace stencil::cuda_detail {

namespace {

enum Mark { kStart, kLoaded, kArrived, kReleased, kComputed, kStored };
static_assert(kPhaseStart == kStart && kPhaseLoaded == kLoaded && kPhaseReleased == kReleased &&
                  kPhaseComputed == kComputed && kPhaseStored == kStored,
              "a kernel's phase is the mark it stamps");

// What the launch records: the chosen block, and per warp, plane and mark its stamps.
struct Recording {
    int3 chosen;
    int planes;  // 1 (tiled), OUT_TILE_DIM (coarsened's z-march)
    unsigned long long* cycles;
    unsigned long long* ns;
};
__constant__ Recording c_recording;

__device__ __forceinline__ unsigned long long global_ns() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

// The warp's lowest active lane writes the warp's stamp of `mark` of plane `plane`. Layout: warp,
// plane, mark.
__device__ void stamp(int mark, int plane) {
    const Recording& r = c_recording;
    const int thread = (int)(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z));
    if (thread % 32 != __ffs(__activemask()) - 1) return;
    const int at = ((thread / 32) * r.planes + plane) * 6 + mark;
    r.cycles[at] = clock64();
    r.ns[at] = global_ns();
}

// The kernels' phase marks, found before the lab's empty stencil::phase_mark by the kernels
// included below (an unqualified call looks in the enclosing namespaces, innermost first).
__device__ void phase_mark(int phase, int plane = 0) {
    if (phase == kPhaseStored) __syncwarp();  // the warp reconverged: its store is done
    const bool chosen = (int)blockIdx.x == c_recording.chosen.x && (int)blockIdx.y == c_recording.chosen.y &&
                        (int)blockIdx.z == c_recording.chosen.z;
    if (!chosen) return;
    if (phase == kPhasePlaneStart) {
        // Plane 0's start is the block's (before the 2r planes loaded ahead), stamped at the top.
        if (plane > 0) stamp(kStart, plane);
        return;
    }
    stamp(phase, plane);
    if (phase == kPhaseLoaded) stamp(kArrived, plane);  // the barrier follows the load at once
}

// The lab's kernels again, as stencil::cuda_detail::(this TU)::instrumented::stencil::*: their
// headers are not included anywhere above (#pragma once would leave this namespace empty, and the
// launches below would not compile), while everything they include is, so only the kernels land
// here. A name of their own keeps their host stubs apart from the lab's launch units'.
namespace instrumented {
#include "kernels/coarsened.cuh"
#include "kernels/tiled.cuh"
}  // namespace instrumented

void record_into(const TimelineLaunch& l, int planes) {
    const Recording r{int3{l.chosen[0], l.chosen[1], l.chosen[2]}, planes, l.cycles, l.ns};
    check(cudaMemcpyToSymbol(c_recording, &r, sizeof r), "cudaMemcpyToSymbol (the recording)");
    upload_weights_here(*l.weights, l.precision);
}

}  // namespace

bool launch_coarsened_timeline(const TimelineLaunch& l) {
    bool launched = false;
    dispatch<KernelId::coarsened>(l.precision, l.tile, l.radius, [&]<class real, int TT, int RR>() {
        record_into(l, TT - 2 * RR);
        instrumented::stencil::stencil_coarsened_kernel<real, TT, RR>
            <<<dim3(l.grid.x, l.grid.y, l.grid.z), dim3(l.block.x, l.block.y, l.block.z)>>>(
                static_cast<const real*>(l.in), static_cast<real*>(l.out), l.dims.nx, l.dims.ny, l.dims.nz);
        launched = true;
    });
    if (launched) check_launch("the instrumented coarsened kernel", true);
    return launched;
}

bool launch_tiled_timeline(const TimelineLaunch& l) {
    bool launched = false;
    dispatch<KernelId::tiled>(l.precision, l.tile, l.radius, [&]<class real, int TT, int RR>() {
        record_into(l, 1);
        instrumented::stencil::stencil_tiled_kernel<real, TT, RR>
            <<<dim3(l.grid.x, l.grid.y, l.grid.z), dim3(l.block.x, l.block.y, l.block.z)>>>(
                static_cast<const real*>(l.in), static_cast<real*>(l.out), l.dims.nx, l.dims.ny, l.dims.nz);
        launched = true;
    });
    if (launched) check_launch("the instrumented tiled kernel", true);
    return launched;
}

}  // namespace stencil::cuda_detail
