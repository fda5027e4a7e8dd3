// The maths of the viewer's plot widget, without ImGui: axis mapping (linear and log10), tick
// placement, data ranges and the nearest-point hover. The widget (viewer/plot_widget.cpp) only
// draws what these functions return; tests/viewer checks them directly.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace stencil::viewer {

enum class AxisScale { linear, log10 };

struct Axis {
    double lo = 0, hi = 1;  // data range shown (both > 0 for log10)
    AxisScale scale = AxisScale::linear;
    std::string label;      // "tile edge T (cells)"
};

// Data value -> position 0..1 along the axis (log10 axes map decades evenly); and back.
double axis_to_unit(const Axis& a, double v);
double axis_from_unit(const Axis& a, double u);

struct Tick {
    double value = 0;
    std::string label;  // empty for minor ticks
    bool major = true;
};

// A "nice" step (1, 2 or 5 times a power of ten) giving about `target` intervals over span.
double nice_step(double span, int target);
// Ticks at multiples of nice_step in [lo, hi], labelled with just enough decimals.
std::vector<Tick> linear_ticks(double lo, double hi, int target = 6);
// Major ticks at powers of ten (labelled "0.1", "1", "10", "1e+04"...), minor ticks at 2..9 times
// them. When the range spans less than one decade, the 2..9 ticks are labelled too.
std::vector<Tick> log_ticks(double lo, double hi);
std::vector<Tick> axis_ticks(const Axis& a, int target = 6);
// Shortest label for v when neighbouring ticks are `step` apart ("0.25", "8", "1.5e+06").
std::string format_tick(double v, double step);

// The range [lo, hi] enclosing `values` (and `extra`), padded by `pad` of the span on each side
// (in log space for log axes, where values <= 0 are ignored). Degenerate ranges are widened.
struct Range {
    double lo = 0, hi = 1;
};
Range fit_range(const std::vector<double>& values, AxisScale scale, double pad = 0.05);

// Marker shapes, so series of one colour (or coinciding curves) stay distinguishable; the legend
// draws the same shape. The OP/B chart gives each measured level its own: requested a diamond,
// L2 a triangle, DRAM a cross; the versions take the others (version_style.h).
enum class MarkerShape { circle, square, diamond, triangle, cross, ring, plus, triangle_down, hexagon, square_filled };

// One data series of a chart: a curve (line) or points (markers), optionally greyed out with the
// reason (a GPU-only series on a machine without a GPU).
struct Series {
    std::string name;
    std::vector<double> x, y;
    std::uint32_t colour = 0xffffffffu;  // packed like IM_COL32: 0xAABBGGRR
    bool line = true;
    bool markers = false;
    MarkerShape marker = MarkerShape::circle;
    bool dashed = false;
    bool greyed = false;
    std::string greyed_why = {};
    // false: drawn but not listed (measured points keyed by colour = kernel and marker = level:
    // the legend lists the kernels' curves and one entry per level, not every combination).
    bool in_legend = true;
    // A text beside each point ("tiled T=8"), placed by place_labels (label_place.h); empty: none.
    std::vector<std::string> labels = {};
    // Series of one group are shown and hidden together (a kernel's model curve and its measured
    // points): a click on a legend entry toggles its group ("" : not toggled).
    std::string group = {};
    bool hidden = false;  // listed in the legend (dimmed, to click back on), not drawn
};

// A horizontal or vertical reference line with a label ("3.25 = 13/4, the limit").
struct RefLine {
    bool horizontal = true;
    double value = 0;
    std::string label;
    std::uint32_t colour = 0xffffffffu;
    std::vector<std::string> owners;  // the series (groups) whose limit it is, for the sidecar
};
// A labelled reference point ("seed: 1.37 at T = 8").
struct RefPoint {
    double x = 0, y = 0;
    std::string label;
    std::uint32_t colour = 0xffffffffu;
};

struct PlotRect {
    float x0 = 0, y0 = 0, x1 = 1, y1 = 1;  // screen pixels; y grows downwards
};
// Data -> screen and back for a plot rectangle.
struct Point2 {
    float x = 0, y = 0;
};
Point2 to_screen(const Axis& ax, const Axis& ay, const PlotRect& r, double x, double y);
void from_screen(const Axis& ax, const Axis& ay, const PlotRect& r, Point2 p, double* x, double* y);

// The data point nearest to the mouse in screen distance, within max_px; series that are greyed
// out are skipped. series = -1 when nothing is that close.
struct Hover {
    int series = -1;
    int index = -1;
    float distance_px = 0;
};
Hover nearest_point(const std::vector<Series>& series, const Axis& ax, const Axis& ay,
                    const PlotRect& r, Point2 mouse, float max_px = 12.0f);

}  // namespace stencil::viewer
