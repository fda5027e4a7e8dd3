// [SECTION] Stepper panel: choose a kernel (the lab's, or a student's file), tile and block; step
// through the block's real execution (the CPU backend's trace) an instruction, a source line or a
// barrier interval at a time, with the current line marked in the kernel and in the textbook's
// listing, the tile's cells loaded so far (hover: by whom, when), the shared array, active and
// idle threads (click: a thread's loads and stores), and running counts against the model.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>

#include "checker/exercises.h"
#include "viewer/core/colormap.h"
#include "viewer/core/layout.h"
#include "viewer/fit.h"
#include "viewer/panels.h"

namespace stencil::viewer {

namespace {

// A student's .cu and the exercise whose contract it follows, run on the CPU engine in the
// checker's child process (viewer/core/student_trace.h). File > Open (frame.cpp) hands its file to
// the same config; the box then shows it.
void student_file_controls(StepperConfig& c, bool& changed) {
    static char path[512] = "";
    static int exercise = -1;
    static std::string shown;  // the config's file the box last took (File > Open, --kernel-file)
    static std::vector<std::string> names;
    if (names.empty())
        for (const auto& e : checker::exercises())
            if (e.is_star3d()) names.push_back(e.name);
    if (exercise < 0 || c.kernel_file != shown) {
        shown = c.kernel_file;
        if (!c.exercise.empty()) std::snprintf(path, sizeof path, "%s", c.kernel_file.c_str());
        const auto it = std::find(names.begin(), names.end(), c.exercise);
        if (exercise < 0 || it != names.end()) exercise = it == names.end() ? 0 : (int)(it - names.begin());
    }
    // Folded by default: the lab's kernels are what a lecture starts with (and a projector's
    // font leaves few rows for controls).
    if (!ImGui::TreeNode("a student's kernel")) return;
    const float fs = ImGui::GetFontSize();
    ImGui::SetNextItemWidth(std::min(fs * 16, ImGui::GetContentRegionAvail().x - fit::TextWidth("student's file") - fs));
    ImGui::InputText("student's file", path, sizeof path);
    fit::SameLineIfFits(fit::LabeledWidth(fs * 9, "exercise"));
    ImGui::SetNextItemWidth(fs * 9);
    if (ImGui::BeginCombo("exercise", names.empty() ? "" : names[exercise].c_str())) {
        for (int i = 0; i < (int)names.size(); ++i)
            if (ImGui::Selectable(names[i].c_str(), i == exercise)) exercise = i;
        ImGui::EndCombo();
    }
    fit::SameLineIfFits(fit::ButtonWidth("step it"));
    if (ImGui::Button("step it") && path[0] && !names.empty()) {
        c.kernel_file = path;
        c.exercise = names[exercise];
        changed = true;
    }
    HelpMarker("A student's kernel (FILE.cu for an exercise, as `stencil-lab check` takes it): compiled with NVRTC "
               "and run on the CPU engine by the checker's runner in a child process, so a crash or an endless loop "
               "ends that process, not the viewer. Stepped like the lab's kernels, beside the exercise's textbook "
               "listing. Choosing a kernel above goes back to the lab's. File > Open kernel... chooses a file too.");
    ImGui::TreePop();
}

// Long because it draws the stepper's controls top to bottom (ImGui's immediate mode), one widget a
// few lines.
void controls(App& app) {
    StepperConfig c = app.exp.cfg;
    bool changed = false;
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9);
    if (ImGui::BeginCombo("kernel", version(c.kernel).name)) {
        for (const auto& v : kernel_versions())
            if (ImGui::Selectable(v.name, v.id == c.kernel)) {
                c.kernel = v.id;
                c.tile = std::min(v.default_tile, 8);
                c.kernel_file.clear();  // back to the lab's kernels
                c.exercise.clear();
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
    if (version(c.kernel).takes_block) {  // naive: the printed T^3 block against the coalescing cure
        const std::string shown = c.block_shape ? fmt::format("{}x{}x{}", c.block_shape->x, c.block_shape->y,
                                                              c.block_shape->z)
                                                : threads_formula(c.kernel);  // the row's own shape
        fit::SameLineIfFits(fit::LabeledWidth(ImGui::GetFontSize() * 6, "block shape"));
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
        if (ImGui::BeginCombo("block shape", shown.c_str())) {
            if (ImGui::Selectable(threads_formula(c.kernel).c_str(), !c.block_shape)) c.block_shape.reset(), changed = true;
            for (const char* b : {"8x8x8", "32x4x2"})
                if (ImGui::Selectable(b, shown == b)) c.block_shape = parse_block(b), changed = true;
            ImGui::EndCombo();
        }
        HelpMarker("Threads per block of the naive kernel: T^3 (the textbook's 8x8x8 at T = 8: a warp spans 4 rows "
                   "of 8 cells) or 32x4x2 (a warp is one row of 32 cells: whole sectors). The coalescing panel "
                   "shows the difference.");
    }
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
    student_file_controls(c, changed);
    if (changed) app.set_config(c);  // re-traces once, on this change only
}

// The stepper's keys (the controls' buttons, and all there is in lecture mode): space / right next
// interval, left previous, down / up one stop at the zoom, Home / End, Z the next zoom.
void step_keys(App& app) {
    if (!ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows) || ImGui::GetIO().WantTextInput) return;
    const auto& t = app.exp.trace;
    int step = app.exp.step;
    // ImGui 1.86: IsKeyPressed takes the backend's key index, which GetKeyIndex maps an
    // ImGuiKey_ to (passing ImGuiKey_Space itself reads an unrelated slot: nothing stepped).
    static const std::pair<ImGuiKey, StepKey> keys[] = {
        {ImGuiKey_Space, StepKey::space}, {ImGuiKey_RightArrow, StepKey::right}, {ImGuiKey_LeftArrow, StepKey::left},
        {ImGuiKey_DownArrow, StepKey::down}, {ImGuiKey_UpArrow, StepKey::up},   {ImGuiKey_Home, StepKey::home},
        {ImGuiKey_End, StepKey::end}};
    for (const auto& [k, action] : keys)
        if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(k))) step = step_for_key(t, step, action, app.exp.zoom);
    if (LetterPressed('Z')) app.exp.zoom = (StepZoom)(((int)app.exp.zoom + 1) % 3);
    if (step != app.exp.step) app.set_step(step);
}

void step_controls(App& app) {
    const auto& t = app.exp.trace;
    const auto& s = app.exp.state;
    int step = app.exp.step;
    const StepZoom zoom = app.exp.zoom;
    auto button = [&](const char* label, int to) {
        fit::SameLineIfFits(fit::ButtonWidth(label));
        if (ImGui::Button(label)) step = to;
    };
    if (ImGui::Button("|<")) step = 0;
    button("< interval", prev_interval_step(t, step));
    button("< step", prev_stop(t, step, zoom));
    button("step >", next_stop(t, step, zoom));
    button("interval >", next_interval_step(t, step));
    button(">|", t.last_step());
    // What one step is: an instruction of the block, a source line, or a barrier interval.
    int z = (int)zoom;
    const char* names[] = {"instruction", "line", "interval"};
    fit::SameLineIfFits(fit::TextWidth("step ="));
    fit::Text("step =");
    for (int i = 0; i < 3; ++i) {
        fit::SameLineIfFits(fit::CheckWidth(names[i]));
        ImGui::RadioButton(names[i], &z, i);
    }
    HelpMarker("One step forward or back: one instruction of the block (the threads that executed one PTX load or "
               "store together), all the instructions of one source line, or a whole barrier interval.");
    app.exp.zoom = (StepZoom)z;
    if (step != app.exp.step) app.set_step(step);
    step_keys(app);
    std::string where = s.interval < 0 ? fmt::format("before the launch (step 0 of {})", t.last_step())
                                       : fmt::format("interval {} of {}, instruction {}  (step {} of {})",
                                                     s.interval + 1, t.intervals, s.sub + 1, app.exp.step,
                                                     t.last_step());
    fit::SameLineIfFits(fit::TextWidth(where));
    fit::Wrapped(where);
    if (app.exp.where.known()) {
        const Step& st = t.steps[app.exp.step];
        fit::Wrapped(fmt::format("line {} of {}: {} by {} thread{}", app.exp.where.line, app.exp.where.file,
                                 app.exp.where.instruction, st.threads, st.threads == 1 ? "" : "s"));
    }
    HelpMarker("A barrier interval is the code between two __syncthreads(). An instruction is one PTX load or store "
               "and the threads of the block that executed it together; its line comes from the PTX's .loc "
               "(NVRTC's -lineinfo). Keys: space or right = next interval, left = previous, down / up = one step at "
               "the chosen size, Home / End.");
}

// What a listing marks: the current instruction's line (bright), the current interval's lines
// (dim), a line chosen by a click in the PTX beside it (blue), and under each line the block's
// counts there (source beside PTX). Lines are 0-based.
struct ListingMarks {
    int current = -1;
    std::vector<LineRange> interval;
    int linked = -1;
    const std::map<int, LineCounts>* counts = nullptr;  // by 1-based line
    bool figure = false;  // the current line is part of the panel's figure (the lab's listing)
};

// "global: 7 loads, 1 store; shared: 6 loads; 13 FLOPs" for one line's counts ("" when none).
std::string counts_text(const LineCounts& c) {
    std::vector<std::string> parts;
    auto add = [&](long long n, const char* what) {
        if (n) parts.push_back(fmt::format("{} {}", n, what));
    };
    add(c.global_loads, "global loads");
    add(c.global_stores, "global stores");
    add(c.shared_loads, "shared loads");
    add(c.shared_stores, "shared stores");
    if (c.flops > 0) parts.push_back(fmt::format("{:.0f} FLOPs", c.flops));
    if (!c.flops_known) parts.push_back("FLOPs not counted");
    std::string s;
    for (const auto& p : parts) s += (s.empty() ? "" : ", ") + p;
    return s;
}

// One listing. Returns the line a click chose (0-based), -1 when none.
int listing_view(const char* id, const KernelSource& src, const ListingMarks& m) {
    if (!src.error.empty()) {
        fit::Wrapped(src.error);
        return -1;
    }
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    fit::Wrapped(src.name);
    ImGui::PopStyleColor();
    // Code lines wrap at the panel's edge (a projector cannot scroll sideways), indented under
    // their first line; the line number stays in its own column.
    ImGui::BeginChild(id, ImVec2(0, 0), true);
    const float num_w = fit::TextWidth("0000");
    int& last_scrolled = *ImGui::GetStateStorage()->GetIntRef(ImGui::GetID("last"), -1);
    const int target = m.linked >= 0   ? m.linked
                       : m.current >= 0 ? m.current
                       : m.interval.empty() ? -1
                                            : m.interval.front().first;
    int clicked = -1;
    bool target_shown = target < 0;
    const ImVec4 muted = ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled);
    for (int i = std::max(0, src.body_first - 1); i < (int)src.lines.size(); ++i) {
        bool hl = false;
        for (const auto& r : m.interval) hl = hl || r.contains(i);
        const bool barrier = std::find(src.barriers.begin(), src.barriers.end(), i) != src.barriers.end();
        const ImVec2 p = ImGui::GetCursorScreenPos();
        const float text_w = std::max(ImGui::GetFontSize(), ImGui::GetContentRegionAvail().x - num_w);
        const float line_h = fit::TextSize(src.lines[i], text_w).y;
        if (hl || i == m.current || i == m.linked)
            ImGui::GetWindowDrawList()->AddRectFilled(
                p, ImVec2(p.x + ImGui::GetContentRegionAvail().x, p.y + line_h + ImGui::GetStyle().ItemSpacing.y),
                i == m.linked    ? IM_COL32(40, 80, 150, 255)
                : i == m.current ? IM_COL32(150, 120, 20, 255)
                                 : IM_COL32(60, 80, 30, 255));
        const bool mark = m.figure && i == m.current;
        if (mark) fit::BeginFigure();
        ImGui::BeginGroup();
        fit::Disabled(fmt::format("{:>3}", i + 1));
        ImGui::SameLine(num_w);
        if (barrier) ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.55f, 0.35f, 1));
        fit::Wrapped(src.lines[i]);
        if (barrier) ImGui::PopStyleColor();
        if (m.counts) {
            const auto c = m.counts->find(i + 1);
            if (c != m.counts->end())
                if (const std::string t = counts_text(c->second); !t.empty()) {
                    ImGui::SetCursorPosX(ImGui::GetCursorPosX() + num_w);
                    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.55f, 0.8f, 1.0f, muted.w));
                    fit::Wrapped(t);
                    ImGui::PopStyleColor();
                }
        }
        ImGui::EndGroup();
        if (ImGui::IsItemClicked()) clicked = i;
        if (i == target) target_shown = fit::LastItemShown();
        if (mark) fit::EndFigure();
        if (i == target && target != last_scrolled) ImGui::SetScrollHereY(0.3f);
    }
    // Scrolled to until it is seen once (the first frames lay the panel out and may move it off
    // again), then left to the user's own scrolling.
    if (target_shown) last_scrolled = target;
    fit::CheckWindow(id);
    ImGui::EndChild();
    return clicked;
}

// The PTX the engine runs: each instruction's source line marked as the source's are (the current
// instruction bright, the lines of a chosen source line blue). Returns the source line (1-based) of
// a clicked PTX line of the kernel's file, -1 when none. Long lines scroll sideways (nothing cut).
int ptx_view(const Experiment& e, int current_ptx, int linked_source_line) {
    const PtxListing& l = e.ptx;
    if (!l.ok()) {
        Greyed("PTX:", l.error.empty() ? "none" : l.error);
        return -1;
    }
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    fit::Wrapped(fmt::format("PTX of {} ({} lines), as the CPU engine runs it", e.trace.ptx_file, l.lines.size()));
    ImGui::PopStyleColor();
    ImGui::BeginChild("ptx", ImVec2(0, 0), true, ImGuiWindowFlags_HorizontalScrollbar);
    int& last_scrolled = *ImGui::GetStateStorage()->GetIntRef(ImGui::GetID("last"), -1);
    int target = current_ptx;
    if (linked_source_line > 0)
        for (int i = 0; i < (int)l.lines.size(); ++i)
            if (l.lines[i].instruction >= 0 && l.lines[i].line == linked_source_line && l.lines[i].file == e.trace.ptx_file) {
                target = i;
                break;
            }
    int clicked = -1;
    const ImVec4 muted = ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled);
    const float line_h = ImGui::GetTextLineHeightWithSpacing();
    for (int i = 0; i < (int)l.lines.size(); ++i) {
        const PtxLine& p = l.lines[i];
        const ImVec2 at = ImGui::GetCursorScreenPos();
        const bool linked = linked_source_line > 0 && p.instruction >= 0 && p.line == linked_source_line &&
                            p.file == e.trace.ptx_file;
        if (i == current_ptx || linked)
            ImGui::GetWindowDrawList()->AddRectFilled(
                at, ImVec2(at.x + std::max(ImGui::GetContentRegionAvail().x, ImGui::CalcTextSize(p.text.c_str()).x), at.y + line_h),
                i == current_ptx ? IM_COL32(150, 120, 20, 255) : IM_COL32(40, 80, 150, 255));
        // Not fit::Text: this child scrolls sideways, so a long line is reachable, not cut.
        if (p.instruction < 0) ImGui::PushStyleColor(ImGuiCol_Text, muted);
        ImGui::TextUnformatted(p.text.c_str());
        if (p.instruction < 0) ImGui::PopStyleColor();
        if (ImGui::IsItemClicked() && p.instruction >= 0 && p.file == e.trace.ptx_file) clicked = p.line;
        if (ImGui::IsItemHovered() && p.line > 0)
            ImGui::SetTooltip("%s line %d%s", p.file.c_str(), p.line,
                              p.flops ? fmt::format(": {} FLOP{} each time", p.flops, p.flops == 1 ? "" : "s").c_str() : "");
        if (i == target && target != last_scrolled) ImGui::SetScrollHereY(0.3f);
    }
    last_scrolled = target;
    ImGui::EndChild();
    return clicked;
}

// The lab's kernel and, beside it (or below, when narrow), the textbook's listing, the current
// instruction's line marked in both where the listing has the same statement (listing_match.h).
int current_lab_line(const Experiment& e) {
    return e.where.known() && same_source_file(e.where.file, e.source.path) ? e.where.line - 1 : -1;
}
int current_book_line(const Experiment& e) {
    const int lab_line = current_lab_line(e);
    return lab_line >= 0 && lab_line < (int)e.book_line.size() ? e.book_line[lab_line] : -1;
}

// The current instruction's line in the PTX listing (-1: unknown or before the launch).
int current_ptx_line(const Experiment& e) {
    if (e.step <= 0 || e.step >= (int)e.trace.steps.size()) return -1;
    const int site = e.trace.steps[e.step].site;
    return site >= 0 && site < (int)e.site_line.size() ? e.site_line[site] : -1;
}

void source_view(App& app) {
    auto& e = app.exp;
    const int lab_line = current_lab_line(e), book_line = current_book_line(e);
    // Beside the kernel: the textbook's listing, or the PTX the engine runs (lines linked both ways).
    int beside = e.beside_ptx ? 1 : 0;
    fit::Text("beside it:");
    fit::SameLineIfFits(fit::CheckWidth("the textbook"));
    ImGui::RadioButton("the textbook", &beside, 0);
    fit::SameLineIfFits(fit::CheckWidth("PTX"));
    ImGui::RadioButton("PTX", &beside, 1);
    HelpMarker("PTX: the code NVRTC made from the kernel, which the CPU engine runs (and a GPU's driver assembles). A "
               "click on a line of the kernel marks its PTX instructions, a click on a PTX instruction its line; under "
               "each line of the kernel, what the traced block did there: global and shared loads and stores counted "
               "from the trace, and FLOPs (each instruction's floating-point operations, an fma 2, times how often "
               "the block ran it).");
    if ((beside == 1) != e.beside_ptx) {
        e.beside_ptx = beside == 1;
        e.linked_line = -1;
    }
    auto book_header = [&] {
        fit::Wrapped(book_line >= 0 ? "the textbook's listing: the same statement marked"
                     : lab_line >= 0 ? "the textbook's listing: no statement like the current one"
                                     : "the textbook's listing");
        HelpMarker("The listing as printed (bench/textbook/). A line of the lab's kernel and a line of the listing "
                   "correspond when their statements match once names are normalised (threadIdx.x = tx, any "
                   "__shared__ array, numbers and the radius): viewer/core/listing_match.h.");
    };
    ListingMarks lab{lab_line, e.lines, -1, nullptr, true};
    if (e.beside_ptx) {
        lab.linked = e.linked_line - 1;
        lab.counts = &e.line_counts;
    }
    auto lab_pane = [&] {
        const int clicked = listing_view("labsrc", e.source, lab);
        if (clicked >= 0 && e.beside_ptx) e.linked_line = clicked + 1;
    };
    auto other_pane = [&] {
        if (e.beside_ptx) {
            const int clicked = ptx_view(e, current_ptx_line(e), e.linked_line);
            if (clicked > 0) e.linked_line = clicked;
            return;
        }
        book_header();
        listing_view("booksrc", e.textbook, {book_line, {}, -1, nullptr, false});
    };
    const float fs = ImGui::GetFontSize();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    // Side by side (the PTX scrolls sideways: narrower panes do); the panes only stack a header
    // over a scrolling listing.
    if (avail.x >= fs * (e.beside_ptx ? 30 : 40)) {
        const ImVec2 pane(avail.x * 0.5f - ImGui::GetStyle().ItemSpacing.x, avail.y);
        const ImGuiWindowFlags flags = ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse;
        ImGui::BeginChild("lab", pane, false, flags);
        fit::Wrapped("the lab's kernel");
        lab_pane();
        ImGui::EndChild();
        ImGui::SameLine();
        ImGui::BeginChild("book", pane, false, flags);
        other_pane();
        ImGui::EndChild();
    } else if (ImGui::BeginTabBar("listings")) {  // narrow: one at a time
        if (ImGui::BeginTabItem("lab's kernel")) {
            lab_pane();
            ImGui::EndTabItem();
        }
        const char* other = e.beside_ptx ? "PTX###book" : book_line >= 0 ? "textbook (line marked)###book" : "textbook###book";
        if (ImGui::BeginTabItem(other)) {
            other_pane();
            ImGui::EndTabItem();
        }
        ImGui::EndTabBar();
    }
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

// The input region of the block, plane by plane (x right, y up), in a grid that fills `w` x `h`:
// the stepper's figure. Lecture mode labels planes shortly ("z=4 prev"; the frame's colour says
// where the plane lives) so the squares can take the room.
void tile_view(App& app, float w, float h, bool lecture) {
    const auto& t = app.exp.trace;
    const auto& s = app.exp.state;
    const Box& b = t.box;
    const float y0 = ImGui::GetCursorScreenPos().y;
    if (!lecture) {
        fit::Wrapped(fmt::format("Input region of block ({}, {}, {}): x {}..{}, y {}..{}, z {}..{}", t.cfg.block.x,
                                 t.cfg.block.y, t.cfg.block.z, b.x0, b.x0 + b.nx - 1, b.y0, b.y0 + b.ny - 1, b.z0,
                                 b.z0 + b.nz - 1));
        HelpMarker("Each square is one input cell of the grid, seen as z-slices (x right, y up). Colours: loaded from "
                   "global memory once, loaded again (naive: neighbours re-read by other threads), output written, "
                   "beyond the grid.");
    }
    std::vector<std::pair<std::uint32_t, const char*>> keys = {{pack(palette::idle), "not loaded yet"},
                                                               {pack(palette::loaded), "loaded once"},
                                                               {pack(palette::reloaded), "loaded again"},
                                                               {pack(palette::output), "output written"},
                                                               {pack(palette::outside), "beyond the grid"}};
    if (!s.planes.empty()) {
        keys.push_back({pack({1.0f, 0.85f, 0.2f}), "frame: plane in shared memory"});
        keys.push_back({pack({0.85f, 0.45f, 0.95f}), "frame: in registers"});
    }
    Swatches(keys);
    const float fs = ImGui::GetFontSize();
    const float gap = ImGui::GetStyle().ItemSpacing.x;
    const float used = ImGui::GetCursorScreenPos().y - y0;
    const char* widest = s.planes.empty() ? "z=000" : lecture ? "z=000 prev2" : "z=000 prev2: smem+reg";
    const float label_w = fit::TextWidth(widest);
    const float label_h = ImGui::GetTextLineHeightWithSpacing();
    const int n = b.nz;
    // Cells grow with the room, up to the font's size and more on a projector (lecture mode).
    const PlaneGrid g = fit_planes(n, b.nx, b.ny, w, h - used, label_h, gap, std::max(3.0f, fs * 0.25f),
                                   lecture ? fs * 3.0f : fs * 1.2f, label_w);
    const float cell = g.cell;
    for (int k = 0; k < n; ++k) {
        const int z = b.z0 + k;
        if (k % g.cols) fit::SameLineIfFits(std::max(label_w, b.nx * cell + 2));
        ImGui::BeginGroup();
        std::string tag = fmt::format("z={}", z);
        std::uint32_t border = 0;
        for (const auto& p : s.planes)
            if (p.z == z) {
                const char* role = p.dz < 0 ? "prev" : p.dz == 0 ? "curr" : "next";
                const std::string dist = std::abs(p.dz) > 1 ? std::to_string(std::abs(p.dz)) : "";
                tag = lecture ? fmt::format("z={} {}{}", z, role, dist)
                              : fmt::format("z={} {}{}: {}", z, role, dist,
                                            p.in_shared && p.in_registers ? "smem+reg" : p.in_shared ? "smem" : "regs");
                border = p.in_shared ? pack({1.0f, 0.85f, 0.2f}) : pack({0.85f, 0.45f, 0.95f});
            }
        fit::Text(tag);
        const auto hit = DrawCellGrid(fmt::format("##z{}", k).c_str(), b.nx, b.ny, cell,
                                      [&](int x, int y) { return cell_colour(app, b.x0 + x, b.y0 + y, z); }, border);
        if (hit.hx >= 0) {
            const int i = b.index(b.x0 + hit.hx, b.y0 + hit.hy, z);
            // Who loaded it, when and where: the trace's loads of this cell up to the current step.
            std::string who;
            const Dim3 bd = t.geo.block;
            for (const auto& l : loads_of_cell(t, b.x0 + hit.hx, b.y0 + hit.hy, z)) {
                if (l.step > app.exp.step) break;
                who += fmt::format("\nthread ({}, {}, {}) at step {}, line {}", l.thread % bd.x, l.thread / bd.x % bd.y,
                                   l.thread / (bd.x * bd.y), l.step, l.where.line);
            }
            ImGui::SetTooltip("cell (%d, %d, %d): loaded %d time(s)%s%s", b.x0 + hit.hx, b.y0 + hit.hy, z, s.loads[i],
                              s.written[i] ? ", output written" : "", who.c_str());
        }
        ImGui::EndGroup();
    }
    if (!s.planes.empty() && !lecture)
        HelpMarker("Where each of the 2r+1 input planes of the output plane in flight lives, from the trace: the "
                   "planes the compute reads from the __shared__ array (coarsened: all of them) or not at all "
                   "(register-tiled: z-neighbours come from each thread's register queue z_reg).");
}

// The __shared__ array as the versions table declares it (shared_plane_shape): T planes of T x T
// (tiled), 2r + 1 (coarsened), one T x T plane (register-tiled), two planes of T + 2r rows of 32
// vectors (streaming's double buffer), one plane per level of the strips' 2r edge rows (temporal);
// a cell is lit once a thread of the block stored it.
void shared_view(App& app) {
    const auto& t = app.exp.trace;
    const auto& s = app.exp.state;
    if (t.shared_planes == 0 || t.shared_nx == 0) return;
    fit::Wrapped(fmt::format("__shared__ array: {} plane{} of {} x {}", t.shared_planes,
                             t.shared_planes == 1 ? "" : "s", t.shared_nx, t.shared_ny));
    HelpMarker("The block's shared array, plane by plane, in the shape kernels/versions.h gives it (streaming: two "
               "buffers of T + 2r rows, each 32 lanes x one 16-byte vector: the block's T rows and r halo rows on "
               "each side). Lit: stored by some thread of the block so far.");
    const float fs = ImGui::GetFontSize(), avail = ImGui::GetContentRegionAvail().x;
    const float gap = ImGui::GetStyle().ItemSpacing.x, label_w = fit::TextWidth("plane 00");
    const float min_cell = std::min(fs * 0.45f, (avail - 2) / t.shared_nx);
    const int n = t.shared_planes;
    const int cols = std::max(1, std::min(n, (int)((avail + gap) / (std::max(label_w, t.shared_nx * min_cell + 2) + gap))));
    const float cell = std::clamp(((avail + gap) / cols - gap - 2) / t.shared_nx, min_cell, fs * 0.9f);
    const long long plane = (long long)t.shared_nx * t.shared_ny;
    for (int p = 0; p < n; ++p) {
        if (p % cols) fit::SameLineIfFits(std::max(label_w, t.shared_nx * cell + 2));
        ImGui::BeginGroup();
        fit::Text(fmt::format("plane {}", p));
        DrawCellGrid(fmt::format("##s{}", p).c_str(), t.shared_nx, t.shared_ny, cell, [&](int x, int y) {
            const long long i = p * plane + (long long)y * t.shared_nx + x;
            return i < (long long)s.shared.size() && s.shared[i] ? pack(palette::loaded) : pack(palette::idle);
        });
        ImGui::EndGroup();
    }
}

// The chosen thread's loads and stores in its program order, each with its step and line (a
// click on a thread above chooses it); the ones still to come are dimmed.
void thread_accesses_view(App& app) {
    const auto& t = app.exp.trace;
    const int th = app.exp.thread;
    if (th < 0 || th >= t.threads) return;
    const Dim3 bd = t.geo.block;
    const auto list = accesses_of_thread(t, th);
    fit::Wrapped(fmt::format("thread ({}, {}, {}): {} loads and stores, in its order", th % bd.x, th / bd.x % bd.y,
                             th / (bd.x * bd.y), list.size()));
    const GridDims d = t.cfg.dims;
    std::vector<std::vector<fit::Cell>> rows;
    const ImVec4 later = ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled);
    for (const auto& a : list) {
        const ImVec4 c = a.step > app.exp.step ? later : ImVec4(0, 0, 0, 0);
        const std::string what = fmt::format("{} {}", a.op == engine::Op::load ? "load" : "store",
                                             a.space == engine::Space::global ? "global" : "shared");
        const std::string cell = a.space == engine::Space::global
                                     ? fmt::format("({}, {}, {})", a.cell % d.nx, a.cell / d.nx % d.ny,
                                                   a.cell / ((long long)d.nx * d.ny))
                                     : fmt::format("[{}]", a.cell);
        rows.push_back({{what, c}, {cell, c}, {std::to_string(a.step), c}, {std::to_string(a.where.line), c}});
    }
    fit::Table("thread accesses", {{"access", ""}, {"cell", ""}, {"step", ""}, {"line", ""}}, rows, 1);
    if (app.recording) (*app.drawn)["stepper_thread"] = {{"thread", th}, {"accesses", list.size()}};
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
        const auto hit = DrawCellGrid(fmt::format("##t{}", tz).c_str(), bd.x, bd.y, cell, [&](int x, int y) {
            const int th = (tz * bd.y + y) * bd.x + x;
            if (th == app.exp.thread) return pack({1, 1, 1});
            switch (s.threads[th]) {
                case ThreadState::outside: return pack(palette::outside);
                case ThreadState::idle: return pack(palette::idle);
                case ThreadState::active: return pack(palette::loaded);
                case ThreadState::computing: return pack(palette::output);
            }
            return pack(palette::idle);
        });
        if (hit.hx >= 0) {
            ImGui::SetTooltip("thread (%d, %d, %d): click for its loads and stores", hit.hx, hit.hy, tz);
            if (ImGui::IsMouseClicked(0)) app.exp.thread = (tz * bd.y + hit.hy) * bd.x + hit.hx;
        }
        ImGui::EndGroup();
    }
    thread_accesses_view(app);
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

// Lecture mode's counts: one line of the block's running figures (the table's "so far" column).
// Each name stays with its number (no-break spaces: a wrapped line breaks between figures only).
void counts_line(App& app) {
    const auto& s = app.exp.state;
    const auto& m = app.exp.trace.model;
    const double opb_now = s.global_load_bytes > 0 ? s.flops / s.global_load_bytes : 0;
    constexpr const char* nb = "\u00a0";
    std::string line = fmt::format("global{0}loads{0}{1}   stores{0}{2}", nb, s.global_loads, s.global_stores);
    if (version(m.kernel).shared != SharedTile::none)
        line += fmt::format("   shared{0}stores{0}{1}   shared{0}loads{0}{2}", nb, s.shared_stores, s.shared_loads);
    line += fmt::format("   FLOPs{0}{1:.0f}   OP/B{0}{2:.2f}{0}(model{0}{3:.2f})", nb, s.flops, opb_now, m.opb);
    fit::Wrapped(line);
}

// The current step's source line, large: the lab's kernel's (or the student's) line with its
// number, else where the stepping stands.
void current_line(App& app) {
    const auto& e = app.exp;
    const int line = current_lab_line(e);
    if (line >= 0 && line < (int)e.source.lines.size()) {
        std::string text = e.source.lines[line];
        text.erase(0, std::min(text.find_first_not_of(' '), text.size()));
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.85f, 0.35f, 1));
        fit::Wrapped(fmt::format("{:>3}  {}", line + 1, text));
        ImGui::PopStyleColor();
    } else {
        fit::Disabled(e.state.interval < 0 ? "before the launch: nothing loaded yet" : "(no source line for this step)");
    }
}

// Lecture mode: the current line, the counts in one line, and the tile filling the rest; the keys
// step (space, arrows, Home / End; Z: instruction, line or interval), the status line says where.
void draw_stepper_lecture(App& app) {
    step_keys(app);
    const auto& t = app.exp.trace;
    const auto& s = app.exp.state;
    if (!app.exp.tile_note.empty()) fit::Colored(ImVec4(1, 0.6f, 0.3f, 1), app.exp.tile_note);
    fit::BeginFigure();
    current_line(app);
    counts_line(app);
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    tile_view(app, avail.x, avail.y, true);
    fit::EndFigure();
    const std::string at = s.interval < 0 ? "before the launch"
                                          : fmt::format("interval {} of {}, step {} of {}", s.interval + 1, t.intervals,
                                                        app.exp.step, t.last_step());
    std::string what;
    if (app.exp.where.known()) {
        const Step& st = t.steps[app.exp.step];
        what = fmt::format("{} by {} thread{}", app.exp.where.instruction, st.threads, st.threads == 1 ? "" : "s");
    }
    app.ui.status = {fmt::format("{} T={} r={} {}", t.cfg.kernel_file.empty() ? version(t.cfg.kernel).name
                                                                               : t.cfg.kernel_file.c_str(),
                                 t.cfg.tile, t.cfg.radius, to_string(t.cfg.precision)),
                     at, what, fmt::format("block ({}, {}, {})", t.cfg.block.x, t.cfg.block.y, t.cfg.block.z),
                     fmt::format("Z: a step is one {}", to_string(app.exp.zoom)), "space / arrows: step"};
}

}  // namespace

namespace {

// A line of a file as shown beside its place: "stencil.cu:10  tile[...] = in[...];".
std::string line_with_code(const SourcePos& p, const std::vector<std::string>& lines) {
    if (!p.known()) return "(no line)";
    std::string code = p.line <= (int)lines.size() ? lines[(size_t)p.line - 1] : "";
    code.erase(0, std::min(code.size(), code.find_first_not_of(" \t")));
    return fmt::format("{}:{}  {}", p.file, p.line, code);
}

// Step beside the lab: the lab's kernel of the student's exercise on the same block, and where the
// two first differ (a shared cell or a global store), both lines shown; the stepper goes to the
// student's step there.
void beside_lab_view(App& app) {
    const auto& b = app.beside;
    if (b.tracing.valid()) {
        fit::Disabled("tracing the lab's kernel of " + app.exp.trace.cfg.exercise + " on this block...");
        return;
    }
    fit::SameLineIfFits(fit::ButtonWidth("Beside the lab"));
    if (ImGui::Button("Beside the lab")) app.start_beside_lab();
    HelpMarker("Runs the lab's kernel of the same exercise on the same block and compares the two barrier interval by "
               "barrier interval: the first shared cell that one kernel stores and the other does not (or that holds "
               "another input cell), or the first output stored by one and not the other (or computed from other "
               "cells). What a cell holds is followed from the trace: a store right after a load holds what was "
               "loaded; a value from a register is not compared.");
    const TraceDifference& d = b.diff;
    if (!b.lab) return;
    const ImVec4 colour = !d.error.empty() ? ImVec4(1, 0.5f, 0.4f, 1)
                          : d.found       ? ImVec4(1, 0.6f, 0.3f, 1)
                                          : ImVec4(0.0f, 0.75f, 0.5f, 1.0f);
    ImGui::PushStyleColor(ImGuiCol_Text, colour);
    fit::Wrapped(!d.error.empty() ? d.error
                 : d.found        ? fmt::format("first difference, barrier interval {}: {}", d.interval, d.what)
                                  : d.what);
    ImGui::PopStyleColor();
    if (d.found) {
        fit::Wrapped("yours:     " + line_with_code(d.student.where, app.exp.source.lines));
        fit::Wrapped("the lab's: " + line_with_code(d.lab.where, b.lab_source.lines));
        const std::string go = fmt::format("Go to your step {}", d.student.step);
        fit::SameLineIfFits(fit::ButtonWidth(go));
        if (ImGui::Button(go.c_str())) app.set_step(d.student.step);
    }
}

}  // namespace

// What the stepper drew, for the screenshot's sidecar.
static void record_stepper(App& app) {
    if (!app.recording) return;
    const auto& t = app.exp.trace;
    {
        const auto& s = app.exp.state;
        int planes_reg = 0, planes_smem = 0;
        const long long shared_stored = std::count(s.shared.begin(), s.shared.end(), 1);
        for (const auto& p : s.planes) planes_reg += p.in_registers, planes_smem += p.in_shared;
        (*app.drawn)["stepper"] = {{"kernel", version(t.cfg.kernel).name}, {"tile", t.cfg.tile},
                                {"radius", t.cfg.radius}, {"precision", to_string(t.cfg.precision)},
                                {"step", app.exp.step}, {"last_step", t.last_step()}, {"interval", s.interval},
                                {"intervals", t.intervals}, {"global_loads", s.global_loads},
                                {"global_stores", s.global_stores}, {"active_threads", s.active_threads},
                                {"idle_threads", s.idle_threads}, {"planes_in_registers", planes_reg},
                                {"planes_in_shared", planes_smem}, {"source_lines", app.exp.source.lines.size()},
                                {"zoom", to_string(app.exp.zoom)}, {"source_file", app.exp.where.file},
                                {"source_line", app.exp.where.line},
                                {"textbook_line", current_book_line(app.exp) + 1},
                                {"shared_array", fmt::format("{}x{}x{}", t.shared_nx, t.shared_ny, t.shared_planes)},
                                {"shared_stored", shared_stored}, {"kernel_file", t.cfg.kernel_file},
                                {"exercise", t.cfg.exercise}, {"notes", t.notes.size()},
                                {"tile_note", app.exp.tile_note}, {"source_shown_as", app.exp.source.name}};
        if (app.beside.lab) {
            const TraceDifference& d = app.beside.diff;
            (*app.drawn)["beside_lab"] = {{"found", d.found}, {"error", d.error}, {"what", d.what}, {"cell", d.cell},
                                       {"interval", d.interval}, {"student_file", d.student.where.file},
                                       {"student_line", d.student.where.line}, {"lab_file", d.lab.where.file},
                                       {"lab_line", d.lab.where.line}, {"student_step", d.student.step}};
        }
        // Source beside PTX: the per-line counts add up to the block's.
        double flops = 0;
        bool known = true;
        long long loads = 0, shared = 0;
        for (const auto& [line, c] : app.exp.line_counts) {
            flops += c.flops;
            known = known && c.flops_known;
            loads += c.global_loads;
            shared += c.shared_loads + c.shared_stores;
        }
        (*app.drawn)["stepper_ptx"] = {{"beside_ptx", app.exp.beside_ptx}, {"ptx_lines", app.exp.ptx.lines.size()},
                                    {"sites_mapped", !app.exp.site_line.empty()}, {"lines_counted", app.exp.line_counts.size()},
                                    {"line_flops", flops}, {"line_flops_known", known},
                                    {"block_flops", (double)t.outputs * t.model.flops_per_output},
                                    {"line_global_loads", loads}, {"block_global_loads", t.totals.global_loads},
                                    {"line_shared_accesses", shared},
                                    {"block_shared_accesses", t.totals.shared_loads + t.totals.shared_stores},
                                    {"current_ptx_line", current_ptx_line(app.exp)}, {"error", app.exp.ptx.error},
                                    {"flops_add_up", known && flops == (double)t.outputs * t.model.flops_per_output},
                                    {"loads_add_up", loads == t.totals.global_loads &&
                                                         shared == t.totals.shared_loads + t.totals.shared_stores}};
    }
}

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
    if (app.recording) (*app.drawn)["tracing"] = true;
    return none;
}

void draw_stepper_panel(App& app) {
    if (!app.ui.lecture) controls(app);
    if (trace_status(app)) return;
    const auto& t = app.exp.trace;
    if (!t.ok()) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 0.5f, 0.4f, 1));
        fit::Wrapped(t.error);
        ImGui::PopStyleColor();
        if (app.recording) (*app.drawn)["stepper"] = {{"error", t.error}};
        return;
    }
    if (app.ui.lecture) {
        draw_stepper_lecture(app);
        record_stepper(app);
        return;
    }
    if (!app.exp.tile_note.empty()) fit::Colored(ImVec4(1, 0.6f, 0.3f, 1), app.exp.tile_note);
    if (!t.cfg.kernel_file.empty()) {
        fit::Wrapped(fmt::format("a student's kernel: {} (exercise {}), run on the CPU engine in the checker's child "
                                 "process", t.cfg.kernel_file, t.cfg.exercise));
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 0.6f, 0.3f, 1));
        for (const auto& n : t.notes) fit::Wrapped("the engine: " + n);
        ImGui::PopStyleColor();
        beside_lab_view(app);
    }
    step_controls(app);
    // The tile first, sized to the view (the figure, whole on screen), then the counts and the rest.
    auto block_view = [&] {
        const ImVec2 room = ImGui::GetContentRegionAvail();
        fit::BeginFigure();
        tile_view(app, room.x, std::max(room.y * 0.75f, ImGui::GetFontSize() * 8), false);
        fit::EndFigure();
        ImGui::Separator();
        counts_view(app);
        ImGui::Separator();
        shared_view(app);
        ImGui::Separator();
        thread_view(app);
        fit::CheckWindow("block view");
    };
    const float fs = ImGui::GetFontSize();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    if (avail.x >= fs * 45) {  // the source beside the block
        if (ImGui::BeginTable("stepper", 2, ImGuiTableFlags_Resizable | ImGuiTableFlags_BordersInnerV)) {
            // The source and its PTX take more of the width than the source and the textbook's listing.
            const float source_share = app.exp.beside_ptx ? 0.6f : 0.42f;
            ImGui::TableSetupColumn("source", ImGuiTableColumnFlags_WidthStretch, source_share);
            ImGui::TableSetupColumn("block", ImGuiTableColumnFlags_WidthStretch, 1 - source_share);
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
        // Only a header over a listing that scrolls itself: no scrollbar of its own.
        ImGui::BeginChild("sourcepane", ImVec2(0, std::max(fs * 8, avail.y * 0.4f)), false,
                          ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
        source_view(app);
        ImGui::EndChild();
        ImGui::BeginChild("blockview");
        block_view();
        ImGui::EndChild();
    }
    record_stepper(app);
}

}  // namespace stencil::viewer
