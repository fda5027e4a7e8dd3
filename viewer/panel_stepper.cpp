// [SECTION] Stepper panel: choose a kernel, tile and block; step through the block's real
// execution (the CPU backend's trace) barrier interval by barrier interval, with the kernel's
// source lines of the current interval highlighted, the tile's cells loaded so far, active and
// idle threads, and running counts against the model.
#include <fmt/format.h>

#include <algorithm>

#include "viewer/core/colormap.h"
#include "viewer/fit.h"
#include "viewer/panels.h"

namespace stencil::viewer {

namespace {

void controls(App& app) {
    StepperConfig c = app.exp.cfg;
    bool changed = false;
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9);
    if (ImGui::BeginCombo("kernel", version(c.kernel).name)) {
        for (const auto& v : kernel_versions())
            if (ImGui::Selectable(v.name, v.id == c.kernel)) {
                c.kernel = v.id;
                c.tile = std::min(v.default_tile, 8);
                changed = true;
            }
        ImGui::EndCombo();
    }
    HelpMarker("naive -> tiled -> coarsened -> register-tiled: the textbook's four versions (kernels/versions.h).");
    fit::SameLineIfFits(fit::LabeledWidth(ImGui::GetFontSize() * 4, "T"));
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 4);
    if (ImGui::BeginCombo("T", std::to_string(c.tile).c_str())) {
        for (int t : app.exp.runnable)
            if (ImGui::Selectable(std::to_string(t).c_str(), t == c.tile)) c.tile = t, changed = true;
        ImGui::EndCombo();
    }
    HelpMarker("Tile edge T: IN_TILE_DIM (block edge for naive). Only the T that fit the hardware rules and are "
               "compiled into this build are listed (tile_error in kernels/versions.h says why others are not).");
    fit::SameLineIfFits(fit::LabeledWidth(ImGui::GetFontSize() * 5, "r"));
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5);
    static int r_pending = 1;  // on release, like the block
    if (!ImGui::IsAnyItemActive()) r_pending = c.radius;
    ImGui::SliderInt("r", &r_pending, 1, kMaxRadius);
    if (ImGui::IsItemDeactivatedAfterEdit()) c.radius = r_pending, changed = true;
    int prec = c.precision == Precision::f32 ? 0 : 1;
    fit::SameLineIfFits(fit::CheckWidth("f32"));
    bool pc = ImGui::RadioButton("f32", &prec, 0);
    fit::SameLineIfFits(fit::CheckWidth("f64"));
    pc |= ImGui::RadioButton("f64", &prec, 1);
    if (pc) {
        c.precision = prec == 0 ? Precision::f32 : Precision::f64;
        changed = true;
    }
    int n[3] = {c.dims.nx, c.dims.ny, c.dims.nz};
    fit::SameLineIfFits(fit::LabeledWidth(ImGui::GetFontSize() * 9, "grid"));
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9);
    if (ImGui::InputInt3("grid", n, ImGuiInputTextFlags_EnterReturnsTrue)) {
        c.dims = {std::clamp(n[0], 3, 256), std::clamp(n[1], 3, 256), std::clamp(n[2], 3, 256)};
        changed = true;
    }
    HelpMarker("Grid nx x ny x nz (x fastest). The whole grid runs on the CPU backend; only the chosen block is "
               "recorded. Press Enter to apply.");
    const auto& g = app.exp.trace.geo;
    // Applied on release: each change re-traces the whole grid, so a drag must not re-trace
    // every frame. While dragging, the slider shows the pending value.
    static int b[3];
    static bool dragging = false;
    if (!dragging) b[0] = c.block.x, b[1] = c.block.y, b[2] = c.block.z;
    fit::SameLineIfFits(fit::LabeledWidth(ImGui::GetFontSize() * 12, "block"));
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 12);
    ImGui::SliderInt3("block", b, 0, std::max({g.grid.x, g.grid.y, g.grid.z, 1}) - 1);
    dragging = ImGui::IsItemActive();
    if (ImGui::IsItemDeactivatedAfterEdit()) {
        c.block = {b[0], b[1], b[2]};
        changed = true;
    }
    HelpMarker("blockIdx (x, y, z) of the block to record. Blocks at the faces load only the in-grid part "
               "of their tile and have threads that do nothing.");
    if (changed) app.set_config(c);  // re-traces once, on this change only
}

void step_controls(App& app) {
    const auto& t = app.exp.trace;
    const auto& s = app.exp.state;
    int step = app.exp.step;
    auto button = [&](const char* label, int to) {
        fit::SameLineIfFits(fit::ButtonWidth(label));
        if (ImGui::Button(label)) step = to;
    };
    if (ImGui::Button("|<")) step = 0;
    button("< interval", prev_interval_step(t, step));
    button("< instr", step - 1);
    button("instr >", step + 1);
    button("interval >", next_interval_step(t, step));
    button(">|", t.last_step());
    if (ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows) && !ImGui::GetIO().WantTextInput) {
        // ImGui 1.86: IsKeyPressed takes the backend's key index, which GetKeyIndex maps an
        // ImGuiKey_ to (passing ImGuiKey_Space itself reads an unrelated slot: nothing stepped).
        static const std::pair<ImGuiKey, StepKey> keys[] = {
            {ImGuiKey_Space, StepKey::space}, {ImGuiKey_RightArrow, StepKey::right}, {ImGuiKey_LeftArrow, StepKey::left},
            {ImGuiKey_DownArrow, StepKey::down}, {ImGuiKey_UpArrow, StepKey::up},   {ImGuiKey_Home, StepKey::home},
            {ImGuiKey_End, StepKey::end}};
        for (const auto& [k, action] : keys)
            if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(k))) step = step_for_key(t, step, action);
    }
    if (step != app.exp.step) app.set_step(step);
    const std::string where = s.interval < 0 ? fmt::format("before the launch (step 0 of {})", t.last_step())
                                             : fmt::format("interval {} of {}, instruction {}  (step {} of {})",
                                                           s.interval + 1, t.intervals, s.sub + 1, app.exp.step,
                                                           t.last_step());
    fit::SameLineIfFits(fit::TextWidth(where));
    fit::Wrapped(where);
    HelpMarker("A barrier interval is the code between two __syncthreads(). An instruction step is every thread's "
               "next traced load or store in that interval. Keys: space or right = next interval, left = previous, "
               "down / up = one instruction, Home / End.");
}

void source_view(App& app) {
    const auto& src = app.exp.source;
    if (!src.error.empty()) {
        fit::Wrapped(src.error);
        return;
    }
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    fit::Wrapped(src.path);
    ImGui::PopStyleColor();
    // Code lines wrap at the panel's edge (a projector cannot scroll sideways), indented under
    // their first line; the line number stays in its own column.
    ImGui::BeginChild("source", ImVec2(0, 0), true);
    const float num_w = fit::TextWidth("0000");
    static int last_first = -1;
    const int first_hl = app.exp.lines.empty() ? -1 : app.exp.lines.front().first;
    for (int i = std::max(0, src.body_first - 1); i < (int)src.lines.size(); ++i) {
        bool hl = false;
        for (const auto& r : app.exp.lines) hl = hl || r.contains(i);
        const bool barrier = std::find(src.barriers.begin(), src.barriers.end(), i) != src.barriers.end();
        const ImVec2 p = ImGui::GetCursorScreenPos();
        const float text_w = std::max(ImGui::GetFontSize(), ImGui::GetContentRegionAvail().x - num_w);
        const float line_h = ImGui::CalcTextSize(src.lines[i].c_str(), nullptr, false, text_w).y;
        if (hl)
            ImGui::GetWindowDrawList()->AddRectFilled(
                p, ImVec2(p.x + ImGui::GetContentRegionAvail().x, p.y + line_h + ImGui::GetStyle().ItemSpacing.y),
                IM_COL32(60, 80, 30, 255));
        fit::Disabled(fmt::format("{:>3}", i + 1));
        ImGui::SameLine(num_w);
        if (barrier) ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.55f, 0.35f, 1));
        fit::Wrapped(src.lines[i]);
        if (barrier) ImGui::PopStyleColor();
        if (i == first_hl && first_hl != last_first) ImGui::SetScrollHereY(0.15f);
    }
    last_first = first_hl;
    fit::CheckWindow("source");
    ImGui::EndChild();
}

std::uint32_t cell_colour(const App& app, int x, int y, int z) {
    const auto& t = app.exp.trace;
    const auto& s = app.exp.state;
    const GridDims d = t.cfg.dims;
    if (x < 0 || y < 0 || z < 0 || x >= d.nx || y >= d.ny || z >= d.nz) return pack(palette::outside);
    const int i = t.box.index(x, y, z);
    if (s.written[i]) return pack(palette::output);
    if (s.loads[i] >= 2) return pack(palette::reloaded);
    if (s.loads[i] == 1) return pack(palette::loaded);
    return pack(palette::idle);
}

void tile_view(App& app) {
    const auto& t = app.exp.trace;
    const auto& s = app.exp.state;
    const Box& b = t.box;
    fit::Wrapped(fmt::format("Input region of block ({}, {}, {}): x {}..{}, y {}..{}, z {}..{}", t.cfg.block.x,
                             t.cfg.block.y, t.cfg.block.z, b.x0, b.x0 + b.nx - 1, b.y0, b.y0 + b.ny - 1, b.z0,
                             b.z0 + b.nz - 1));
    HelpMarker("Each square is one input cell of the grid, seen as z-slices (x right, y up). Colours: loaded from "
               "global memory once, loaded again (naive: neighbours re-read by other threads), output written, "
               "beyond the grid.");
    Swatches({{pack(palette::idle), "not loaded yet"},
              {pack(palette::loaded), "loaded once"},
              {pack(palette::reloaded), "loaded again"},
              {pack(palette::output), "output written"},
              {pack(palette::outside), "beyond the grid"}});

    const float fs = ImGui::GetFontSize();
    const float avail = ImGui::GetContentRegionAvail().x;
    const int n = b.nz;
    // A column holds a plane's grid and its label ("z=12 next: smem+reg"), whichever is wider: the
    // labels were clipped when only the grid's width was counted.
    const float gap = ImGui::GetStyle().ItemSpacing.x;
    const float label_w = ImGui::CalcTextSize(s.planes.empty() ? "z=000" : "z=000 prev2: smem+reg").x;
    // Cells grow with the font (at least 0.45 of its height): a projector shows them.
    const float min_cell = fs * 0.45f;
    int cols = std::max(1, std::min(n, (int)((avail + gap) / (std::max(label_w, b.nx * min_cell + 2) + gap))));
    const float cell = std::clamp(((avail + gap) / cols - gap - 2) / b.nx, min_cell, fs * 1.2f);
    for (int k = 0; k < n; ++k) {
        const int z = b.z0 + k;
        if (k % cols) fit::SameLineIfFits(std::max(label_w, b.nx * cell + 2));
        ImGui::BeginGroup();
        std::string tag = fmt::format("z={}", z);
        std::uint32_t border = 0;
        for (const auto& p : s.planes)
            if (p.z == z) {
                const char* role = p.dz < 0 ? "prev" : p.dz == 0 ? "curr" : "next";
                tag = fmt::format("z={} {}{}: {}", z, role, std::abs(p.dz) > 1 ? std::to_string(std::abs(p.dz)) : "",
                                  p.in_shared && p.in_registers ? "smem+reg" : p.in_shared ? "smem" : "regs");
                border = p.in_shared ? pack({1.0f, 0.85f, 0.2f}) : pack({0.85f, 0.45f, 0.95f});
            }
        fit::Text(tag);
        const auto hit = DrawCellGrid(fmt::format("##z{}", k).c_str(), b.nx, b.ny, cell,
                                      [&](int x, int y) { return cell_colour(app, b.x0 + x, b.y0 + y, z); }, border);
        if (hit.hx >= 0) {
            const int i = b.index(b.x0 + hit.hx, b.y0 + hit.hy, z);
            ImGui::SetTooltip("cell (%d, %d, %d): loaded %d time(s)%s", b.x0 + hit.hx, b.y0 + hit.hy, z, s.loads[i],
                              s.written[i] ? ", output written" : "");
        }
        ImGui::EndGroup();
    }
    if (!s.planes.empty()) {
        Swatches({{pack({1.0f, 0.85f, 0.2f}), "frame: plane read from shared memory"},
                  {pack({0.85f, 0.45f, 0.95f}), "frame: plane held in registers"}});
        HelpMarker("Where each of the 2r+1 input planes of the output plane in flight lives, from the trace: the "
                   "planes the compute reads from the __shared__ array (coarsened: all of them) or not at all "
                   "(register-tiled: z-neighbours come from each thread's register queue z_reg).");
    }
}

void thread_view(App& app) {
    const auto& t = app.exp.trace;
    const auto& s = app.exp.state;
    const Dim3 bd = t.geo.block;
    fit::Wrapped(fmt::format("Threads of the block ({} x {} x {}): {} active, {} idle in this interval", bd.x, bd.y,
                             bd.z, s.active_threads, s.idle_threads));
    HelpMarker("Active: the thread loaded or stored in the current interval so far; computing: it wrote its output; "
               "idle: it did nothing (the tiled kernel's halo threads after the barrier: they only load). Threads "
               "whose cell lies beyond the grid are dark.");
    Swatches({{pack(palette::idle), "idle"}, {pack(palette::loaded), "active"}, {pack(palette::output), "computing"}});
    const float fs = ImGui::GetFontSize(), avail = ImGui::GetContentRegionAvail().x;
    const float gap = ImGui::GetStyle().ItemSpacing.x, label_w = fit::TextWidth("tz=00");
    const float min_cell = std::min(fs * 0.45f, (avail - 2) / bd.x);  // with the font, unless the block is wider
    const int cols = std::max(1, std::min(bd.z, (int)((avail + gap) / (std::max(label_w, bd.x * min_cell + 2) + gap))));
    const float cell = std::clamp(((avail + gap) / cols - gap - 2) / bd.x, min_cell, fs * 0.9f);
    for (int tz = 0; tz < bd.z; ++tz) {
        if (tz % cols) fit::SameLineIfFits(std::max(label_w, bd.x * cell + 2));
        ImGui::BeginGroup();
        fit::Text(fmt::format("tz={}", tz));
        DrawCellGrid(fmt::format("##t{}", tz).c_str(), bd.x, bd.y, cell, [&](int x, int y) {
            const int th = (tz * bd.y + y) * bd.x + x;
            switch (s.threads[th]) {
                case ThreadState::outside: return pack(palette::outside);
                case ThreadState::idle: return pack(palette::idle);
                case ThreadState::active: return pack(palette::loaded);
                case ThreadState::computing: return pack(palette::output);
            }
            return pack(palette::idle);
        });
        ImGui::EndGroup();
    }
}

void counts_view(App& app) {
    const auto& t = app.exp.trace;
    const auto& s = app.exp.state;
    const auto& m = t.model;
    // Columns sized to their contents (a count is never cut); bands when the panel is narrow.
    const std::vector<fit::Column> cols = {
        {"count", ""}, {"so far", ""}, {"whole block (trace)", ""}, {"model, interior block", ""}};
    std::vector<std::vector<fit::Cell>> rows;
    auto row = [&](const char* name, double now, double total, double model, const char* formula) {
        fit::Cell m;
        if (model < 0) m = {"-", ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled)};
        else if (model == total) m = {fmt::format("{:.0f}  (= trace)", model), ImVec4(0.4f, 0.9f, 0.5f, 1)};
        else m = {fmt::format("{:.0f}", model)};
        rows.push_back({{std::string(name) + " (?)", {}, formula},
                        {fmt::format("{:.0f}", now)},
                        {fmt::format("{:.0f}", total)},
                        m});
    };
    const double fpo = m.flops_per_output;
    row("global loads", s.global_loads, t.totals.global_loads, m.global_loads,
        "Values read from global memory. Model: naive (6r+1) per output; tiled T^3 per block; z-marching T^2 per "
        "plane for OUT + 2r planes = T^3.");
    row("shared loads", s.shared_loads, t.totals.shared_loads, version(m.kernel).shared == SharedTile::none ? -1 : m.shared_loads,
        "Reads of __shared__ cells. Model: tiled (6r+1) per output; coarsened (6r+1) per output plus the 2r-plane "
        "shift per plane; register-tiled 4r per output (x and y neighbours only).");
    row("shared stores", s.shared_stores, t.totals.shared_stores, version(m.kernel).shared == SharedTile::none ? -1 : m.shared_stores,
        "Writes of __shared__ cells: the collaborative loads (and the coarsened kernel's plane shift).");
    row("global stores", s.global_stores, t.totals.global_stores, m.global_stores,
        "Outputs written: (T-2r)^3 for an interior tiled block (T^3 for naive).");
    row("FLOPs", s.flops, t.outputs * fpo, m.global_stores * fpo,
        "outputs x (12r + 1): 6r + 1 multiplies and 6r adds (13 for the 7-point stencil).");
    row("global load bytes", (double)s.global_load_bytes, (double)t.totals.global_load_bytes,
        (double)m.global_loads * bytes_of(m.precision), "global loads x sizeof(real).");
    fit::Table("counts", cols, rows, 1);
    const double opb_now = s.global_load_bytes > 0 ? s.flops / s.global_load_bytes : 0;
    ValueWithHelp("OP/B so far:", fmt::format("{:.3f}  (model {:.3f})", opb_now, m.opb),
                  "FLOPs so far / global load bytes so far; the model is an interior block's "
                  "(12r+1) x outputs / (global loads x bytes). A block at a face loads and computes less.");
}

}  // namespace

bool trace_status(App& app) {
    const auto pending = app.exp.tracer.pending();
    const bool none = app.exp.trace.steps.empty() && app.exp.trace.ok();
    if (!pending) return none;
    const auto& c = *pending;
    const char* spin = "|/-\\";
    const double sec = app.exp.tracer.busy_seconds();
    const std::string line = fmt::format("{} tracing {} T={} r={} {}, {} x {} x {}, block ({}, {}, {})... {:.1f} s",
                                         spin[(int)(sec * 8) % 4], version(c.kernel).name, c.tile, c.radius,
                                         to_string(c.precision), c.dims.nx, c.dims.ny, c.dims.nz, c.block.x, c.block.y,
                                         c.block.z, sec);
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.8f, 0.3f, 1));
    fit::Wrapped(line);
    ImGui::PopStyleColor();
    if (!none) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        fit::Wrapped("(showing the previous trace until it is ready)");
        ImGui::PopStyleColor();
    }
    if (app.recording) app.drawn["tracing"] = true;
    return none;
}

void draw_stepper_panel(App& app) {
    controls(app);
    if (trace_status(app)) return;
    const auto& t = app.exp.trace;
    if (!t.ok()) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 0.5f, 0.4f, 1));
        fit::Wrapped(t.error);
        ImGui::PopStyleColor();
        if (app.recording) app.drawn["stepper"] = {{"error", t.error}};
        return;
    }
    step_controls(app);
    auto block_view = [&] {
        counts_view(app);
        ImGui::Separator();
        tile_view(app);
        ImGui::Separator();
        thread_view(app);
        fit::CheckWindow("block view");
    };
    const float fs = ImGui::GetFontSize();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    if (avail.x >= fs * 45) {  // the source beside the block
        if (ImGui::BeginTable("stepper", 2, ImGuiTableFlags_Resizable | ImGuiTableFlags_BordersInnerV)) {
            ImGui::TableSetupColumn("source", ImGuiTableColumnFlags_WidthStretch, 0.42f);
            ImGui::TableSetupColumn("block", ImGuiTableColumnFlags_WidthStretch, 0.58f);
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            source_view(app);
            ImGui::TableNextColumn();
            ImGui::BeginChild("blockview");
            block_view();
            ImGui::EndChild();
            ImGui::EndTable();
        }
    } else {  // narrow (a projector's font in a small window): the source above the block
        ImGui::BeginChild("sourcepane", ImVec2(0, std::max(fs * 8, avail.y * 0.4f)));
        source_view(app);
        ImGui::EndChild();
        ImGui::BeginChild("blockview");
        block_view();
        ImGui::EndChild();
    }
    if (app.recording) {
        const auto& s = app.exp.state;
        int planes_reg = 0, planes_smem = 0;
        for (const auto& p : s.planes) planes_reg += p.in_registers, planes_smem += p.in_shared;
        app.drawn["stepper"] = {{"kernel", version(t.cfg.kernel).name}, {"tile", t.cfg.tile},
                                {"radius", t.cfg.radius}, {"precision", to_string(t.cfg.precision)},
                                {"step", app.exp.step}, {"last_step", t.last_step()}, {"interval", s.interval},
                                {"intervals", t.intervals}, {"global_loads", s.global_loads},
                                {"global_stores", s.global_stores}, {"active_threads", s.active_threads},
                                {"idle_threads", s.idle_threads}, {"planes_in_registers", planes_reg},
                                {"planes_in_shared", planes_smem}, {"source_lines", app.exp.source.lines.size()}};
    }
}

}  // namespace stencil::viewer
