// [SECTION] Coalescing panel: for the stepper's block and a chosen warp, each global request drawn
// as the textbook does (lanes over a memory axis of 32-byte sectors and 128-byte lines), sectors
// per request and efficiency,
// predicted (model) against measured (trace; GPU counters when a run has them); a colour map of
// the warps over the block.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "viewer/core/colormap.h"
#include "viewer/core/memory_axis.h"
#include "viewer/fit.h"
#include "viewer/panels.h"

namespace stencil::viewer {

namespace {

constexpr Rgb kUnused{0.42f, 0.42f, 0.45f};  // a sector's bytes no lane asked for

// The textbook's picture of one request: the warp's 32 lanes in a row, and under them the memory
// they read, a box per 32-byte sector (filled as far as the lanes use it) grouped in 128-byte lines,
// each lane joined to its address. Lines far apart are drawn side by side with a gap (a break).
// The colour of grid row `row` of the request: its lanes, the links from them and the bytes they use
// are drawn in it, and the key names the row (the legend once showed one blue for all of them).
std::uint32_t row_colour(int row, float alpha = 1.0f) { return row < 0 ? pack(palette::outside) : pack(category(row), alpha); }

// The row whose lanes read sector `sector` (the first lane in it), -1 when none.
int row_of_sector(const WarpLoad& w, const AxisSector& sector) {
    for (int lane = 0; lane < 32; ++lane)
        if (sector.lanes >> lane & 1u) return lane < (int)w.lane_row.size() ? w.lane_row[lane] : -1;
    return -1;
}

// What the axis drew for the sidecar: its labels and the connectors' width.
struct AxisDrawn {
    int lane_labels = 0, address_labels = 0;
    float link_px = 0;
};

// Every `stride`-th of `count` marks labelled, the least stride of 1, 2, 4, 8, 16 whose labels
// (`text_w` wide) fit the marks' spacing with a gap between them.
int label_stride(float spacing, float text_w, float gap, int count) {
    for (int s = 1; s < count; s *= 2)
        if (spacing * s >= text_w + gap) return s;
    return count;
}

// The lanes' numbers in a row at y: every lane's where they fit, else every 2nd, 4th, ... Returns
// how many were drawn.
int lane_numbers(ImDrawList* dl, float x0, float y, float lane_w, ImVec2 lo, ImVec2 hi) {
    const int stride = label_stride(lane_w, fit::TextWidth("30"), ImGui::GetFontSize() * 0.3f, 32);
    int n = 0;
    for (int lane = 0; lane < 32; lane += stride, ++n) {
        const std::string t = std::to_string(lane);
        fit::DrawText(dl, ImVec2(x0 + lane * lane_w + (lane_w - fit::TextWidth(t)) / 2, y),
                      ImGui::GetColorU32(ImGuiCol_Text), t, lo, hi);
    }
    return n;
}

// Each line's first byte under its bracket (the segment's lines end at x_end, line_w apart): the
// first line always, then each whose label has room after the last one drawn (free_x). The very
// first label says the unit. Returns how many were drawn.
int line_addresses(ImDrawList* dl, const AxisSegment& seg, float x_end, float line_w, float y, int drawn_before,
                   float& free_x, ImVec2 lo, ImVec2 hi) {
    int n = 0;
    for (long long line = seg.first_line; line <= seg.last_line; ++line) {
        const float lx = x_end - (float)(seg.last_line - line + 1) * line_w;
        const std::string t = fmt::format("{}{}", drawn_before + n == 0 ? "byte " : "", line * kLineBytes);
        const float tw = fit::TextWidth(t);
        if (lx < free_x || (line > seg.first_line && lx + tw > x_end)) continue;
        fit::DrawText(dl, ImVec2(lx, y), ImGui::GetColorU32(ImGuiCol_Text), t, lo, hi);
        free_x = lx + tw + ImGui::GetFontSize() * 0.6f;
        ++n;
    }
    return n;
}

// One 128-byte line's sectors from x, each filled as far as the lanes use it, and its bracket under
// them. Returns the x after it.
float draw_line(ImDrawList* dl, const WarpLoad& w, const AxisSegment& seg, long long line, float x, float axis_y,
                float axis_h, float line_h, float sector_w) {
    const int per_line = kLineBytes / kSectorBytes;
    const float lx = x;
    for (int k = 0; k < per_line; ++k) {
        const long long index = line * per_line + k;
        const ImVec2 a(x, axis_y), b(x + sector_w - 1, axis_y + axis_h);
        const auto it = std::find_if(seg.sectors.begin(), seg.sectors.end(),
                                     [&](const AxisSector& q) { return q.index == index; });
        dl->AddRect(a, b, IM_COL32(200, 200, 200, 255));
        if (it != seg.sectors.end()) {
            const float used = (float)it->bytes_used / kSectorBytes;
            dl->AddRectFilled(a, ImVec2(a.x + (sector_w - 1) * used, b.y), row_colour(row_of_sector(w, *it)));
            dl->AddRectFilled(ImVec2(a.x + (sector_w - 1) * used, a.y), b, pack(kUnused));
        }
        x += sector_w;
    }
    const ImU32 bracket = IM_COL32(255, 220, 60, 255);
    dl->AddLine(ImVec2(lx, axis_y + axis_h + 2), ImVec2(lx, axis_y + axis_h + line_h), bracket, 2);
    dl->AddLine(ImVec2(lx, axis_y + axis_h + line_h), ImVec2(x - 1, axis_y + axis_h + line_h), bracket, 2);
    dl->AddLine(ImVec2(x - 1, axis_y + axis_h + 2), ImVec2(x - 1, axis_y + axis_h + line_h), bracket, 2);
    return x;
}

// The hovered lane's address, cell, sector and line (the lanes' row starts at p).
void lane_tooltip(const WarpLoad& w, const MemoryAxis& m, ImVec2 p, float lane_w, float lanes_h) {
    const ImVec2 mp = ImGui::GetIO().MousePos;
    const int lane = (int)((mp.x - p.x) / lane_w);
    if (mp.y < p.y + lanes_h && lane >= 0 && lane < 32 && w.lane_offset[lane] >= 0)
        ImGui::SetTooltip("lane %d: byte %lld of the array (cell %lld), sector %lld, line %lld", lane, w.lane_offset[lane],
                          w.lane_offset[lane] / std::max(1, m.size), w.lane_offset[lane] / kSectorBytes,
                          w.lane_offset[lane] / kLineBytes);
}

// `height`: what the picture may take (lecture mode gives it the room; 0: its natural height).
// Above the lanes their numbers, under the sectors the byte each 128-byte line starts at (as many
// as fit), and lane-to-address connectors as thick as the font's strokes: a projector shows none
// of a 1-pixel line.
AxisDrawn memory_axis_view(const WarpLoad& w, const MemoryAxis& m, float width, float height = 0) {
    AxisDrawn drawn;
    const float fs = ImGui::GetFontSize();
    const int per_line = kLineBytes / kSectorBytes;
    int boxes = 0;
    for (const auto& seg : m.segments) boxes += (int)(seg.last_line - seg.first_line + 1) * per_line;
    const float gap = fs * 0.8f;
    const int gaps = std::max(0, (int)m.segments.size() - 1);
    // Given the room (lecture mode), lanes and sectors take the whole width and the links the height.
    const bool room = height > 0;
    const float lane_w = std::max(4.0f, std::min(fs * (room ? 4.0f : 1.4f), width / 33.0f));
    const float sector_w = boxes ? std::clamp((width - gaps * gap - 2) / boxes, 3.0f, fs * (room ? 8.0f : 2.5f)) : 0;
    float lanes_h = room ? std::min(lane_w, fs * 1.5f) : lane_w, link_h = fs * 3, axis_h = fs * (room ? 2.0f : 1.2f);
    const float line_h = fs * 0.5f;
    const float numbers_h = fs * 1.1f;   // the lane numbers' row, above the lanes
    const float address_h = fs * 1.2f;   // the lines' first bytes, under the brackets
    const float fixed_h = numbers_h + lanes_h + axis_h + line_h + address_h + 4;
    if (height > fixed_h + link_h) link_h = height - fixed_h;
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    const ImVec2 p(p0.x, p0.y + numbers_h);  // the lanes' top
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float axis_y = p.y + lanes_h + link_h;
    const ImVec2 lo(p0.x, p0.y), hi(p0.x + std::max(width, 32 * lane_w), p0.y + fixed_h + link_h);
    drawn.lane_labels = lane_numbers(dl, p.x, p0.y, lane_w, lo, hi);
    // Sector boxes and line brackets; remember where each sector's bytes start.
    std::vector<std::vector<float>> sector_x(m.segments.size());
    float x = p.x;
    float free_x = -1e9f;  // where the next address label may start
    for (size_t s = 0; s < m.segments.size(); ++s) {
        const auto& seg = m.segments[s];
        for (long long line = seg.first_line; line <= seg.last_line; ++line)
            x = draw_line(dl, w, seg, line, x, axis_y, axis_h, line_h, sector_w);
        sector_x[s].push_back(x);
        drawn.address_labels += line_addresses(dl, seg, x, sector_w * per_line, axis_y + axis_h + line_h + 2,
                                               drawn.address_labels, free_x, lo, hi);
        if (s + 1 < m.segments.size()) {  // a break: the next lines are elsewhere in memory
            dl->AddLine(ImVec2(x + gap * 0.3f, axis_y + axis_h + 2), ImVec2(x + gap * 0.5f, axis_y - 2), IM_COL32(230, 230, 230, 255));
            dl->AddLine(ImVec2(x + gap * 0.5f, axis_y + axis_h + 2), ImVec2(x + gap * 0.7f, axis_y - 2), IM_COL32(230, 230, 230, 255));
            x += gap;
        }
    }
    // Where a byte offset sits on the drawn axis.
    auto axis_x = [&](long long offset) {
        float x0 = p.x;
        for (const auto& seg : m.segments) {
            const float seg_w = (float)(seg.last_line - seg.first_line + 1) * per_line * sector_w;
            if (offset >= seg.first_byte() && offset < seg.end_byte())
                return x0 + (float)(offset - seg.first_byte()) / kSectorBytes * sector_w;
            x0 += seg_w + gap;
        }
        return -1.0f;
    };
    // Lanes, coloured by the grid row they read, each joined to its address.
    drawn.link_px = std::max(2.0f, fs * 0.12f);
    for (int lane = 0; lane < 32; ++lane) {
        const ImVec2 a(p.x + lane * lane_w, p.y);
        const int row = w.lane_row[lane];
        dl->AddRectFilled(a, ImVec2(a.x + lane_w - 1, a.y + lanes_h), row_colour(row));
        const long long o = lane < (int)m.lane_offset.size() ? m.lane_offset[lane] : -1;
        if (o < 0) continue;
        const float ax = axis_x(o) + sector_w * m.size / (2.0f * kSectorBytes);
        dl->AddLine(ImVec2(a.x + lane_w * 0.5f, a.y + lanes_h), ImVec2(ax, axis_y), row_colour(row, 0.85f),
                    drawn.link_px);
    }
    const float total_w = std::max(32 * lane_w, x - p.x);
    ImGui::Dummy(ImVec2(total_w, fixed_h + link_h));
    if (ImGui::IsItemHovered()) lane_tooltip(w, m, p, lane_w, lanes_h);
    return drawn;
}

// The key: one swatch per grid row the request reads (the colour of its lanes and of the bytes they
// use), the fetched bytes nobody uses, the line bracket. `ny`: the grid's rows per plane.
void memory_axis_legend(const WarpLoad& w, int ny) {
    std::vector<std::string> names;
    for (size_t r = 0; r < w.row_id.size(); ++r)
        names.push_back(fmt::format("row y={}, z={}", w.row_id[r] % std::max(1, ny), w.row_id[r] / std::max(1, ny)));
    std::vector<std::pair<std::uint32_t, const char*>> items;
    for (size_t r = 0; r < names.size(); ++r) items.push_back({row_colour((int)r), names[r].c_str()});
    items.push_back({pack(kUnused), "fetched, unused"});
    items.push_back({pack({1.0f, 0.86f, 0.24f}), "bracket: one 128-byte line"});
    Swatches(items);
    HelpMarker("Top: the warp's 32 lanes, each in the colour of the grid row it reads. Below: memory, one box per "
               "32-byte sector of the lines the request touches, the bytes the lanes use in their row's colour; a "
               "lane's line ends at its address. The memory system moves whole sectors: sectors per request = boxes "
               "with any colour; efficiency = bytes used / (sectors x 32). A break (//) means the next line is far "
               "away in memory.");
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
        (*app.drawn)["coalescing"] = {{"warp", e.warp}, {"requests", e.warp_loads.size()},
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
        const MemoryAxis m = memory_axis(w);
        fit::Wrapped(fmt::format("{}: {} lanes, {} rows; {} sectors per request (fewest possible {}), {} lines, "
                                 "{:.0f}% of the fetched bytes used",
                                 w.label, w.lanes, w.rows, m.sectors, m.ideal_sectors, m.lines, 100 * m.efficiency));
        memory_axis_legend(w, e.trace.cfg.dims.ny);
        fit::BeginFigure();
        const AxisDrawn axis = memory_axis_view(w, m, ImGui::GetContentRegionAvail().x);
        fit::EndFigure();
        if (app.recording)
            (*app.drawn)["coalescing_axis"] = {{"lane_labels", axis.lane_labels}, {"address_labels", axis.address_labels},
                                                {"link_px", axis.link_px}, {"request", w.label}, {"lanes", m.lanes}, {"sectors", m.sectors},
                                            {"lines", m.lines}, {"segments", m.segments.size()},
                                            {"ideal_sectors", m.ideal_sectors}, {"efficiency", m.efficiency},
                                            {"rows", w.rows}, {"legend_rows", w.row_id.size()}};
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

// Lecture mode: one request of one warp, as large as the window allows; Left / Right choose the
// warp, Up / Down the request, the status line says the rest.
void draw_coalescing_lecture(App& app) {
    auto& e = app.exp;
    const auto& t = e.trace;
    if (ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows) && !ImGui::GetIO().WantTextInput) {
        const int warps = warps_in_block(t.geo.block);
        if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_RightArrow))) app.set_warp(std::min(warps - 1, e.warp + 1));
        if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_LeftArrow))) app.set_warp(std::max(0, e.warp - 1));
        const int requests = (int)e.warp_loads.size();
        if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_DownArrow))) e.request = std::min(requests - 1, e.request + 1);
        if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_UpArrow))) e.request = std::max(0, e.request - 1);
    }
    app.ui.status = {fmt::format("{} T={}, block ({}, {}, {})", version(t.cfg.kernel).name, t.cfg.tile, t.cfg.block.x,
                                 t.cfg.block.y, t.cfg.block.z),
                     fmt::format("warp {} of {}, request {} of {}", e.warp, warps_in_block(t.geo.block), e.request + 1,
                                 e.warp_loads.size()),
                     fmt::format("the model: {:g} sectors", e.prediction.sectors), "Left / Right: warp",
                     "Up / Down: request"};
    if (e.request >= (int)e.warp_loads.size()) {
        fit::Wrapped(fmt::format("warp {} makes no global request", e.warp));
        return;
    }
    const auto& w = e.warp_loads[e.request];
    const MemoryAxis m = memory_axis(w);
    fit::BeginFigure();
    fit::Wrapped(fmt::format("warp {}, {}: {} lanes in {} row{}: {} sectors (fewest possible {}), {} line{}, {:.0f}% of "
                             "the fetched bytes used",
                             e.warp, w.label, w.lanes, w.rows, w.rows == 1 ? "" : "s", m.sectors, m.ideal_sectors,
                             m.lines, m.lines == 1 ? "" : "s", 100 * m.efficiency));
    memory_axis_legend(w, t.cfg.dims.ny);
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const AxisDrawn axis = memory_axis_view(w, m, avail.x, avail.y);
    fit::EndFigure();
    if (app.recording)
        (*app.drawn)["coalescing_axis"] = {{"lane_labels", axis.lane_labels}, {"address_labels", axis.address_labels},
                                                {"link_px", axis.link_px}, {"request", w.label}, {"lanes", m.lanes}, {"sectors", m.sectors},
                                        {"lines", m.lines}, {"segments", m.segments.size()},
                                        {"ideal_sectors", m.ideal_sectors}, {"efficiency", m.efficiency},
                                        {"rows", w.rows}, {"legend_rows", w.row_id.size()}};
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
    if (app.ui.lecture) {
        draw_coalescing_lecture(app);
        if (app.recording)
            (*app.drawn)["coalescing"] = {{"warp", e.warp}, {"requests", e.warp_loads.size()},
                                       {"model_sectors", e.prediction.sectors},
                                       {"trace_sectors", e.warp_summary.sectors_per_request}, {"gpu", false}};
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
