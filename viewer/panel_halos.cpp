// [SECTION] Halos panel: a slice of the input tile with output and halo cells coloured, the halo
// share, and its curve against T for 3D and 2D tiles (seeds: 8^3 -> 58%, 32x32 -> 12%). The texts
// and curves come from halo_figure() (viewer/core/figures.h), rebuilt on a change only.
#include <fmt/format.h>

#include "viewer/core/colormap.h"
#include "viewer/panels.h"
#include "viewer/plot_widget.h"

namespace stencil::viewer {

void draw_halos_panel(App& app) {
    auto& h = app.halo;
    const HaloFigure& v = h.view;
    bool changed = false;
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
    changed |= ImGui::SliderInt("T##halo", &h.tile, 2 * h.radius + 1, 40);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5);
    changed |= ImGui::SliderInt("r##halo", &h.radius, 1, kMaxRadius);
    ImGui::SameLine();
    changed |= ImGui::RadioButton("3D", &h.dims, 3);
    ImGui::SameLine();
    changed |= ImGui::RadioButton("2D", &h.dims, 2);
    if (changed) {
        h.tile = std::max(h.tile, 2 * h.radius + 1);
        app.rebuild_halos();
    }
    ValueWithHelp("halo share:", v.share_text,
                  h.dims == 3 ? "(T^3 - (T-2r)^3) / T^3: input cells a block loads but computes no output for. "
                                "T = 8, r = 1: 296 of 512 = 58%."
                              : "(T^2 - (T-2r)^2) / T^2. T = 32, r = 1: 124 of 1024 = 12%.");

    const float fs = ImGui::GetFontSize();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    // Side by side when the panel is wide, else the tile above the chart: the chart keeps at least
    // 18 font heights of width (it collapsed to a sliver at 1280x800).
    const bool side_by_side = avail.x > fs * 34;
    const float tile_h = side_by_side ? avail.y - fs * 3 : std::min(avail.y * 0.4f, avail.x * 0.5f);
    const float side = std::min(side_by_side ? avail.x * 0.38f : avail.x, tile_h);
    const float cell = std::max(2.0f, side / h.tile);
    ImGui::BeginGroup();
    ImGui::TextUnformatted(v.grid_label.c_str());
    const int T = h.tile, r = h.radius;
    const int z = T / 2;
    DrawCellGrid("##halo", T, T, cell, [&](int x, int y) {
        const bool inner_xy = x >= r && x < T - r && y >= r && y < T - r;
        const bool inner = inner_xy && (h.dims == 2 || (z >= r && z < T - r));
        return pack(inner ? palette::output : palette::halo);
    });
    Swatch(pack(palette::output), "output");
    ImGui::SameLine();
    Swatch(pack(palette::halo), "halo");
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
                          {"series", v.series.size()}};
}

}  // namespace stencil::viewer
