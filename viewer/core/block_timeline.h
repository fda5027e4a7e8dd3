// The timeline of one block: per warp, what it does when (load, wait at a barrier, compute,
// store), so that a barrier's cost and the idle halo warps show. Two sources, one picture:
//   - the GPU (backends/cuda/block_timeline.h): an instrumented launch stamps each warp's phases
//     with %globaltimer into a device buffer: BlockStamps, warps x marks, in nanoseconds;
//   - the CPU engine's trace (no GPU): the stepper's steps are the clock, each warp's accesses
//     say which phase it is in, and from its last access before a barrier to the barrier's release
//     it waits.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "viewer/core/stepper.h"

namespace stencil::viewer {

enum class TimelinePhase : std::uint8_t { load, wait, compute, store };
inline constexpr int kTimelinePhases = 4;
const char* to_string(TimelinePhase p);

struct TimelineSpan {
    TimelinePhase phase = TimelinePhase::load;
    double begin = 0, end = 0;  // in the timeline's unit
    int interval = 0;           // barrier interval
};

struct BlockTimeline {
    std::string unit;                             // "step" (CPU engine), "ns" (GPU) or "cycles"
    bool modelled = false;                        // from the timing model (timing_model.h), not measured
    std::string source;                           // where it came from, for people
    std::vector<std::vector<TimelineSpan>> warps; // per warp, in time order, not overlapping
    std::vector<double> barriers;                 // when each barrier released the block
    double end = 0;                               // the last warp's last moment
    // Summed over warps: how long the block's warps spent in `p`.
    double total(TimelinePhase p) const;
    bool empty() const { return warps.empty(); }
};

// From the CPU engine's trace of the stepper's block: step s lasts from s - 1 to s. A warp's step
// is `load` when it loads from global memory or stores to shared memory (the collaborative load),
// `compute` when it reads shared memory, `store` when it stores to global memory; from its last
// step in an interval to the interval's last step it waits at the barrier (after the last
// interval it has finished: no span).
BlockTimeline timeline_from_trace(const StepperTrace& t);

// What an instrumented launch records per warp (lane 0 of it), in order; one stamp each, in the
// clock's unit. Marks of a phase the warp skips (a halo warp computes nothing) repeat the previous
// stamp: a span of length 0. A z-marching block (coarsened) records the six marks per plane.
enum class Mark : std::uint8_t { start, loaded, arrived, released, computed, stored };
inline constexpr int kMarks = 6;
using WarpStamps = std::array<std::uint64_t, kMarks>;
struct BlockStamps {
    std::string unit = "ns";
    std::string source;                          // "H100, tiled T=8 r=1, block (1,1,1)"
    std::vector<std::vector<WarpStamps>> warps;  // per warp, its planes' stamps (tiled: one)
};
// Spans from stamps, per plane p: start..loaded load, loaded..arrived compute (address math),
// arrived..released wait (barrier interval 2p), released..computed compute, computed..stored
// store, and stored..the next plane's start a wait (the plane shift's barrier, interval 2p + 1);
// times relative to the earliest start. A barrier's release is its first warp's.
BlockTimeline timeline_from_stamps(const BlockStamps& s);

// The kernels with an instrumented GPU launch (tiled, coarsened): the timeline panel offers them.
std::vector<KernelId> gpu_timeline_kernels();

// The GPU's own timeline of the stepper's block (tiled or coarsened): an instrumented launch on
// the first CUDA device (backends/cuda/block_timeline.h), in clock64 cycles. nullopt, with the
// reason in `why`, in a build without CUDA, without a GPU, or for another kernel.
std::optional<BlockStamps> record_gpu_stamps(const StepperConfig& cfg, std::string* why);

// The timeline's view: what part of [0, end) is shown (zoom and pan), and where a time falls.
struct TimeWindow {
    double from = 0, to = 1;
    double x_of(double t, double x0, double width) const { return x0 + (t - from) / (to - from) * width; }
};
// Zooms by `factor` (> 1: in) about time `at`, kept inside [0, end]; a window at least 1 unit wide.
TimeWindow zoom_window(TimeWindow w, double at, double factor, double end);

}  // namespace stencil::viewer
