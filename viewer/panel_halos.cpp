// [SECTION] Halos panel: a slice of the input tile with output and halo cells coloured, the halo
// share, and its curve against T for 3D and 2D tiles (seeds: 8^3 -> 58%, 32x32 -> 12%). The texts
// and curves come from halo_figure() (viewer/core/figures.h), rebuilt on a change only.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>

#include "viewer/core/colormap.h"
#include "viewer/fit.h"
#include "viewer/panels.h"
#include "viewer/plot_widget.h"

namespace stencil::viewer {

namespace {

// Lecture mode's keys for the controls it hides: Up / Down T, Left / Right the slice, D 2D or 3D.
bool halo_keys(HaloData& h) {
    if (!ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows) || ImGui::GetIO().WantTextInput) return false;
    bool changed = false;
    const int slice = h.view.slice;
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_UpArrow))) h.tile = std::min(40, h.tile + 1), changed = true;
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_DownArrow))) h.tile = std::max(2 * h.radius + 1, h.tile - 1), changed = true;
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_RightArrow))) h.slice = std::min(h.tile - 1, slice + 1), changed = true;
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_LeftArrow))) h.slice = std::max(0, slice - 1), changed = true;
    if (LetterPressed('D')) h.dims = h.dims == 3 ? 2 : 3, changed = true;
    return changed;
}

// T, r, 3D or 2D and the slice. Returns true when one changed.
bool halo_controls(HaloData& h) {
    const HaloFigure& v = h.view;
    const float fs = ImGui::GetFontSize();
    bool changed = false;
    ImGui::SetNextItemWidth(fs * 8);
    changed |= ImGui::SliderInt("T##halo", &h.tile, 2 * h.radius + 1, 40);
    fit::SameLineIfFits(fit::LabeledWidth(fs * 5, "r"));
    ImGui::SetNextItemWidth(fs * 5);
    changed |= ImGui::SliderInt("r##halo", &h.radius, 1, kMaxRadius);
    fit::SameLineIfFits(fit::CheckWidth("3D"));
    changed |= ImGui::RadioButton("3D", &h.dims, 3);
    fit::SameLineIfFits(fit::CheckWidth("2D"));
    changed |= ImGui::RadioButton("2D", &h.dims, 2);
    if (h.dims == 3) {  // the slice through the tile
        int z = v.slice;
        fit::SameLineIfFits(fit::LabeledWidth(fs * 8, "slice z"));
        ImGui::SetNextItemWidth(fs * 8);
        if (ImGui::SliderInt("slice z", &z, 0, h.tile - 1)) h.slice = z, changed = true;
    }
    return changed;
}

void halo_shares(const HaloData& h) {
    const HaloFigure& v = h.view;
    ValueWithHelp("halo share:", v.share_text,
                  h.dims == 3 ? "(T^3 - (T-2r)^3) / T^3: input cells a block loads but computes no output for. "
                                "T = 8, r = 1: 296 of 512 = 58%."
                              : "(T^2 - (T-2r)^2) / T^2. T = 32, r = 1: 124 of 1024 = 12%.");
    if (h.dims == 3)
        ValueWithHelp("this slice:", v.slice_text,
                      "Within r of the tile's top or bottom a slice is all halo (loaded for the z neighbours); "
                      "between, a ring of width r around the output square. Never read: cells outside the output "
                      "along two or three axes (the tile's edges and corners), which no star stencil touches.");
}

}  // namespace

// Long because it draws the panel top to bottom (ImGui's immediate mode): its layout, the tile, its
// key and the chart.
void draw_halos_panel(App& app) {
    auto& h = app.halo;
    const HaloFigure& v = h.view;
    const float fs = ImGui::GetFontSize();
    const bool lecture = app.ui.lecture;
    // Lecture mode: the controls are the keys, the figures are in the status line.
    if (lecture ? halo_keys(h) : halo_controls(h)) {
        h.tile = std::max(h.tile, 2 * h.radius + 1);
        if (h.slice >= h.tile) h.slice = -1;
        app.rebuild_halos();
    }
    if (lecture) {
        app.ui.status = {fmt::format("T = {}, r = {}, {}", h.tile, h.radius, h.dims == 3 ? "3D" : "2D"),
                         h.dims == 3 ? v.slice_text : std::string(), "Up / Down: T", "Left / Right: slice",
                         "D: 2D / 3D"};
        fit::Wrapped(fmt::format("halo: {}", v.share_text));
    } else {
        halo_shares(h);
    }

    const ImVec2 avail = ImGui::GetContentRegionAvail();
    // Side by side when the panel is wide, else the tile above the chart: the chart keeps at least
    // 18 font heights of width (it collapsed to a sliver at 1280x800). Under the tile: its label,
    // the key (two lines when narrow) and the count.
    // Lecture mode keeps them side by side down to a narrower panel (the figure is all there is).
    const bool side_by_side = avail.x > fs * (lecture ? 24 : 34);
    const float left_w = side_by_side ? avail.x * (lecture ? 0.45f : 0.38f) : avail.x;
    // The key flows onto up to three lines in a narrow column.
    const float under = ImGui::GetTextLineHeightWithSpacing() * (left_w < fs * 18 ? 5.5f : 3.5f);
    const float tile_h = side_by_side ? avail.y - under : std::min(avail.y * 0.4f, avail.x * 0.5f);
    const float side = std::min(left_w - 4, tile_h);  // the grid draws a pixel border on each side
    // Grows with the font, up to the room (a projector in lecture mode: as large as it fits).
    const float cell = std::max(2.0f, std::min(side / h.tile, lecture ? fs * 4 : fs * 1.5f));
    fit::BeginFigure();
    // Beside the chart the tile's column is a child of its own width: the key flows within it
    // (as a group it took the key's whole line and left the chart a sliver).
    if (side_by_side)
        ImGui::BeginChild("##tile_column", ImVec2(left_w, avail.y), false,
                          ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    else
        ImGui::BeginGroup();
    fit::Text(v.grid_label);
    const int T = h.tile, r = h.radius, z = v.slice;
    const Rgb unread{0.45f, 0.33f, 0.10f};  // the halo's orange, dark: loaded, never read
    DrawCellGrid("##halo", T, T, cell, [&](int x, int y) {
        switch (halo_cell(x, y, z, T, r, h.dims)) {
            case HaloCell::output: return pack(palette::output);
            case HaloCell::halo_read: return pack(palette::halo);
            case HaloCell::halo_unread: return pack(unread);
        }
        return pack(palette::halo);
    });
    Swatches({{pack(palette::output), "output"}, {pack(palette::halo), "halo, read"}, {pack(unread), "halo, never read"}});
    HelpMarker("A star stencil reads its neighbours along one axis at a time, so a halo cell outside the output "
               "tile along two or three axes (the tile's edges and corners) is loaded and never read.");
    fit::Wrapped(fmt::format("never read: {} of {} halo cells", v.counts.halo_unread, v.fig.halo_cells));
    if (side_by_side) {
        fit::CheckWindow("tile column");
        ImGui::EndChild();
        ImGui::SameLine();
    } else {
        ImGui::EndGroup();
    }
    PlotSpec spec;
    spec.id = "halos";
    spec.x = &v.x;
    spec.y = &v.y;
    spec.series = &v.series;
    // Lecture mode's chart (or a large font's) is small for its font: the textbook's points with short labels.
    std::vector<RefPoint> short_points = v.points;
    const bool compact = app.ui.compact_charts;  // lecture mode, or a font large for the window
    for (size_t i = 0; compact && i < short_points.size() && i < v.short_labels.size(); ++i)
        short_points[i].label = v.short_labels[i];
    spec.points = compact ? &short_points : &v.points;
    spec.size = ImVec2(0, std::max(fs * 8, ImGui::GetContentRegionAvail().y));
    spec.hover_text = [&](int s, int i) {
        const Series& S = v.series[s];
        return fmt::format("{}\nT = {:g}: halo {:.1f}%", S.name, S.x[i], S.y[i]);
    };
    const PlotDrawn drawn = Plot(spec);
    fit::EndFigure();
    if (app.recording)  // --screenshot: what this panel drew, for the test's sidecar
        (*app.drawn)["halos"] = {{"dims", h.dims}, {"tile", h.tile}, {"label", v.grid_label}, {"share", v.share_text},
                              {"slice", v.slice}, {"halo_read", v.counts.halo_read}, {"halo_unread", v.counts.halo_unread},
                              {"slice_halo", v.slice_counts.halo_read + v.slice_counts.halo_unread},
                              {"slice_unread", v.slice_counts.halo_unread}, {"slice_text", v.slice_text},
                          {"series", v.series.size()}, {"label_overlaps", drawn.label_overlaps}, {"labels_drawn", drawn.labels}, {"label_hits", drawn.hits.total()}, {"label_curve_hits", drawn.hits.curves}, {"label_marker_hits", drawn.hits.markers}};
}

}  // namespace stencil::viewer
