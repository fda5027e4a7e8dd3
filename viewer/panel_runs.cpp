// [SECTION] Runs panel: run one kernel or a T sweep on the GPU or CPU backend on a worker thread
// (progress bar, cancel), a results table, and load / save of results JSON (stencil-lab sweep's
// results.json), so a sweep made on a remote GPU can be explored on a laptop.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>

#include "viewer/core/colormap.h"
#include "viewer/core/run_table.h"
#include "viewer/fit.h"
#include "viewer/panels.h"

namespace stencil::viewer {

namespace {

// What to run: backend, kernel, T, r, precision, grid and repetitions.
void draw_run_choices(App& app) {
    auto& r = app.runs;
    const float fs = ImGui::GetFontSize();
    const char* backends[] = {"auto", "cuda", "cpu"};
    ImGui::SetNextItemWidth(fs * 5);
    ImGui::Combo("backend", &r.backend, backends, 3);
    if (app.gpu_unavailable) HelpMarker(("GPU: " + *app.gpu_unavailable + ". auto picks the CPU backend.").c_str());
    fit::SameLineIfFits(fit::LabeledWidth(fs * 9, "kernel"));
    ImGui::SetNextItemWidth(fs * 9);
    if (ImGui::BeginCombo("kernel##runs", version(r.kernel).name)) {
        for (const auto& v : kernel_versions())
            if (ImGui::Selectable(v.name, v.id == r.kernel)) r.kernel = v.id, r.tile = v.default_tile;
        ImGui::EndCombo();
    }
    fit::SameLineIfFits(fit::LabeledWidth(fs * 4, "T"));
    ImGui::SetNextItemWidth(fs * 4);
    if (ImGui::BeginCombo("T##runs", std::to_string(r.tile).c_str())) {
        for (int t : runnable_tiles(r.kernel, r.radius, r.precision))
            if (ImGui::Selectable(std::to_string(t).c_str(), t == r.tile)) r.tile = t;
        ImGui::EndCombo();
    }
    fit::SameLineIfFits(fit::LabeledWidth(fs * 4, "r"));
    ImGui::SetNextItemWidth(fs * 4);
    ImGui::SliderInt("r##runs", &r.radius, 1, kMaxRadius);
    int prec = r.precision == Precision::f32 ? 0 : 1;
    fit::SameLineIfFits(fit::CheckWidth("f32"));
    bool pc = ImGui::RadioButton("f32##runs", &prec, 0);
    fit::SameLineIfFits(fit::CheckWidth("f64"));
    pc |= ImGui::RadioButton("f64##runs", &prec, 1);
    if (pc) r.precision = prec ? Precision::f64 : Precision::f32;
    fit::SameLineIfFits(fit::LabeledWidth(fs * 9, "grid"));
    ImGui::SetNextItemWidth(fs * 9);
    ImGui::InputInt3("grid##runs", r.n);
    for (int& v : r.n) v = std::clamp(v, 3, 2048);
    fit::SameLineIfFits(fit::LabeledWidth(fs * 5, "reps"));
    ImGui::SetNextItemWidth(fs * 5);
    ImGui::SliderInt("reps", &r.reps, 1, 20);
}

// Run and Sweep T.
void draw_run_buttons(App& app) {
    fit::SameLineIfFits(fit::ButtonWidth("Run"));
    if (ImGui::Button("Run")) app.start_runs(false);
    fit::SameLineIfFits(fit::ButtonWidth("Sweep T"));
    if (ImGui::Button("Sweep T")) app.start_runs(true);
    HelpMarker("Sweep T runs every T this build can run for the kernel (naive: 4 and 8). On the CPU backend keep "
               "grids small: the PTX engine interprets every instruction of every thread.");
}

// Cancel (only while busy), the progress bar and the runner's status.
void draw_progress(App& app, bool busy) {
    auto& r = app.runs;
    const float fs = ImGui::GetFontSize();
    fit::SameLineIfFits(fit::ButtonWidth("Cancel"));
    ImGui::BeginDisabled(!busy || r.runner.cancelling());
    if (ImGui::Button("Cancel")) r.runner.cancel();
    ImGui::EndDisabled();
    HelpMarker("The bar moves within a run too (check, reference, timing, copy). Cancel stops the run in flight at "
               "its next stage and the sweep there; the status says cancelling... until it has.");
    const float bar_w = std::min(fs * 14, ImGui::GetContentRegionAvail().x);
    ImGui::ProgressBar(r.runner.progress(), ImVec2(bar_w, 0));
    const std::string status = r.runner.status();
    if (!status.empty()) {
        fit::SameLineIfFits(fit::TextWidth(status));
        fit::Wrapped(status);
    }
}

// The results file: its path, load, save and clear.
void draw_results_file(App& app) {
    auto& r = app.runs;
    const float fs = ImGui::GetFontSize();
    const float path_w = std::min(fs * 18, ImGui::GetContentRegionAvail().x);
    ImGui::SetNextItemWidth(path_w);
    ImGui::InputText("##path", r.path, sizeof r.path);
    fit::SameLineIfFits(fit::ButtonWidth("Load JSON"));
    if (ImGui::Button("Load JSON")) app.load_results_file();
    fit::SameLineIfFits(fit::ButtonWidth("Save JSON"));
    if (ImGui::Button("Save JSON")) app.save_results_file();
    HelpMarker("The results.json that `stencil-lab sweep` writes (a list under \"results\"), or JSON lines: "
               "`stencil-lab run --json` lines, or bench/peers.py's .jsonl (torch, cuDNN and CuPy on the same stencils, "
               "each with its ratio to the copy of its own process). Loaded runs join the table and feed the OP/B "
               "(DRAM counters) and coalescing (sectors per request) panels. File > Open results... lists them.");
    fit::SameLineIfFits(fit::ButtonWidth("Clear"));
    if (ImGui::Button("Clear")) r.records.clear(), app.rebuild_opb();
    if (!r.message.empty()) fit::Wrapped(r.message);
}

// The runs so far, one row each.
void draw_results_table(App& app) {
    auto& r = app.runs;
    // Columns sized to their contents; a table wider than the panel wraps into bands of columns.
    std::vector<fit::Column> columns;
    for (const auto& c : run_columns()) columns.push_back({c.header, c.help});
    std::vector<std::vector<fit::Cell>> rows;
    for (const auto& x : r.records) {
        std::vector<fit::Cell> row;
        for (const auto& c : run_cells(x)) {
            const ImVec4 colour = c.tone == CellTone::good  ? ImVec4(0.4f, 0.9f, 0.5f, 1)
                                  : c.tone == CellTone::bad ? ImVec4(1, 0.45f, 0.4f, 1)
                                  : c.tone == CellTone::muted ? ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled)
                                                              : ImVec4(0, 0, 0, 0);
            row.push_back({c.text, colour, c.tooltip});
        }
        rows.push_back(std::move(row));
    }
    ImGui::BeginChild("##runs_table", ImVec2(0, 0), false);
    fit::BeginFigure();
    fit::Table("results", columns, rows, 1);
    fit::EndFigure();
    fit::CheckWindow("runs table");
    ImGui::EndChild();
    if (app.recording) {
        int counters = 0, passes = 0, fails = 0, cpu_rates = 0;
        for (const auto& x : r.records) {
            counters += x.dram.measured() || x.l2.measured();
            const std::string e = error_cell(x).text;
            passes += e.rfind("pass", 0) == 0;
            fails += e.rfind("FAIL", 0) == 0;
            cpu_rates += x.backend == "cpu" && x.instructions_per_s > 0;
        }
        (*app.drawn)["runs"] = {{"rows", r.records.size()}, {"rows_with_counters", counters}, {"message", r.message},
                             {"passes", passes}, {"fails", fails}, {"cpu_inst_rates", cpu_rates},
                             {"first_speed", r.records.empty() ? "" : speed_cell(r.records[0]).text},
                             {"first_error", r.records.empty() ? "" : error_cell(r.records[0]).text},
                             {"status", r.runner.status()}};
    }
}

// Lecture mode: each run a bar, as long as its share of the copy bandwidth (a GPU's runs) or its
// emulated instructions per second against the fastest (the CPU engine's, which say nothing about a
// GPU), labelled with what ran and its figure.
void draw_runs_bars(App& app) {
    const auto& recs = app.runs.records;
    const float fs = ImGui::GetFontSize();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    if (recs.empty()) {
        fit::Wrapped("No runs yet: Run or Sweep T (leave lecture mode with L), or load a results.json.");
        return;
    }
    struct Bar {
        std::string label, value;
        double length;  // 0..1 of the bar area
        bool gpu;
    };
    std::vector<Bar> bars;
    double cpu_max = 0, gpu_max = 1;
    for (const auto& r : recs) {
        if (r.backend == "cpu") cpu_max = std::max(cpu_max, r.instructions_per_s);
        else if (r.of_copy > 0) gpu_max = std::max(gpu_max, r.of_copy);
    }
    float label_w = 0;
    for (const auto& r : recs) {
        Bar b;
        b.gpu = r.backend != "cpu";
        b.label = fmt::format("{} T={} r={} {} {}", r.kernel, r.tile, r.radius, r.precision, r.dims.nx);
        if (b.gpu && r.of_copy > 0) {
            b.value = fmt::format("{:.0f} GB/s, {:.2f} of the copy", r.gbps, r.of_copy);
            b.length = r.of_copy / gpu_max;
        } else if (r.instructions_per_s > 0) {
            b.value = si_rate(r.instructions_per_s) + "inst/s (CPU engine)";
            b.length = cpu_max > 0 ? r.instructions_per_s / cpu_max : 0;
        } else {
            b.value = r.error.empty() ? "not timed" : r.error;
            b.length = 0;
        }
        label_w = std::max(label_w, fit::TextWidth(b.label));
        bars.push_back(std::move(b));
    }
    const int n = (int)bars.size();
    const float row_h = std::max(fs * 1.2f, std::min(fs * 3, avail.y / n));
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float h = row_h * n, bar_x = p.x + label_w + fs;
    ImGui::InvisibleButton("##bars", ImVec2(avail.x, h));
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 lo = p, hi(p.x + avail.x, p.y + h);
    for (int i = 0; i < n; ++i) {
        const Bar& b = bars[i];
        const float y = p.y + i * row_h, mid = y + (row_h - fs) / 2;
        fit::DrawText(dl, ImVec2(p.x, mid), ImGui::GetColorU32(ImGuiCol_Text), b.label, lo, hi);
        const float value_w = fit::TextWidth(b.value) + fs * 0.5f;
        const float room = std::max(fs, hi.x - bar_x - value_w);
        const float len = (float)b.length * room;
        dl->AddRectFilled(ImVec2(bar_x, y + row_h * 0.15f), ImVec2(bar_x + len, y + row_h * 0.85f),
                          b.gpu ? pack(palette::output) : pack(palette::loaded));
        fit::DrawText(dl, ImVec2(bar_x + len + fs * 0.3f, mid), ImGui::GetColorU32(ImGuiCol_Text), b.value, lo, hi);
    }
}

}  // namespace

void draw_runs_panel(App& app) {
    if (app.ui.lecture) {
        app.ui.status = {fmt::format("{} runs", app.runs.records.size()), app.runs.message};
        fit::BeginFigure();
        draw_runs_bars(app);
        fit::EndFigure();
        if (app.recording)
            (*app.drawn)["runs"] = {{"rows", app.runs.records.size()}, {"message", app.runs.message}, {"bars", true}};
        return;
    }
    const bool busy = app.runs.runner.running();
    ImGui::BeginDisabled(busy);
    draw_run_choices(app);
    draw_run_buttons(app);
    ImGui::EndDisabled();
    draw_progress(app, busy);
    draw_results_file(app);
    draw_results_table(app);
}

}  // namespace stencil::viewer
