// [SECTION] Runs panel: run one kernel or a T sweep on the GPU or CPU backend on a worker thread
// (progress bar, cancel), a results table, and load / save of results JSON (stencil-lab sweep's
// results.json), so a sweep made on a remote GPU can be explored on a laptop.
#include <fmt/format.h>

#include "viewer/panels.h"

namespace stencil::viewer {

void draw_runs_panel(App& app) {
    auto& r = app.runs;
    const float fs = ImGui::GetFontSize();
    const bool busy = r.runner.running();
    ImGui::BeginDisabled(busy);
    const char* backends[] = {"auto", "cuda", "cpu"};
    ImGui::SetNextItemWidth(fs * 5);
    ImGui::Combo("backend", &r.backend, backends, 3);
    if (app.gpu_unavailable) HelpMarker(("GPU: " + *app.gpu_unavailable + ". auto picks the CPU backend.").c_str());
    ImGui::SameLine();
    ImGui::SetNextItemWidth(fs * 9);
    if (ImGui::BeginCombo("kernel##runs", version(r.kernel).name)) {
        for (const auto& v : kernel_versions())
            if (ImGui::Selectable(v.name, v.id == r.kernel)) r.kernel = v.id, r.tile = v.default_tile;
        ImGui::EndCombo();
    }
    ImGui::SameLine();
    ImGui::SetNextItemWidth(fs * 4);
    if (ImGui::BeginCombo("T##runs", std::to_string(r.tile).c_str())) {
        for (int t : runnable_tiles(r.kernel, r.radius, r.precision))
            if (ImGui::Selectable(std::to_string(t).c_str(), t == r.tile)) r.tile = t;
        ImGui::EndCombo();
    }
    ImGui::SameLine();
    ImGui::SetNextItemWidth(fs * 4);
    ImGui::SliderInt("r##runs", &r.radius, 1, kMaxRadius);
    ImGui::SameLine();
    int prec = r.precision == Precision::f32 ? 0 : 1;
    bool pc = ImGui::RadioButton("f32##runs", &prec, 0);
    ImGui::SameLine();
    pc |= ImGui::RadioButton("f64##runs", &prec, 1);
    if (pc) r.precision = prec ? Precision::f64 : Precision::f32;
    ImGui::SetNextItemWidth(fs * 9);
    ImGui::InputInt3("grid##runs", r.n);
    for (int& v : r.n) v = std::clamp(v, 3, 2048);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(fs * 5);
    ImGui::SliderInt("reps", &r.reps, 1, 20);
    ImGui::SameLine();
    if (ImGui::Button("Run")) app.start_runs(false);
    ImGui::SameLine();
    if (ImGui::Button("Sweep T")) app.start_runs(true);
    HelpMarker("Sweep T runs every T this build can run for the kernel (naive: 4 and 8). On the CPU backend keep "
               "grids small: the PTX engine interprets every instruction of every thread.");
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(!busy);
    if (ImGui::Button("Cancel")) r.runner.cancel();
    ImGui::EndDisabled();
    ImGui::ProgressBar(r.runner.progress(), ImVec2(fs * 14, 0));
    ImGui::SameLine();
    ImGui::TextUnformatted(r.runner.status().c_str());

    ImGui::SetNextItemWidth(fs * 18);
    ImGui::InputText("##path", r.path, sizeof r.path);
    ImGui::SameLine();
    if (ImGui::Button("Load JSON")) app.load_results_file();
    ImGui::SameLine();
    if (ImGui::Button("Save JSON")) app.save_results_file();
    HelpMarker("The results.json that `stencil-lab sweep` writes (a list under \"results\"). Loaded runs join the "
               "table and feed the OP/B (DRAM counters) and coalescing (sectors per request) panels.");
    ImGui::SameLine();
    if (ImGui::Button("Clear")) r.records.clear(), app.rebuild_opb();
    if (!r.message.empty()) ImGui::TextWrapped("%s", r.message.c_str());

    // Stretch columns (proportional to content): fixed-fit widths were frozen while the table was
    // empty and clipped "256x256x256", "coarsened" after a load.
    const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY |
                                  ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_Resizable;
    struct Head {
        const char* name;
        float weight;
        const char* help;  // formula, for the header's tooltip
    };
    static const Head heads[] = {
        {"kernel", 2.6f, nullptr},
        {"T", 0.7f, "tile edge T (IN_TILE_DIM)"},
        {"r", 0.6f, "stencil radius"},
        {"prec", 0.9f, "f32 or f64"},
        {"grid", 2.6f, "nx x ny x nz cells"},
        {"backend", 1.4f, "cpu (the PTX engine: its times are no GPU's) or cuda; hover a row for the device"},
        {"median ms", 1.7f, "median of the timed launches (hover: min / median / max)"},
        {"GB/s", 1.3f, "effective bandwidth = 2 x cells x sizeof(real) / median time (one read and one write "
                       "per cell: the traffic an ideal cache would leave)"},
        {"of copy", 1.3f, "GB/s / copy GB/s: the effective bandwidth as a share of a plain copy kernel's, "
                          "measured in the same run (1.0 = as fast as copying the grid)"},
        {"error", 1.6f, "max relative error against the fp64 reference: max |out - ref| / max |ref|; FAILED when "
                        "the check's bound is exceeded (hover for why)"}};
    if (ImGui::BeginTable("results", 10, flags, ImVec2(0, ImGui::GetContentRegionAvail().y))) {
        ImGui::TableSetupScrollFreeze(0, 1);
        for (const Head& h : heads) ImGui::TableSetupColumn(h.name, ImGuiTableColumnFlags_WidthStretch, h.weight);
        // Headers with their formula on hover (TableHeadersRow has no HelpMarker).
        ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
        for (int c = 0; c < 10; ++c) {
            ImGui::TableSetColumnIndex(c);
            ImGui::TableHeader(heads[c].name);
            if (heads[c].help && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", heads[c].help);
        }
        // Only the visible rows are drawn (a loaded sweep can have hundreds).
        ImGuiListClipper clip;
        clip.Begin((int)r.records.size());
        while (clip.Step())
            for (int i = clip.DisplayStart; i < clip.DisplayEnd; ++i) {
                const auto& x = r.records[i];
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(x.kernel.c_str());
                ImGui::TableNextColumn();
                ImGui::Text("%d", x.tile);
                ImGui::TableNextColumn();
                ImGui::Text("%d", x.radius);
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(x.precision.c_str());
                ImGui::TableNextColumn();
                ImGui::Text("%dx%dx%d", x.dims.nx, x.dims.ny, x.dims.nz);
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(x.backend.c_str());
                if (ImGui::IsItemHovered() && !x.device.empty()) ImGui::SetTooltip("%s", x.device.c_str());
                ImGui::TableNextColumn();
                ImGui::Text("%.3f", x.ms_median);
                if (ImGui::IsItemHovered())
                    ImGui::SetTooltip("min %.3f / median %.3f / max %.3f ms", x.ms_min, x.ms_median, x.ms_max);
                ImGui::TableNextColumn();
                ImGui::Text("%.1f", x.gbps);
                ImGui::TableNextColumn();
                ImGui::Text("%.2f", x.of_copy);
                ImGui::TableNextColumn();
                if (!x.error.empty()) {
                    ImGui::TextColored(ImVec4(1, 0.45f, 0.4f, 1), x.ms_median > 0 ? "FAILED" : "skipped");
                    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", x.error.c_str());
                } else if (x.checked) {
                    ImGui::Text("%.2g", x.max_rel_err);
                } else {
                    ImGui::TextDisabled("not checked");
                }
            }
        ImGui::EndTable();
    }
    if (app.recording) {
        int counters = 0;
        for (const auto& x : r.records) counters += x.dram.measured() || x.l2.measured();
        app.drawn["runs"] = {{"rows", r.records.size()}, {"rows_with_counters", counters}, {"message", r.message}};
    }
}

}  // namespace stencil::viewer
