// [SECTION] OP/B panel, two tabs over the same r and precision.
//   OP/B against T: the model's OP/B per kernel, measured points (CPU traces, and the runs'
//     requested, L2 and DRAM levels: colour = kernel, marker = level), the textbook's figures
//     (1.37 at T = 8) and the T -> infinity limit. Content: opb_figure() (viewer/core/figures.h).
//   roofline: GFLOP/s against FLOP/B for every timed run, labelled with kernel and T, under the
//     copy bandwidth and FMA peak ceilings, from a loaded sweep or measured here. Content:
//     roofline_figure() (viewer/core/roofline.h).
// Both are rebuilt by App::rebuild_opb on a change only; point labels are placed by
// viewer/core/label_place.h so that they cover no marker, line label or legend.
#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "viewer/fit.h"
#include "viewer/panels.h"
#include "viewer/plot_widget.h"

namespace stencil::viewer {

namespace {

// Legend entries that name nothing drawn (the sidecar's count): a curve's entry needs its points, a
// level's key (a marker alone) some shown points wearing that marker; a hidden series' dimmed
// entry is there to show it again.
int legend_entries_without_data(const std::vector<Series>& series) {
    int n = 0;
    for (const Series& s : series) {
        if (!s.in_legend || s.hidden) continue;
        const bool worn = std::any_of(series.begin(), series.end(), [&](const Series& t) {
            return !t.hidden && t.markers && s.markers && !s.line && t.marker == s.marker && !t.x.empty();
        });
        n += s.x.empty() && !worn;
    }
    return n;
}

// The preset: which story the chart tells (opb_view.h). Returns true when it changed.
bool preset_choice(App& app) {
    auto& o = app.opb;
    const auto& presets = opb_presets();
    const float fs = ImGui::GetFontSize();
    const char* now = o.selection.preset >= 0 ? presets[o.selection.preset].name : "your choice (legend clicks)";
    float w = fit::TextWidth(now);
    for (const auto& p : presets) w = std::max(w, fit::TextWidth(p.name));
    w += ImGui::GetFrameHeight() + ImGui::GetStyle().FramePadding.x * 2;
    ImGui::SetNextItemWidth(std::min(w, ImGui::GetContentRegionAvail().x - fit::TextWidth("show") - fs));
    bool changed = false;
    if (ImGui::BeginCombo("show##opb_preset", now)) {
        for (int i = 0; i < (int)presets.size(); ++i)
            if (ImGui::Selectable(presets[i].name, i == o.selection.preset)) {
                o.selection = selection_of(i);
                changed = true;
            }
        ImGui::EndCombo();
    }
    fit::CheckItem("show");
    return changed;
}

// The preset, r, precision, log y, legend and the CPU-trace measurement: shared by both tabs.
// Lecture mode keeps the preset (P cycles it) and leaves the rest to the normal view.
bool draw_controls(App& app) {
    auto& o = app.opb;
    bool changed = preset_choice(app);
    HelpMarker("One story at a time: the textbook's four kernels, tiled against T, the kernels beyond the textbook "
               "(per byte moved, on their own axis), or every kernel per byte loaded. A click on a legend entry "
               "shows or hides that series. P cycles the presets.");
    if (app.ui.lecture) return changed;
    const float fs = ImGui::GetFontSize();
    fit::SameLineIfFits(fit::LabeledWidth(fs * 5, "r"));
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
    return changed;
}

// The model's figures of the shown kernels at their default T, one line each kind.
void model_lines(App& app) {
    auto& o = app.opb;
    const OpbFigure& f = o.view;
    const bool moved = o.selection.scale == OpbScale::per_byte_moved;
    if (!moved) {
        fit::Text("Model:");
        HelpMarker(o.help.c_str());
        for (const auto& m : f.table) {
            if (has_update_model(m.kernel) || !o.selection.shown.count(version(m.kernel).name)) continue;
            const std::string t = fmt::format(" {} T={}: {:.2f} ", version(m.kernel).name, m.tile, m.opb);
            fit::SameLineIfFits(fit::TextWidth(t));
            fit::Text(t);
        }
        return;
    }
    fit::Text("Per byte moved:");
    HelpMarker(o.update_help.c_str());
    for (const auto& m : f.updates) {
        const std::string t = fmt::format(" {} ", update_short_text(m));
        fit::SameLineIfFits(fit::TextWidth(t));
        fit::Text(t);
    }
}

void draw_opb_tab(App& app) {
    auto& o = app.opb;
    const OpbFigure& f = o.view;
    const float fs = ImGui::GetFontSize();
    const bool lecture = app.ui.lecture;
    const OpbPreset* preset = o.selection.preset >= 0 ? &opb_presets()[o.selection.preset] : nullptr;
    if (!lecture) {
        model_lines(app);
        // Greyed GPU series: the reason as visible text, not only on hover.
        if (!f.counters_why.empty()) {
            ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
            fit::Wrapped("GPU counters (L2, DRAM) not shown: " + f.counters_why);
            ImGui::PopStyleColor();
        }
    }
    PlotSpec spec;
    spec.id = "opb";
    spec.x = &f.x;
    spec.y = &f.y;
    spec.series = &f.series;
    spec.refs = &f.refs;
    spec.points = &f.points;
    spec.legend = o.legend;
    // The story's sentence, unless at a lecture's font it would push the chart off the screen (the
    // instructor says it; the chart is what the back row must see).
    if (preset) {
        const float text_h = fit::TextSize(preset->explanation, ImGui::GetContentRegionAvail().x).y;
        if (!lecture || ImGui::GetContentRegionAvail().y - text_h - fs * 0.5f >= PlotLeastHeight(spec))
            fit::Wrapped(preset->explanation);
    }
    const float h = ImGui::GetContentRegionAvail().y;
    spec.size = ImVec2(0, std::max(h, fs * 10));
    spec.hover_text = [&](int s, int i) {
        const Series& S = f.series[s];
        return fmt::format("{}\nT = {:g}: {:.3f} FLOP/B", S.name, S.x[i], S.y[i]);
    };
    fit::BeginFigure();
    const PlotDrawn drawn = Plot(spec);
    fit::EndFigure();
    if (drawn.legend_clicked >= 0) {
        toggle_group(o.selection, f.series[drawn.legend_clicked].group);
        app.rebuild_opb();
    }
    app.ui.status = {fmt::format("r = {}, {}", o.radius, to_string(o.precision)), preset ? preset->name : "your choice",
                     "P: next story", "R: roofline", "click the legend: show / hide"};
    if (app.recording) {
        nlohmann::json ser = nlohmann::json::array(), hidden = nlohmann::json::array();
        for (const auto& s : f.series)
            if (s.in_legend) (s.hidden ? hidden : ser).push_back({{"name", s.name}, {"points", s.x.size()}, {"greyed", s.greyed}});
        nlohmann::json updates = nlohmann::json::array();  // every z-chunked curve the model has
        for (const auto& s : o.fig.series)
            if (s.name.find("(model): ") != std::string::npos)
                updates.push_back({{"name", s.name}, {"points", s.x.size()}, {"last_opb", s.y.empty() ? 0 : s.y.back()}});
        nlohmann::json limits = nlohmann::json::array();
        for (const auto& r : f.refs)
            limits.push_back({{"label", r.label}, {"value", r.value}, {"horizontal", r.horizontal}, {"owners", r.owners}});
        // Every shown series stays under the limits drawn for it (the sidecar says so for CI).
        bool under = true;
        for (const auto& s : f.series)
            if (!s.hidden && !s.group.empty() && s.name.find("(model)") != std::string::npos)
                for (double y : s.y) under = under && y <= group_limit(s.group, o.radius, o.precision) * (1 + 1e-9);
        const double limit = f.refs.empty() || !f.refs[0].horizontal ? 0.0 : f.refs[0].value;
        const int legend_without_data = legend_entries_without_data(f.series);
        (*app.drawn)["opb"] = {{"radius", o.radius}, {"precision", to_string(o.precision)}, {"series", ser},
                            {"hidden", hidden}, {"preset", preset ? preset->key : "custom"},
                            {"scale", o.selection.scale == OpbScale::per_byte_moved ? "per byte moved" : "per byte loaded"},
                            {"limits", limits}, {"limit_lines", f.refs.size()}, {"under_limits", under},
                            {"x_range", {f.x.lo, f.x.hi}}, {"y_range", {f.y.lo, f.y.hi}},
                            {"seeds", f.points.size()}, {"seed_label", f.points.empty() ? "" : f.points[0].label},
                            {"limit", limit}, {"limit_model", f.model_limit},
                            {"limit_matches_model", limit > 0 && limit == f.model_limit},
                            {"dram_points", f.dram_points}, {"l2_points", f.l2_points},
                            {"requested_points", f.requested_points}, {"trace_points", f.trace_points},
                            {"label_overlaps", drawn.label_overlaps}, {"legend_without_data", legend_without_data}, {"labels_drawn", drawn.labels}, {"label_hits", drawn.hits.total()}, {"label_curve_hits", drawn.hits.curves}, {"label_marker_hits", drawn.hits.markers}, {"counters_why", f.counters_why},
                            {"update_series", updates}, {"update_rows", f.updates.size()}};
    }
}

// The ceilings' sources, the measure button and what is missing.
void draw_ceilings(App& app) {
    auto& o = app.opb;
    const RooflineFigure& f = o.roofline;
    const Ceilings& c = f.used;
    const std::string mem = c.memory_gbps ? fmt::format("memory {:.0f} GB/s", *c.memory_gbps) : "memory: none";
    const std::string peak = c.compute_gflops ? fmt::format("compute {:.0f} GFLOP/s", *c.compute_gflops) : "compute: none";
    fit::Text(mem);
    HelpMarker(("The memory ceiling is a plain copy's bandwidth (read + write bytes / time): " + c.memory_source +
                ". A point on it is as fast as the memory allows at its intensity.")
                   .c_str());
    fit::SameLineIfFits(fit::TextWidth(peak));
    fit::Text(peak);
    HelpMarker(("The compute ceiling is the FMA peak (an FMA counted as 2 FLOP): " + c.compute_source +
                ". Ridge = peak / bandwidth: kernels left of it are bound by memory.")
                   .c_str());
    if (o.measuring_ceilings.valid()) {
        fit::SameLineIfFits(fit::TextWidth("measuring the ceilings..."));
        fit::Disabled("measuring the ceilings...");
    } else {
        fit::SameLineIfFits(fit::ButtonWidth("Measure ceilings here"));
        if (ImGui::Button("Measure ceilings here")) app.start_ceiling_measurement();
        fit::CheckItem("Measure ceilings here");
        HelpMarker("On the runs panel's backend: a copy of 256 MiB (bandwidth) and, on the CUDA backend, a kernel "
                   "of independent FMA chains (peak), both from backends/. The CPU backend has no FMA peak: the "
                   "PTX engine's FLOP/s are an interpreter's.");
    }
    if (!f.note.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        fit::Wrapped(f.note);
        ImGui::PopStyleColor();
    }
}

void draw_roofline_tab(App& app) {
    auto& o = app.opb;
    const RooflineFigure& f = o.roofline;
    const float fs = ImGui::GetFontSize();
    if (!app.ui.lecture) draw_ceilings(app);
    const Ceilings& used = f.used;
    app.ui.status = {fmt::format("roofline, r = {}, {}", o.radius, to_string(o.precision)),
                     used.memory_gbps ? fmt::format("copy {:.0f} GB/s", *used.memory_gbps) : "no copy ceiling",
                     used.compute_gflops ? fmt::format("FMA peak {:.0f} GFLOP/s", *used.compute_gflops)
                                         : "no compute ceiling",
                     "R: OP/B against T"};
    PlotSpec spec;
    spec.id = "roofline";
    spec.x = &f.x;
    spec.y = &f.y;
    // Lecture mode's small chart (or a large font's): a point's label is its T, its colour and marker the kernel's (the
    // legend says which); "tiled T=8" for every point crowded the chart with leader lines.
    std::vector<Series> compact;
    if (app.ui.compact_charts) {
        compact = f.series;
        for (auto& s : compact)
            for (auto& l : s.labels)
                if (const size_t at = l.rfind(" T="); at != std::string::npos) l = l.substr(at + 1);
    }
    spec.series = app.ui.compact_charts ? &compact : &f.series;
    spec.legend = o.legend;
    spec.size = ImVec2(0, std::max(ImGui::GetContentRegionAvail().y, fs * 10));
    spec.hover_text = [&](int s, int i) {
        const Series& S = f.series[s];
        const std::string who = i < (int)S.labels.size() ? S.labels[i] : S.name;
        return fmt::format("{}\n{:.3g} FLOP/B: {:.4g} GFLOP/s", who, S.x[i], S.y[i]);
    };
    fit::BeginFigure();
    const PlotDrawn drawn = Plot(spec);
    fit::EndFigure();
    if (app.recording) {
        const Ceilings& c = f.used;
        nlohmann::json kernels = nlohmann::json::array();
        for (const auto& s : f.series)
            if (!s.labels.empty()) kernels.push_back({{"name", s.name}, {"points", s.x.size()}});
        (*app.drawn)["roofline"] = {{"points", f.points}, {"dram_points", f.dram_points},
                                 {"model_points", f.model_points}, {"series", kernels},
                                 {"memory_gbps", c.memory_gbps.value_or(0)}, {"memory_source", c.memory_source},
                                 {"compute_gflops", c.compute_gflops.value_or(0)}, {"compute_source", c.compute_source},
                                 {"ridge", f.ridge}, {"label_overlaps", drawn.label_overlaps}, {"labels_drawn", drawn.labels}, {"label_hits", drawn.hits.total()}, {"label_curve_hits", drawn.hits.curves}, {"label_marker_hits", drawn.hits.markers}, {"note", f.note},
                                 {"radius", o.radius}, {"precision", to_string(o.precision)}};
    }
}

}  // namespace

void draw_opb_panel(App& app) {
    auto& o = app.opb;
    bool changed = app.ui.lecture && o.show_roofline ? false : draw_controls(app);
    if (LetterPressed('P') && ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows)) {
        o.selection = selection_of(o.selection.preset < 0 ? 0 : (o.selection.preset + 1) % (int)opb_presets().size());
        changed = true;
    }
    if (changed) app.rebuild_opb();
    // Lecture mode: no tab bar (a line the chart can use); R switches between the two charts.
    if (app.ui.lecture) {
        if (LetterPressed('R') && ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows))
            o.show_roofline = !o.show_roofline;
        if (o.show_roofline) draw_roofline_tab(app);
        else draw_opb_tab(app);
        return;
    }
    // --roofline opens the second tab; afterwards the user's click decides.
    static bool first = true;
    if (ImGui::BeginTabBar("##opb_tabs")) {
        const ImGuiTabItemFlags opb_flags = first && !o.show_roofline ? ImGuiTabItemFlags_SetSelected : 0;
        const ImGuiTabItemFlags roof_flags = first && o.show_roofline ? ImGuiTabItemFlags_SetSelected : 0;
        if (ImGui::BeginTabItem("OP/B against T", nullptr, opb_flags)) {
            if (!first) o.show_roofline = false;
            draw_opb_tab(app);
            ImGui::EndTabItem();
        }
        if (ImGui::BeginTabItem("roofline", nullptr, roof_flags)) {
            if (!first) o.show_roofline = true;
            draw_roofline_tab(app);
            ImGui::EndTabItem();
        }
        ImGui::EndTabBar();
    }
    first = false;
}

}  // namespace stencil::viewer
