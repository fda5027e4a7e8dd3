// The viewer's view of the analysis model (see model_view.h): every figure is analysis/model.h's,
// except the one it does not have yet (shared-memory access counts, marked below).
#include "viewer/core/model_view.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "analysis/model.h"

namespace stencil::viewer {


KernelModel kernel_model(KernelId k, int T, int r, Precision p) {
    KernelModel m;
    m.kernel = k;
    m.tile = T;
    m.radius = r;
    m.precision = p;
    try {
        const analysis::Model a = analysis::model(k, T, r, p);
        m.invalid = a.tile_error;
        m.flops_per_output = a.flops_per_point;
        m.opb = a.opb;
        m.opb_limit = a.opb_limit;
        m.opb_formula = a.opb_formula;
        m.threads = a.threads_per_block;
        m.outputs = a.block.outputs;
        m.global_loads = a.block.loads;
        m.global_stores = a.block.outputs;
        m.smem_bytes = a.smem_bytes;
        m.halo_fraction = a.halo.fraction;
        m.shared_loads = a.block.shared_loads;
        m.shared_stores = a.block.shared_stores;
    } catch (const std::exception& e) {
        m.invalid = e.what();
    }
    return m;
}

HaloFigures halo_figures(int T, int r, int dims) {
    const analysis::Halo h = dims == 2 ? analysis::halo_2d(T, r) : analysis::halo_3d(T, r);
    return {h.tile_cells, h.output_cells, h.halo_cells, h.fraction};
}

WarpPrediction predicted_warp(KernelId k, int T, int r, Precision p, GridDims dims) {
    WarpPrediction w;
    try {
        const analysis::WarpPattern a = analysis::warp_pattern(k, T, r, p, dims);
        // The interior (all 32 lanes) warps' first load; a block smaller than a warp has none,
        // then the launch's first load over every request.
        const bool full = !a.interior.empty() && a.full_warp_requests > 0;
        const auto& loads = full ? a.interior : a.all;
        if (!loads.empty()) {
            const analysis::WarpLoad& l = loads.front();
            w.rows = (int)std::lround(l.rows);
            w.sectors = l.sectors;
            w.efficiency = l.efficiency;
            w.lanes = full ? a.warp_size : 0;
            w.row_cells = w.rows > 0 && full ? (a.warp_size + w.rows - 1) / w.rows : 0;
        }
        w.block_sectors = full ? a.interior_sectors_per_request : a.sectors_per_request;
        w.block_efficiency = full ? a.interior_efficiency : a.efficiency;
        w.explanation = a.explanation;
    } catch (const std::exception& e) {
        w.explanation = e.what();
    }
    return w;
}

std::vector<int> model_tiles(KernelId k, int r, Precision p) {
    std::vector<int> out;
    for (const auto& s : analysis::tile_table(k, r, p, 64))
        if (s.fits) out.push_back(s.tile);
    return out;
}

const char* model_provenance() {
    return "analysis/model.h";
}


}  // namespace stencil::viewer
