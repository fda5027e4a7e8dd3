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

namespace stencil::viewer {

struct OpbFigure {
    Axis x, y;
    std::vector<Series> series;
    std::vector<RefLine> refs;
    std::vector<RefPoint> points;
    std::vector<KernelModel> table;  // at each kernel's default T
    std::string formula;
    // Why the GPU-counter series are greyed out (empty when they have points): shown as text.
    std::string counters_why;
};
// radius, precision: the chart's; measured: CPU-trace figures (any r / precision, filtered here);
// runs: the runs table (GPU-counter levels L2 and DRAM come from its rows that have them);
// gpu_unavailable: why this machine has no GPU, when it has none.
OpbFigure opb_figure(int radius, Precision precision, bool log_y, const std::vector<TraceOpb>& measured,
                     const std::vector<RunRecord>& runs, const std::optional<std::string>& gpu_unavailable);

struct HaloFigure {
    HaloFigures fig;  // of the chosen tile
    Axis x, y;
    std::vector<Series> series;
    std::vector<RefPoint> points;
    std::string share_text;  // "296 of 512 cells = 57.8%  (output 216)"
    std::string grid_label;  // "slice z = 4 of the 8^3 tile" / "the 32x32 tile"
};
HaloFigure halo_figure(int tile, int radius, int dims);

}  // namespace stencil::viewer
