// Coalescing as the textbook draws it: one warp's request laid out on a memory axis. Each lane's
// byte address, the 32-byte sectors and the 128-byte lines the addresses fall in, the sectors the
// request costs and how much of them the lanes use.
//
// Addresses of a request can lie far apart (a warp of an 8 x 8 x 8 block reads 4 rows nx cells
// apart), so the axis is cut into segments: runs of touched lines that are next to each other in
// memory; the panel draws the segments side by side with a break between them.
#pragma once
#include <vector>

#include "viewer/core/warp_map.h"

namespace stencil::viewer {

inline constexpr int kSectorBytes = 32;
inline constexpr int kLineBytes = 128;

struct AxisSector {
    long long index = 0;     // byte offset / 32 (offsets from a 256-byte aligned buffer base)
    int bytes_used = 0;      // distinct bytes of it the lanes asked for
    std::uint32_t lanes = 0; // bit i: lane i reads from it
};

struct AxisSegment {
    long long first_line = 0, last_line = 0;  // touched 128-byte lines, contiguous, inclusive
    std::vector<AxisSector> sectors;           // the touched sectors within them, ascending
    long long first_byte() const { return first_line * kLineBytes; }
    long long end_byte() const { return (last_line + 1) * kLineBytes; }
};

struct MemoryAxis {
    int size = 0;                        // bytes per lane access
    std::vector<long long> lane_offset;  // per lane: its byte address (-1: inactive)
    std::vector<AxisSegment> segments;   // ascending
    int lanes = 0, sectors = 0, lines = 0;
    long long bytes_requested = 0;       // lanes x size
    long long bytes_used = 0;            // distinct bytes (lanes reading one address share it)
    double sectors_per_request = 0;      // = sectors (one request)
    double efficiency = 0;               // bytes_used / (sectors x 32): the share of the fetched
                                         // bytes some lane uses (1 at best, also for a broadcast)
    int ideal_sectors = 0;               // the fewest sectors those bytes could take: ceil(used / 32)
    // The segment and the sector within it that lane `lane` falls in ({-1, -1}: inactive).
    std::pair<int, int> where(int lane) const;
};

// From each lane's byte offset (-1 for an inactive lane) and the access size.
MemoryAxis memory_axis(const std::vector<long long>& lane_offset, int size);
MemoryAxis memory_axis(const WarpLoad& w);

}  // namespace stencil::viewer
