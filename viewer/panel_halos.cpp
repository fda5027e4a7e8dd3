// [SECTION] Halos panel: a slice of the input tile with output and halo cells coloured, the halo
// share, and its curve against T for 3D and 2D tiles (seeds: 8^3 -> 58%, 32x32 -> 12%). The texts
// and curves come from halo_figure() (viewer/core/figures.h), rebuilt on a change only.
#include <fmt/format.h>

#include "viewer/core/colormap.h"
#include "viewer/fit.h"
#include "viewer/panels.h"
#include "viewer/plot_widget.h"

namespace stencil::viewer {

void draw_halos_panel(App& app) {
    auto& h = app.halo;
    const HaloFigure& v = h.view;
    bool changed = false;
    const float fs = ImGui::GetFontSize();
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
    if (changed) {
        h.tile = std::max(h.tile, 2 * h.radius + 1);
        if (h.slice >= h.tile) h.slice = -1;
        app.rebuild_halos();
    }
    ValueWithHelp("halo share:", v.share_text,
                  h.dims == 3 ? "(T^3 - (T-2r)^3) / T^3: input cells a block loads but computes no output for. "
                                "T = 8, r = 1: 296 of 512 = 58%."
                              : "(T^2 - (T-2r)^2) / T^2. T = 32, r = 1: 124 of 1024 = 12%.");
    if (h.dims == 3)
        ValueWithHelp("this slice:", v.slice_text,
                      "Within r of the tile's top or bottom a slice is all halo (loaded for the z neighbours); "
                      "between, a ring of width r around the output square. Never read: cells outside the output "
                      "along two or three axes (the tile's edges and corners), which no star stencil touches.");

    const ImVec2 avail = ImGui::GetContentRegionAvail();
    // Side by side when the panel is wide, else the tile above the chart: the chart keeps at least
    // 18 font heights of width (it collapsed to a sliver at 1280x800).
    const bool side_by_side = avail.x > fs * 34;
    const float tile_h = side_by_side ? avail.y - fs * 3 : std::min(avail.y * 0.4f, avail.x * 0.5f);
    const float side = std::min(side_by_side ? avail.x * 0.38f : avail.x, tile_h);
    const float cell = std::max(2.0f, std::min(side / h.tile, fs * 1.5f));  // grows with the font, up to the room
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
    ImGui::EndGroup();
    if (side_by_side) ImGui::SameLine();
    PlotSpec spec;
    spec.id = "halos";
    spec.x = &v.x;
    spec.y = &v.y;
    spec.series = &v.series;
    spec.points = &v.points;
    spec.size = ImVec2(0, std::max(fs * 10, ImGui::GetContentRegionAvail().y));
    spec.hover_text = [&](int s, int i) {
        const Series& S = v.series[s];
        return fmt::format("{}\nT = {:g}: halo {:.1f}%", S.name, S.x[i], S.y[i]);
    };
    Plot(spec);
    if (app.recording)  // --screenshot: what this panel drew, for the test's sidecar
        app.drawn["halos"] = {{"dims", h.dims}, {"tile", h.tile}, {"label", v.grid_label}, {"share", v.share_text},
                              {"slice", v.slice}, {"halo_read", v.counts.halo_read}, {"halo_unread", v.counts.halo_unread},
                              {"slice_halo", v.slice_counts.halo_read + v.slice_counts.halo_unread},
                              {"slice_unread", v.slice_counts.halo_unread}, {"slice_text", v.slice_text},
                          {"series", v.series.size()}};
}

}  // namespace stencil::viewer
