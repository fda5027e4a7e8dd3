// [SECTION] OP/B panel: the model's OP/B against T for each kernel, points measured from CPU
// traces (requested bytes), L2- and DRAM-level points from GPU counters when a GPU run or a loaded
// sweep has them, the textbook's figures (1.37 at T = 8) and the T -> infinity limit marked. The
// content is opb_figure() (viewer/core/figures.h), rebuilt on a change only.
#include <fmt/format.h>

#include "viewer/fit.h"
#include "viewer/panels.h"
#include "viewer/plot_widget.h"

namespace stencil::viewer {

void draw_opb_panel(App& app) {
    auto& o = app.opb;
    const OpbFigure& f = o.fig;
    bool changed = false;
    const float fs = ImGui::GetFontSize();
    ImGui::SetNextItemWidth(fs * 5);
    changed |= ImGui::SliderInt("r##opb", &o.radius, 1, kMaxRadius);
    int prec = o.precision == Precision::f32 ? 0 : 1;
    fit::SameLineIfFits(fit::CheckWidth("f32"));
    bool pc = ImGui::RadioButton("f32##opb", &prec, 0);
    fit::SameLineIfFits(fit::CheckWidth("f64"));
    pc |= ImGui::RadioButton("f64##opb", &prec, 1);
    if (pc) o.precision = prec == 0 ? Precision::f32 : Precision::f64, changed = true;
    fit::SameLineIfFits(fit::CheckWidth("log y"));
    changed |= ImGui::Checkbox("log y", &o.log_y);
    fit::SameLineIfFits(fit::CheckWidth("legend"));
    changed |= ImGui::Checkbox("legend", &o.legend);
    if (o.measuring.valid()) {
        fit::SameLineIfFits(fit::TextWidth("measuring on the CPU backend..."));
        fit::Disabled("measuring on the CPU backend...");
    } else {
        fit::SameLineIfFits(fit::ButtonWidth("Measure from CPU traces"));
        if (ImGui::Button("Measure from CPU traces")) app.start_trace_measurement();
        fit::CheckItem("Measure from CPU traces");
    }
    HelpMarker("Runs every kernel at T up to 16 on a 48^3 grid on the CPU backend with access counting, at this "
               "chart's r and precision: OP/B = stores x (12r+1) / bytes of global loads requested. Face blocks "
               "load less and compute less, so the whole-grid figure sits below the interior-block model.");
    if (changed) app.rebuild_opb();

    fit::Text("Model:");
    HelpMarker(o.help.c_str());
    for (const auto& m : f.table) {
        const std::string t = fmt::format(" {} T={}: {:.2f} ", version(m.kernel).name, m.tile, m.opb);
        fit::SameLineIfFits(fit::TextWidth(t));
        fit::Text(t);
    }
    // Greyed GPU series: the reason as visible text, not only on hover.
    if (!f.counters_why.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        fit::Wrapped("GPU counters (L2, DRAM) not shown: " + f.counters_why);
        ImGui::PopStyleColor();
    }

    const float h = ImGui::GetContentRegionAvail().y;
    PlotSpec spec;
    spec.id = "opb";
    spec.x = &f.x;
    spec.y = &f.y;
    spec.series = &f.series;
    spec.refs = &f.refs;
    spec.points = &f.points;
    spec.legend = o.legend;
    spec.size = ImVec2(0, std::max(h, fs * 10));
    spec.hover_text = [&](int s, int i) {
        const Series& S = f.series[s];
        return fmt::format("{}\nT = {:g}: OP/B = {:.3f}", S.name, S.x[i], S.y[i]);
    };
    Plot(spec);
    if (app.recording) {
        nlohmann::json ser = nlohmann::json::array();
        size_t dram = 0, l2 = 0;
        for (const auto& s : f.series) {
            ser.push_back({{"name", s.name}, {"points", s.x.size()}, {"greyed", s.greyed}});
            if (s.name.rfind("DRAM", 0) == 0) dram = s.x.size();
            if (s.name.rfind("L2", 0) == 0) l2 = s.x.size();
        }
        app.drawn["opb"] = {{"radius", o.radius}, {"precision", to_string(o.precision)}, {"series", ser},
                            {"seeds", f.points.size()}, {"limit", f.refs.empty() ? 0.0 : f.refs[0].value}, {"dram_points", dram}, {"l2_points", l2}, {"counters_why", f.counters_why}};
    }
}

}  // namespace stencil::viewer
