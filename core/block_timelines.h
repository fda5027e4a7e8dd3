// The GPU's own timeline of one block: an instrumented launch of the tiled or the coarsened kernel
// records, for one chosen block, per warp, when it starts, has loaded its cells, arrives at the
// barrier, is released from it, has computed and has stored: %clock64 (the SM's cycles: one clock
// for all warps of a block, which share an SM) and %globaltimer (ns) at each of those six marks.
// The coarsened kernel's block marches z: it records the six marks for each of its OUT_TILE_DIM
// planes. It shows on real hardware what a barrier costs, plane by plane, and how long halo warps
// idle.
//
// A capability of the CUDA backend (backends/cuda/block_timeline.h records it), which
// `Backend::block_timelines()` returns; nullptr on a backend without it, and the front end says so
// in one line.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/backend.h"

namespace stencil {

// The marks, in the order each warp passes them (viewer/core/block_timeline.h draws them).
inline constexpr int kTimelineMarks = 6;  // start, loaded, arrived, released, computed, stored

struct RecordedTimeline {
    int warps = 0;
    int planes = 1;  // planes each warp stamped: 1 (tiled), OUT_TILE_DIM (coarsened's z-march)
    // warps x planes x kTimelineMarks, row-major. A mark no lane of a warp reached (a halo warp
    // computes nothing) holds the warp's previous mark: a phase of length 0.
    std::vector<std::uint64_t> cycles, ns;
    std::string device;      // "NVIDIA H100 80GB HBM3"
    bool output_ok = false;  // the instrumented launch's output within the reference's bound
    std::string check;       // compare_with_reference's summary
    std::uint64_t at(const std::vector<std::uint64_t>& v, int warp, int mark) const { return at(v, warp, 0, mark); }
    std::uint64_t at(const std::vector<std::uint64_t>& v, int warp, int plane, int mark) const {
        return v[((size_t)warp * planes + plane) * kTimelineMarks + mark];
    }
};

// The kernels that have phase marks to stamp (kernels/phase_marks.cuh): whether a timeline can be
// asked for is known without a GPU.
inline constexpr KernelId kTimelineKernels[] = {KernelId::tiled, KernelId::coarsened};
constexpr bool has_block_timeline(KernelId k) {
    for (KernelId t : kTimelineKernels)
        if (t == k) return true;
    return false;
}

class BlockTimelines {
public:
    virtual ~BlockTimelines() = default;
    // The timeline of block (bx, by, bz) of req's kernel (has_block_timeline) at its (T, r,
    // precision, grid). A usage error (another kernel, a block outside the grid) is a UserError in
    // one line.
    virtual RecordedTimeline record(const LaunchRequest& req, int bx, int by, int bz) = 0;
};

}  // namespace stencil
