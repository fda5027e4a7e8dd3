// [SECTION] Coalescing panel: for the stepper's block and a chosen warp, which lanes touch which
// grid rows and 32-byte sectors in each global request, sectors per request and efficiency,
// predicted (model) against measured (trace; GPU counters when a run has them); a colour map of
// the warps over the block.
#include <fmt/format.h>

#include "viewer/core/colormap.h"
#include "viewer/fit.h"
#include "viewer/panels.h"

namespace stencil::viewer {

namespace {

void lane_strip(const WarpLoad& w, float width) {
    // 32 lanes in a row, each coloured by the grid row it reads; sector boundaries marked below.
    const float fs = ImGui::GetFontSize();
    const float cell = std::max(4.0f, std::min(fs * 1.4f, width / 33.0f));
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    for (int lane = 0; lane < 32; ++lane) {
        const ImVec2 a(p.x + lane * cell, p.y);
        const int row = w.lane_row[lane], sec = w.lane_sector[lane];
        const ImU32 c = row < 0 ? pack(palette::outside) : pack(category(row));
        dl->AddRectFilled(a, ImVec2(a.x + cell - 1, a.y + cell), c);
        if (sec >= 0) {
            const ImU32 sc = (sec % 2) ? IM_COL32(230, 230, 230, 255) : IM_COL32(120, 120, 120, 255);
            dl->AddRectFilled(ImVec2(a.x, a.y + cell + 2), ImVec2(a.x + cell - 1, a.y + cell + 6), sc);
        }
    }
    ImGui::Dummy(ImVec2(32 * cell, cell + 8));
    if (ImGui::IsItemHovered()) {
        const int lane = (int)((ImGui::GetIO().MousePos.x - p.x) / cell);
        if (lane >= 0 && lane < 32 && w.lane_row[lane] >= 0)
            ImGui::SetTooltip("lane %d: row %d of this request (grid row z*ny + y = %lld), sector %d", lane,
                              w.lane_row[lane], w.row_id[w.lane_row[lane]], w.lane_sector[lane]);
    }
}

// Predicted against measured: the model's first load, the trace's warp and, when a loaded GPU run
// has them for this very configuration, its counters. Stretch: fixed-fit columns shrank the
// headers to a letter at projector font sizes.
void draw_prediction_table(App& app) {
    auto& e = app.exp;
    const auto& t = e.trace;
    const auto& p = e.prediction;
    const auto& m = e.warp_summary;
    // A GPU run of this very configuration: kernel, T, r, precision and grid.
    const RunRecord* gpu = nullptr;
    bool any_counters = false;
    for (const auto& r : app.runs.records) {
        any_counters = any_counters || r.sectors_per_request.has_value();
        if (r.sectors_per_request && r.kernel == version(t.cfg.kernel).name && r.tile == t.cfg.tile &&
            r.radius == t.cfg.radius && r.precision == to_string(t.cfg.precision) && r.dims == t.cfg.dims)
            gpu = &r;
    }
    // Columns sized to their contents (the table wraps into bands when the panel is narrow).
    const ImVec4 muted = ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled);
    const std::vector<fit::Column> cols = {
        {"", ""}, {"model (first load)", ""}, {"trace: this warp", ""}, {"GPU counters", ""}};
    auto row = [&](const char* name, std::string model, std::string trace, std::string counters, const char* f) {
        return std::vector<fit::Cell>{{name, {}, f},
                                      {std::move(model)},
                                      {std::move(trace)},
                                      counters.empty() ? fit::Cell{"n/a", muted} : fit::Cell{std::move(counters)}};
    };
    const std::vector<std::vector<fit::Cell>> rows = {
        row("rows per request", fmt::format("{}", p.rows), fmt::format("{:.2f}", m.rows_per_request), "",
            "Distinct x-rows (y, z) of the grid one warp's load touches: ceil(32 / block.x) for a block narrower "
            "than a warp (8 wide: 4 rows)."),
        row("sectors per request", fmt::format("{:g}", p.sectors), fmt::format("{:.2f}", m.sectors_per_request),
            gpu ? fmt::format("{:.2f}", *gpu->sectors_per_request) : "",
            "Distinct 32-byte sectors per warp-level load request (ncu: l1tex__t_sectors_pipe_lsu_mem_global_op_ld "
            "/ ..._requests). 4 for 32 lanes x 4 B, aligned, in one row."),
        row("efficiency", fmt::format("{:.0f}%", 100 * p.efficiency), fmt::format("{:.0f}%", 100 * m.efficiency), "",
            "Bytes the lanes asked for / (sectors x 32 B).")};
    fit::Table("cmp", cols, rows, 1);
    if (!gpu)
        Greyed("GPU counters:",
               any_counters ? fmt::format("the loaded runs have counters, but none for {} T={} r={} {} {}^3 (the "
                                          "stepper's grid)",
                                          version(t.cfg.kernel).name, t.cfg.tile, t.cfg.radius,
                                          to_string(t.cfg.precision), t.cfg.dims.nx)
               : app.gpu_unavailable ? "no GPU here (" + *app.gpu_unavailable +
                                           "): load a GPU sweep's results.json in the runs panel"
                                     : "run this configuration on the GPU in the runs panel, or load a GPU sweep's "
                                       "results.json");
    if (app.recording)
        app.drawn["coalescing"] = {{"warp", e.warp}, {"requests", e.warp_loads.size()},
                                   {"model_sectors", p.sectors}, {"trace_sectors", m.sectors_per_request},
                                   {"gpu", gpu != nullptr}};
    fit::Wrapped("Model: " + p.explanation);
    fit::Wrapped(fmt::format("Whole block (trace): {:.2f} sectors per load request, {:.0f}% efficiency, {} requests",
                             e.block_summary.sectors_per_request, 100 * e.block_summary.efficiency,
                             e.block_summary.requests));
}

// The chosen warp's requests, and the lanes of the selected one beside the list (or below it).
void draw_requests_of_warp(App& app) {
    auto& e = app.exp;
    const float fs = ImGui::GetFontSize();
    ImGui::BeginGroup();
    fit::Text(fmt::format("Requests of warp {}", e.warp));
    // As wide as its longest label (or the panel), so no request's label is cut.
    float reqs_w = fs * 8;
    for (const auto& l : e.request_labels) reqs_w = std::max(reqs_w, fit::TextWidth(l) + fs * 1.5f);
    const float full = ImGui::GetContentRegionAvail().x;
    reqs_w = std::min(reqs_w, full);
    ImGui::BeginChild("reqs", ImVec2(reqs_w, fs * 8), true, ImGuiWindowFlags_HorizontalScrollbar);
    // The labels are formatted once per warp change (App::set_warp), not per frame.
    for (int i = 0; i < (int)e.request_labels.size(); ++i)
        if (ImGui::Selectable(e.request_labels[i].c_str(), e.request == i)) e.request = i;
    ImGui::EndChild();
    ImGui::EndGroup();
    // The lanes beside the list when both fit, else below it.
    const float strip_w = fs * 20;
    fit::SameLineIfFits(strip_w);
    ImGui::BeginGroup();
    if (e.request < (int)e.warp_loads.size()) {
        const auto& w = e.warp_loads[e.request];
        fit::Wrapped(fmt::format("{}: {} lanes, {} rows, {} sectors, {} lines, {:.0f}% efficient", w.label, w.lanes,
                                 w.rows, w.sectors, w.lines, 100 * w.efficiency));
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        fit::Wrapped("lanes 0..31 coloured by grid row; bars below alternate per 32-byte sector");
        ImGui::PopStyleColor();
        lane_strip(w, ImGui::GetContentRegionAvail().x);
    }
    ImGui::EndGroup();
}

// The block's threads coloured by warp, one z-slice at a time; a click picks the warp.
void draw_warps_over_block(App& app) {
    auto& e = app.exp;
    const auto& t = e.trace;
    const float fs = ImGui::GetFontSize();
    const Dim3 bd = t.geo.block;
    fit::Text(fmt::format("Warps over the block ({} warps)", warps_in_block(bd)));
    HelpMarker("Each thread coloured by its warp; the chosen warp is bright, the others dimmed. In an 8 x 8 x 8 "
               "block a warp covers 4 rows of 8 threads: 4 separate rows of memory.");
    if (bd.z > 1) {
        fit::SameLineIfFits(fit::LabeledWidth(fs * 8, "tz"));
        ImGui::SetNextItemWidth(fs * 8);
        ImGui::SliderInt("tz", &e.slice, 0, bd.z - 1);
    }
    const float avail = ImGui::GetContentRegionAvail().x;
    const float cell = std::clamp(std::min(avail, ImGui::GetContentRegionAvail().y - fs) / bd.x, 4.0f, fs * 1.5f);
    const int tz = std::min(e.slice, bd.z - 1);
    const auto hit = DrawCellGrid("##warps", bd.x, bd.y, cell, [&](int x, int y) {
        const int th = (tz * bd.y + y) * bd.x + x;
        const int w = th / 32;
        return pack(warp_colour(w), w == e.warp ? 1.0f : 0.35f);
    });
    if (hit.hx >= 0) {
        const int th = (tz * bd.y + hit.hy) * bd.x + hit.hx;
        ImGui::SetTooltip("thread (%d, %d, %d) = %d: warp %d, lane %d", hit.hx, hit.hy, tz, th, th / 32, th % 32);
        if (ImGui::IsMouseClicked(0)) app.set_warp(th / 32);
    }
}

}  // namespace

void draw_coalescing_panel(App& app) {
    if (trace_status(app)) return;
    auto& e = app.exp;
    const auto& t = e.trace;
    if (!t.ok()) {
        fit::Wrapped("No trace: " + t.error);
        return;
    }
    fit::Wrapped(fmt::format("{}, T = {}, block ({}, {}, {}) of the stepper", version(t.cfg.kernel).name, t.cfg.tile,
                             t.cfg.block.x, t.cfg.block.y, t.cfg.block.z));
    HelpMarker("The block the stepper recorded; change kernel, T or block there.");
    int warp = e.warp;
    ImGui::SetNextItemWidth(std::min(ImGui::GetFontSize() * 10, ImGui::GetContentRegionAvail().x - fit::TextWidth("warp") - ImGui::GetFontSize()));
    if (ImGui::SliderInt("warp", &warp, 0, warps_in_block(t.geo.block) - 1)) app.set_warp(warp);
    HelpMarker("Warp w holds threads 32w .. 32w+31 in CUDA's numbering (x fastest, then y, then z).");

    draw_prediction_table(app);
    ImGui::Separator();
    draw_requests_of_warp(app);
    ImGui::Separator();
    draw_warps_over_block(app);
}

}  // namespace stencil::viewer
