#include "viewer/core/warp_map.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>

namespace stencil::viewer {

std::vector<WarpLoad> warp_loads(const StepperTrace& t, int warp) {
    std::vector<WarpLoad> out;
    if (!t.ok()) return out;
    const GridDims d = t.cfg.dims;
    int n_loads = 0, n_stores = 0;
    for (const auto& r : engine::warp_requests(t.acc)) {
        if (r.warp != warp || r.space != engine::Space::global) continue;
        WarpLoad w;
        w.interval = r.interval;
        w.site = r.site;
        w.occurrence = r.occurrence;
        w.op = r.op;
        w.buffer = r.buffer;
        w.lanes = std::popcount(r.active);
        w.sectors = (int)r.sectors.size();
        w.lines = (int)r.lines.size();
        w.efficiency = w.sectors ? (double)w.lanes * r.size / (w.sectors * 32.0) : 0;
        w.lane_row.assign(32, -1);
        w.lane_sector.assign(32, -1);
        w.lane_offset.assign(32, -1);
        w.size = r.size;
        for (int s = 0; s < (int)r.sectors.size(); ++s) {
            w.sector_id.push_back(r.sectors[s].index);
            for (int lane = 0; lane < 32; ++lane)
                if (r.sectors[s].lanes >> lane & 1u) w.lane_sector[lane] = s;
        }
        // Rows from the lanes' own addresses (sectors alone can straddle two rows).
        for (const auto& a : t.acc) {
            if (a.warp() != warp || a.interval != r.interval || a.site != r.site || a.occurrence != r.occurrence ||
                a.space != engine::Space::global)
                continue;
            const long long cell = a.offset / a.size;
            const long long row = cell / d.nx;
            auto it = std::find(w.row_id.begin(), w.row_id.end(), row);
            if (it == w.row_id.end()) {
                w.row_id.push_back(row);
                it = w.row_id.end() - 1;
            }
            w.lane_row[a.lane()] = (int)(it - w.row_id.begin());
            w.lane_offset[a.lane()] = a.offset;
        }
        w.rows = (int)w.row_id.size();
        w.label = r.op == engine::Op::load ? fmt::format("load {} (interval {})", ++n_loads, r.interval)
                                         : fmt::format("store {} (interval {})", ++n_stores, r.interval);
        out.push_back(std::move(w));
    }
    return out;
}

WarpSummary summarize_loads(const StepperTrace& t, int warp) {
    WarpSummary s;
    if (!t.ok()) return s;
    long long sectors = 0, bytes = 0, rows = 0;
    const GridDims d = t.cfg.dims;
    for (const auto& r : engine::warp_requests(t.acc)) {
        if (r.space != engine::Space::global || r.op != engine::Op::load) continue;
        if (warp >= 0 && r.warp != warp) continue;
        ++s.requests;
        sectors += (long long)r.sectors.size();
        bytes += (long long)std::popcount(r.active) * r.size;
        // rows: sectors never span two rows unless a row ends mid-sector; count distinct rows of
        // the sectors' first bytes, which is exact when nx * size is a multiple of 32.
        long long last = -1;
        int n = 0;
        for (const auto& sec : r.sectors) {
            const long long row = sec.index * 32 / r.size / d.nx;
            if (row != last) ++n, last = row;
        }
        rows += n;
    }
    if (s.requests) {
        s.sectors_per_request = (double)sectors / s.requests;
        s.rows_per_request = (double)rows / s.requests;
        s.efficiency = sectors ? (double)bytes / (sectors * 32.0) : 0;
    }
    return s;
}

std::vector<int> warp_of_threads(Dim3 block) {
    std::vector<int> w((size_t)block.count());
    for (size_t i = 0; i < w.size(); ++i) w[i] = (int)(i / 32);
    return w;
}

int warps_in_block(Dim3 block) { return (int)((block.count() + 31) / 32); }

}  // namespace stencil::viewer
