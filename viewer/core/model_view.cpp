// The adapter between the viewer and the analysis model (see model_view.h).
#include "viewer/core/model_view.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

#ifdef STENCIL_VIEWER_HAVE_ANALYSIS
#include "analysis/model.h"
#endif

namespace stencil::viewer {

KernelModel adapter_kernel_model(KernelId k, int T, int r, Precision p);
HaloFigures adapter_halo_figures(int T, int r, int dims);

namespace {
long long ipow(long long b, int e) {
    long long r = 1;
    while (e-- > 0) r *= b;
    return r;
}
}  // namespace

// ---- stand-in for analysis/model.h (viewer adapter) ------------------------------------------
// The formulas are the ones the kernel files' headers state; they are replaced by analysis/ as
// soon as the build has it.
KernelModel adapter_kernel_model(KernelId k, int T, int r, Precision p) {
    KernelModel m;
    m.kernel = k;
    m.tile = T;
    m.radius = r;
    m.precision = p;
    m.invalid = tile_error(k, T, r, p);
    if (!tile_fits(k, T, r, bytes_of(p)) && T > 2 * r && k != KernelId::naive) {
        // still compute the figures: the curves show T beyond the hardware limit greyed
    }
    const int b = bytes_of(p);
    const long long O = k == KernelId::naive ? T : std::max(0, T - 2 * r);
    m.flops_per_output = 12.0 * r + 1;
    m.smem_bytes = smem_bytes(k, T, r, b);
    m.threads = threads_per_block(k, T);
    m.outputs = ipow(O, 3);
    m.global_stores = m.outputs;
    switch (k) {
        case KernelId::naive:
            m.global_loads = (6LL * r + 1) * m.outputs;
            m.opb = m.flops_per_output / ((6.0 * r + 1) * b);
            m.opb_limit = m.opb;
            m.opb_formula = fmt::format("(12r+1) / ((6r+1) * {}) = {} / {}: every point from global memory",
                                        b, 12 * r + 1, (6 * r + 1) * b);
            break;
        case KernelId::tiled:
            m.global_loads = ipow(T, 3);
            m.shared_stores = ipow(T, 3);
            m.shared_loads = (6LL * r + 1) * m.outputs;
            break;
        case KernelId::coarsened:
            m.global_loads = (long long)T * T * (O + 2 * r);
            m.shared_stores = (long long)T * T * (2 * r + O * (1 + 2 * r));
            m.shared_loads = O * ((6LL * r + 1) * O * O + 2LL * r * T * T);
            break;
        case KernelId::register_tiled:
            m.global_loads = (long long)T * T * (O + 2 * r);
            m.shared_stores = (long long)T * T * (1 + O);
            m.shared_loads = O * (4LL * r * O * O);
            break;
    }
    if (k != KernelId::naive) {
        m.opb = m.global_loads > 0 ? m.flops_per_output * m.outputs / ((double)m.global_loads * b) : 0;
        m.opb_limit = m.flops_per_output / b;
        m.opb_formula = fmt::format("(12r+1) (T-2r)^3 / ({} T^3): a block loads T^3 inputs once for (T-2r)^3 "
                                    "outputs; limit (12r+1)/{} = {:.3g}",
                                    b, b, m.opb_limit);
    }
    m.halo_fraction = adapter_halo_figures(T, r, 3).fraction;
    return m;
}

HaloFigures adapter_halo_figures(int T, int r, int dims) {
    HaloFigures h;
    h.in_cells = ipow(T, dims);
    h.out_cells = ipow(std::max(0, T - 2 * r), dims);
    h.halo_cells = h.in_cells - h.out_cells;
    h.fraction = h.in_cells > 0 ? (double)h.halo_cells / h.in_cells : 0;
    return h;
}

WarpPrediction adapter_predicted_warp(KernelId k, int T, int r, Precision p, GridDims dims, int warp) {
    WarpPrediction w;
    const int b = bytes_of(p);
    const LaunchGeometry g = launch_geometry(k, T, r, p, dims);
    const int bx = std::min(1, g.grid.x - 1), by = std::min(1, g.grid.y - 1), bz = std::min(1, g.grid.z - 1);
    const int bxdim = g.block.x, bydim = g.block.y;
    const long long threads = g.block.count();
    std::set<long long> rows, sectors;
    int lanes = 0;
    for (int lane = 0; lane < 32; ++lane) {
        const long long t = 32LL * warp + lane;
        if (t >= threads) break;
        const int tx = (int)(t % bxdim), ty = (int)((t / bxdim) % bydim), tz = (int)(t / ((long long)bxdim * bydim));
        int x, y, z;
        if (k == KernelId::naive) {
            x = bx * T + tx, y = by * T + ty, z = bz * T + tz;
        } else {
            const int O = T - 2 * r;
            x = bx * O + tx - r, y = by * O + ty - r;
            z = (k == KernelId::tiled ? bz * O + tz : bz * O) - r;
        }
        if (x < 0 || y < 0 || z < 0 || x >= dims.nx || y >= dims.ny || z >= dims.nz) continue;
        ++lanes;
        const long long cell = ((long long)z * dims.ny + y) * dims.nx + x;
        rows.insert((long long)z * dims.ny + y);
        sectors.insert(cell * b / 32);
    }
    w.lanes = lanes;
    w.rows = (int)rows.size();
    w.row_cells = w.rows ? (lanes + w.rows - 1) / w.rows : 0;
    w.sectors = (double)sectors.size();
    w.efficiency = w.sectors > 0 ? lanes * (double)b / (w.sectors * 32) : 0;
    w.block_sectors = w.sectors;
    w.block_efficiency = w.efficiency;
    w.explanation = fmt::format("{} lanes load {} row{} of {} cells ({} B each): {} sector{} of 32 B for {} B used",
                                lanes, w.rows, w.rows == 1 ? "" : "s", w.row_cells, b, w.sectors,
                                w.sectors == 1 ? "" : "s", lanes * b);
    return w;
}

std::vector<int> model_tiles(KernelId k, int r, Precision p) {
    std::vector<int> out;
    for (int T = 1; T <= 64; ++T)
        if (tile_fits(k, T, r, bytes_of(p))) out.push_back(T);
    return out;
}

#ifdef STENCIL_VIEWER_HAVE_ANALYSIS
// ---- the analysis model ------------------------------------------------------------------------
KernelModel kernel_model(KernelId k, int T, int r, Precision p) {
    // Shared-memory counts are not part of analysis/model.h: they stay the adapter's.
    KernelModel m = adapter_kernel_model(k, T, r, p);
    try {
        const analysis::Model a = analysis::model(k, T, r, p);
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
        m.invalid = a.tile_error;
    } catch (const std::exception& e) {
        m.invalid = e.what();
    }
    return m;
}

HaloFigures halo_figures(int T, int r, int dims) {
    const analysis::Halo h = dims == 2 ? analysis::halo_2d(T, r) : analysis::halo_3d(T, r);
    return {h.tile_cells, h.output_cells, h.halo_cells, h.fraction};
}

WarpPrediction predicted_warp(KernelId k, int T, int r, Precision p, GridDims dims, int warp) {
    WarpPrediction w = adapter_predicted_warp(k, T, r, p, dims, warp);
    try {
        const analysis::WarpPattern a = analysis::warp_pattern(k, T, r, p, dims);
        if (!a.interior.empty()) {
            w.rows = (int)std::lround(a.interior.front().rows);
            w.sectors = a.interior.front().sectors;
            w.efficiency = a.interior.front().efficiency;
        }
        w.block_sectors = a.interior_sectors_per_request;
        w.block_efficiency = a.interior_efficiency;
        w.explanation = a.explanation;
    } catch (const std::exception& e) {
        w.explanation = e.what();
    }
    return w;
}

const char* model_provenance() { return "analysis/model.h"; }
#else
KernelModel kernel_model(KernelId k, int T, int r, Precision p) { return adapter_kernel_model(k, T, r, p); }
HaloFigures halo_figures(int T, int r, int dims) { return adapter_halo_figures(T, r, dims); }
WarpPrediction predicted_warp(KernelId k, int T, int r, Precision p, GridDims dims, int warp) {
    return adapter_predicted_warp(k, T, r, p, dims, warp);
}
const char* model_provenance() { return "viewer adapter (analysis/model.h not in this build)"; }
#endif

}  // namespace stencil::viewer
