#include "viewer/core/memory_axis.h"

#include <algorithm>
#include <map>
#include <set>

namespace stencil::viewer {

std::pair<int, int> MemoryAxis::where(int lane) const {
    if (lane < 0 || lane >= (int)lane_offset.size() || lane_offset[lane] < 0) return {-1, -1};
    const long long sector = lane_offset[lane] / kSectorBytes;
    for (int s = 0; s < (int)segments.size(); ++s)
        for (int k = 0; k < (int)segments[s].sectors.size(); ++k)
            if (segments[s].sectors[k].index == sector) return {s, k};
    return {-1, -1};
}

MemoryAxis memory_axis(const std::vector<long long>& lane_offset, int size) {
    MemoryAxis m;
    m.size = size;
    m.lane_offset = lane_offset;
    // Per sector: the bytes asked for (a byte two lanes read counts once: the hardware fetches
    // it once) and the lanes. An access may straddle two sectors when it is not aligned.
    std::map<long long, std::set<long long>> bytes_of;
    std::map<long long, std::uint32_t> lanes_of;
    std::set<long long> bytes;
    for (int lane = 0; lane < (int)lane_offset.size(); ++lane) {
        const long long o = lane_offset[lane];
        if (o < 0) continue;
        ++m.lanes;
        for (long long b = o; b < o + size; ++b) {
            bytes_of[b / kSectorBytes].insert(b);
            lanes_of[b / kSectorBytes] |= 1u << (lane & 31);
            bytes.insert(b);
        }
    }
    m.bytes_requested = (long long)m.lanes * size;
    for (const auto& [sector, used] : bytes_of) {
        const long long line = sector * kSectorBytes / kLineBytes;
        if (m.segments.empty() || line > m.segments.back().last_line + 1)
            m.segments.push_back({line, line, {}});
        AxisSegment& seg = m.segments.back();
        seg.last_line = line;
        seg.sectors.push_back({sector, (int)used.size(), lanes_of[sector]});
    }
    for (const auto& seg : m.segments) {
        std::set<long long> touched;
        for (const auto& s : seg.sectors) touched.insert(s.index * kSectorBytes / kLineBytes);
        m.lines += (int)touched.size();
    }
    m.sectors = (int)bytes_of.size();
    m.sectors_per_request = m.sectors;
    m.bytes_used = (long long)bytes.size();
    m.efficiency = m.sectors ? (double)m.bytes_used / (m.sectors * (double)kSectorBytes) : 0;
    m.ideal_sectors = (int)((bytes.size() + kSectorBytes - 1) / kSectorBytes);
    return m;
}

MemoryAxis memory_axis(const WarpLoad& w) { return memory_axis(w.lane_offset, w.size); }

}  // namespace stencil::viewer
