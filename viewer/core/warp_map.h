// Coalescing as the trace records it: for one warp of the stepper's block, every global request
// with the lanes, grid rows and 32-byte sectors it touched; and which warp each thread of the
// block belongs to (the colour map over the tile).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/engine_trace.h"
#include "viewer/core/stepper.h"

namespace stencil::viewer {

struct WarpLoad {
    int interval = 0, site = 0, occurrence = 0;
    engine::Op op = engine::Op::load;
    int buffer = 0;
    int lanes = 0;                 // active lanes
    int rows = 0;                  // distinct x-rows (y, z) of the grid
    int sectors = 0;               // distinct 32-byte sectors
    int lines = 0;                 // distinct 128-byte lines
    double efficiency = 0;         // lanes * size / (sectors * 32)
    std::vector<int> lane_row;     // per lane: index of its row in this request (-1: inactive)
    std::vector<int> lane_sector;  // per lane: index of its sector in this request (-1)
    std::vector<long long> lane_offset;  // per lane: its byte offset in the buffer (-1: inactive)
    int size = 0;                  // bytes per lane
    std::vector<long long> row_id; // per row: z * ny + y
    std::vector<long long> sector_id;
    std::string label;             // "load 3 (interval 0)"
};

struct WarpSummary {
    int requests = 0;
    double sectors_per_request = 0;
    double efficiency = 0;     // requested bytes / fetched sector bytes over all requests
    double rows_per_request = 0;
};

// Global requests (loads and stores) of warp `warp` of the traced block, in program order.
std::vector<WarpLoad> warp_loads(const StepperTrace& t, int warp);
// Over the global loads of one warp (warp >= 0) or of every warp of the block (warp = -1).
WarpSummary summarize_loads(const StepperTrace& t, int warp);
// Warp index of each thread of a block of `block` threads (CUDA numbering: x fastest).
std::vector<int> warp_of_threads(Dim3 block);
int warps_in_block(Dim3 block);

}  // namespace stencil::viewer
