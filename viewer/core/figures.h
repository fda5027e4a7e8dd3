// The OP/B and halo charts' content as plain data: which series, which points, which axes. The
// panels draw what these return; the App calls them when a setting or the data changes (never per
// frame), and tests/viewer checks the content (model curves per kernel, the seeds' points,
// measured points filtered by r and precision, counters from a loaded sweep).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "viewer/core/measure.h"
#include "viewer/core/model_view.h"
#include "viewer/core/plot_math.h"
#include "viewer/core/results.h"
#include "viewer/core/update_model.h"

namespace stencil::viewer {

struct OpbFigure {
    Axis x, y;
    std::vector<Series> series;
    std::vector<RefLine> refs;
    std::vector<RefPoint> points;
    std::vector<KernelModel> table;  // at each kernel's default T
    // The z-chunked kernels' bytes per update at their default T (temporal: each K), from
    // analysis::update_traffic; their curves are FLOP per byte moved (update_model.h).
    std::vector<UpdateModel> updates;
    std::string formula;
    // Why the GPU-counter series are greyed out (empty when they have points): shown as text.
    std::string counters_why;
    // Measured points drawn, by source and level (each kernel's in its colour, each level's marker).
    int trace_points = 0, requested_points = 0, l2_points = 0, dram_points = 0;
    // analysis::model's own opb_limit for the tiled kernel at the smallest T it runs at this r: the
    // drawn limit must equal it (the r = 4 chart once drew 0, from a T that r = 4 forbids).
    double model_limit = 0;
};
// radius, precision: the chart's; measured: CPU-trace figures (any r / precision, filtered here);
// runs: the runs table (GPU-counter levels L2 and DRAM come from its rows that have them);
// gpu_unavailable: why this machine has no GPU, when it has none.
OpbFigure opb_figure(int radius, Precision precision, bool log_y, const std::vector<TraceOpb>& measured,
                     const std::vector<RunRecord>& runs, const std::optional<std::string>& gpu_unavailable);

// One cell (x, y, z) of the T^dims input tile: an output, a halo cell the star stencil reads (out
// of the output tile along one axis only: a face), or one it never reads (out along two or three
// axes: the tile's edges and corners, loaded for nothing). z is ignored when dims = 2.
enum class HaloCell { output, halo_read, halo_unread };
HaloCell halo_cell(int x, int y, int z, int T, int r, int dims);
struct HaloCounts {
    long long output = 0, halo_read = 0, halo_unread = 0;
};
HaloCounts halo_counts(int T, int r, int dims);
// The same counts in the one z-slice of the 3D tile (a slice within r of the top or bottom is all
// halo: its cells are read only by the z neighbours' stencils, or, on its edges, never).
HaloCounts halo_slice_counts(int T, int r, int z);

struct HaloFigure {
    HaloFigures fig;  // of the chosen tile
    Axis x, y;
    std::vector<Series> series;
    std::vector<RefPoint> points;
    std::vector<std::string> short_labels;  // per point, for a small chart: "8^3: 58%"
    std::string share_text;  // "296 of 512 cells = 57.8%  (output 216)"
    std::string grid_label;  // "slice z = 4 of the 8^3 tile" / "the 32x32 tile"
    int slice = 0;           // the z shown (3D)
    HaloCounts counts;       // output, halo read by the star stencil, halo never read
    HaloCounts slice_counts; // the same in the slice shown (3D), or the whole tile (2D)
    double slice_fraction = 0;   // halo share of the slice shown
    std::string slice_text;  // "slice z = 0: 64 of 64 cells halo = 100% (28 never read)"
};
// slice: the z of the 3D tile the picture shows (< 0: the middle, T / 2).
HaloFigure halo_figure(int tile, int radius, int dims, int slice = -1);


}  // namespace stencil::viewer
