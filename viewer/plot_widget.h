// The viewer's one chart widget, drawn on ImDrawList: axes with ticks (linear or log10), axis
// labels, a legend, reference lines and labelled reference points, and a hover read-out of the
// nearest data point. Its maths (ticks, mapping, nearest point) is in viewer/core/plot_math.h.
#pragma once
#include <imgui.h>

#include <functional>
#include <string>
#include <vector>

#include "viewer/core/label_place.h"
#include "viewer/core/plot_math.h"

namespace stencil::viewer {

struct PlotSpec {
    const char* id = "plot";
    const char* title = nullptr;
    const Axis* x = nullptr;
    const Axis* y = nullptr;
    const std::vector<Series>* series = nullptr;
    const std::vector<RefLine>* refs = nullptr;
    const std::vector<RefPoint>* points = nullptr;
    bool legend = true;  // right of the plot when there is room, else in rows below it
    ImVec2 size{0, 0};  // 0: fill the available width / 60% of it in height
    // Hover text for point i of series s ("T = 8: OP/B 1.37"); default prints x and y.
    std::function<std::string(int s, int i)> hover_text;
};

// What a plot drew that its panel's sidecar reports, and what was clicked.
struct PlotDrawn {
    // Point and reference-line labels that could not keep clear of markers and other texts.
    int label_overlaps = 0;
    // Every label drawn, measured afterwards against the markers and curves drawn (label_place.h).
    int labels = 0;
    LabelHits hits;
    int legend_clicked = -1;  // the series whose legend entry was clicked this frame (-1: none)
};
PlotDrawn Plot(const PlotSpec& spec);
// The least height the plot takes at the width available here (its margins, legend and data rows
// at the current font): a panel above it can leave out what would push it off the screen.
float PlotLeastHeight(const PlotSpec& spec);

}  // namespace stencil::viewer
