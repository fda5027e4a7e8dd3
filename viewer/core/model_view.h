// What the panels show of the analysis model, in one place: every figure comes from
// analysis/model.h. Panels never compute a model: they call these functions once when a setting
// changes and keep the result.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "analysis/model.h"
#include "kernels/versions.h"

namespace stencil::viewer {

using analysis::opb_limit_at_infinity;  // the OP/B line a tile approaches as T grows

// The model of one (kernel, T, r, precision), for an interior block.
struct KernelModel {
    KernelId kernel = KernelId::naive;
    int tile = 8, radius = 1;
    Precision precision = Precision::f32;
    std::optional<std::string> invalid;  // tile_error(), when it cannot run

    double flops_per_output = 0;  // 12r + 1
    double opb = 0;               // FLOP per byte requested from global memory (loads)
    double opb_limit = 0;         // as T grows without bound
    std::string opb_formula;      // for the HelpMarker
    // One interior block:
    long long threads = 0;
    long long outputs = 0;
    long long global_loads = 0, shared_loads = 0, shared_stores = 0, global_stores = 0;
    long long smem_bytes = 0;
    double halo_fraction = 0;     // of the input tile's cells
};
KernelModel kernel_model(KernelId k, int T, int r, Precision p);

// The input tile of edge T and its output tile of edge T - 2r, in `dims` = 2 or 3 dimensions.
struct HaloFigures {
    long long in_cells = 0, out_cells = 0, halo_cells = 0;
    double fraction = 0;  // halo / in
};
HaloFigures halo_figures(int T, int r, int dims);

// The warp pattern analysis::warp_pattern predicts for the first global load of an interior
// (all 32 lanes) warp: rows of the grid (contiguous runs in x) and 32-byte sectors per request,
// the same for every interior warp of the launch (averaged over their positions in a line).
struct WarpPrediction {
    int lanes = 32;           // lanes that load (0: no warp of the launch has 32 active lanes)
    int rows = 0;             // distinct x-rows one request touches
    int row_cells = 0;        // cells per row
    double sectors = 0;       // per request, with the row starts the block layout gives
    double efficiency = 0;    // requested bytes / (sectors * 32)
    double block_sectors = 0;     // over every load of the interior warps
    double block_efficiency = 0;
    std::string explanation;  // one line
};
WarpPrediction predicted_warp(KernelId k, int T, int r, Precision p, GridDims dims);

// The T the model's curves are drawn over for (k, r, p): every T that obeys the hardware rules
// (built or not), and the subset this build can run.
std::vector<int> model_tiles(KernelId k, int r, Precision p);

// Where the figures came from, for the About box.
const char* model_provenance();

}  // namespace stencil::viewer
