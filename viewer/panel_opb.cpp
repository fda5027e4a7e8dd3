// [SECTION] OP/B panel: the model's OP/B against T for each kernel, points measured from CPU
// traces (requested bytes), DRAM-level points from GPU counters when a GPU run or a loaded sweep
// has them, and the seeds' figures (1.37 at T = 8, the 3.25 limit) marked.
#include <fmt/format.h>

#include "viewer/panels.h"
#include "viewer/plot_widget.h"

namespace stencil::viewer {

void draw_opb_panel(App& app) {
    auto& o = app.opb;
    bool changed = false;
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5);
    changed |= ImGui::SliderInt("r##opb", &o.radius, 1, kMaxRadius);
    ImGui::SameLine();
    int prec = o.precision == Precision::f32 ? 0 : 1;
    bool pc = ImGui::RadioButton("f32##opb", &prec, 0);
    ImGui::SameLine();
    pc |= ImGui::RadioButton("f64##opb", &prec, 1);
    if (pc) o.precision = prec == 0 ? Precision::f32 : Precision::f64, changed = true;
    ImGui::SameLine();
    changed |= ImGui::Checkbox("log y", &o.log_y);
    ImGui::SameLine();
    if (o.measuring.valid()) {
        ImGui::TextDisabled("measuring on the CPU backend...");
    } else if (ImGui::Button("Measure from CPU traces")) {
        app.start_trace_measurement();
    }
    HelpMarker("Runs every kernel at T up to 16 on a 48^3 grid on the CPU backend with access counting: OP/B = "
               "stores x (12r+1) / bytes of global loads requested. Face blocks load less and compute less, so "
               "the whole-grid figure sits below the interior-block model.");
    if (changed) app.rebuild_opb();

    ImGui::TextUnformatted("Model:");
    HelpMarker(fmt::format("OP/B = FLOPs / bytes loaded from global memory (loads only, as the textbook "
                           "counts).\nnaive: (12r+1) / ((6r+1) sizeof(real)) = 13/28 = 0.46 for r = 1, fp32.\n"
                           "tiled and z-marching: {}\nModel source: {}",
                           o.formula, model_provenance())
                   .c_str());
    ImGui::SameLine();
    for (const auto& m : o.table) {
        ImGui::SameLine();
        ImGui::Text(" %s T=%d: %.2f ", version(m.kernel).name, m.tile, m.opb);
    }

    const float h = ImGui::GetContentRegionAvail().y - ImGui::GetTextLineHeightWithSpacing() * 1.3f;
    PlotSpec spec;
    spec.id = "opb";
    spec.x = &o.x;
    spec.y = &o.y;
    spec.series = &o.series;
    spec.refs = &o.refs;
    spec.points = &o.points;
    spec.size = ImVec2(0, std::max(h, ImGui::GetFontSize() * 10));
    spec.hover_text = [&](int s, int i) {
        const Series& S = o.series[s];
        return fmt::format("{}\nT = {:g}: OP/B = {:.3f}", S.name, S.x[i], S.y[i]);
    };
    Plot(spec);
    for (const auto& s : o.series)
        if (s.greyed) Greyed((s.name + ": not available").c_str(), s.greyed_why);
}

}  // namespace stencil::viewer
