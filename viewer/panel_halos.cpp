// [SECTION] Halos panel: a slice of the input tile with output and halo cells coloured, the halo
// share, and its curve against T for 3D and 2D tiles (seeds: 8^3 -> 58%, 32x32 -> 12%).
#include <fmt/format.h>

#include "viewer/core/colormap.h"
#include "viewer/panels.h"
#include "viewer/plot_widget.h"

namespace stencil::viewer {

void draw_halos_panel(App& app) {
    auto& h = app.halo;
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
    ValueWithHelp("halo share:",
                  fmt::format("{} of {} cells = {:.1f}%  (output {})", h.fig.halo_cells, h.fig.in_cells,
                              100 * h.fig.fraction, h.fig.out_cells),
                  h.dims == 3 ? "(T^3 - (T-2r)^3) / T^3: input cells a block loads but computes no output for. "
                                "T = 8, r = 1: 296 of 512 = 58%."
                              : "(T^2 - (T-2r)^2) / T^2. T = 32, r = 1: 124 of 1024 = 12%.");

    const float fs = ImGui::GetFontSize();
    const float avail = ImGui::GetContentRegionAvail().x;
    const float side = std::min(avail * 0.38f, ImGui::GetContentRegionAvail().y - fs * 3);
    const float cell = std::max(2.0f, side / h.tile);
    ImGui::BeginGroup();
    ImGui::Text(h.dims == 3 ? "slice z = %d of the %d^3 tile" : "the %2$dx%2$d tile", h.tile / 2, h.tile);
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
    ImGui::SameLine();
    PlotSpec spec;
    spec.id = "halos";
    spec.x = &h.x;
    spec.y = &h.y;
    spec.series = &h.series;
    spec.points = &h.points;
    spec.size = ImVec2(0, std::max(fs * 10, ImGui::GetContentRegionAvail().y));
    spec.hover_text = [&](int s, int i) {
        const Series& S = h.series[s];
        return fmt::format("{}\nT = {:g}: halo {:.1f}%", S.name, S.x[i], S.y[i]);
    };
    Plot(spec);
}

}  // namespace stencil::viewer
