// [SECTION] Check panel: a student's .cu file graded as `stencil-lab check` grades it (the same
// checker, checker/checker.h), on a worker thread; the verdict, one line per distinct finding with
// its sizes and the student's lines, the smallest failing size and the sizes that passed, the slice
// map of the bad cells as coloured squares (a click on one shows its backward slice), the
// exercise's hints one at a time, and every test (folded). What it draws is made once per result
// by viewer/core/check_view.h.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>

#include "checker/exercises.h"
#include "viewer/core/check_status.h"
#include "viewer/core/check_view.h"
#include "viewer/core/colormap.h"
#include "viewer/core/kernel_source.h"
#include "viewer/fit.h"
#include "viewer/panels.h"

namespace stencil::viewer {

namespace {

// The map's characters (checker/evaluate.cpp slice_map) as colours.
std::uint32_t cell_colour(char c) {
    switch (c) {
        case '.': return pack(palette::output);
        case '#': return pack(palette::outside);
        case 'B': return pack(palette::halo);
        case 'U': return pack(Rgb{0.62f, 0.62f, 0.66f});  // light grey: still the poison
        case 'N': return pack(Rgb{0.80f, 0.47f, 0.74f});  // reddish purple
        case 'X': return pack(palette::reloaded);
        case '*': return pack(Rgb{0.94f, 0.89f, 0.26f});  // yellow: the first bad cell
    }
    return pack(palette::outside);
}

// Coloured text that wraps at the panel's edge (fit::Colored keeps one line).
void wrapped_in(const ImVec4& colour, std::string_view text) {
    ImGui::PushStyleColor(ImGuiCol_Text, colour);
    fit::Wrapped(text);
    ImGui::PopStyleColor();
}

ImVec4 verdict_colour(checker::Verdict v) {
    return v == checker::Verdict::pass ? ImVec4(0.0f, 0.75f, 0.5f, 1.0f) : ImVec4(0.95f, 0.45f, 0.2f, 1.0f);
}

// The file, the exercise, T and the backend, and the Check button (all disabled while checking).
void draw_check_controls(App& app, const std::vector<const checker::Exercise*>& exs, bool busy) {
    auto& c = app.check;
    const float fs = ImGui::GetFontSize();
    ImGui::BeginDisabled(busy);
    ImGui::SetNextItemWidth(std::min(fs * 22, ImGui::GetContentRegionAvail().x - fit::TextWidth("file") - fs * 2));
    if (ImGui::InputText("file", c.path, sizeof c.path)) app.set_check_path(true);  // a new file: its exercise
    HelpMarker("A .cu file with one __global__ void stencil_kernel(...): the contract is in "
               "exercises/README.md. A relative path is relative to the folder the viewer was started in.");
    ImGui::SetNextItemWidth(fs * 10);
    c.exercise = std::clamp(c.exercise, 0, (int)exs.size() - 1);
    if (ImGui::BeginCombo("exercise", exs[c.exercise]->name.c_str())) {
        for (int i = 0; i < (int)exs.size(); ++i)
            if (ImGui::Selectable(exs[i]->name.c_str(), i == c.exercise)) c.exercise = i, c.tile = 0;
        ImGui::EndCombo();
    }
    fit::SameLineIfFits(fit::LabeledWidth(fs * 6, "T (0: default)"));
    ImGui::SetNextItemWidth(fs * 6);
    ImGui::InputInt("T (0: default)", &c.tile);
    c.tile = std::max(0, c.tile);
    const char* backends[] = {"auto", "cuda", "cpu"};
    fit::SameLineIfFits(fit::LabeledWidth(fs * 5, "backend"));
    ImGui::SetNextItemWidth(fs * 5);
    ImGui::Combo("backend##check", &c.backend, backends, 3);
    fit::SameLineIfFits(fit::ButtonWidth("Check"));
    if (ImGui::Button("Check")) app.start_check();
    ImGui::EndDisabled();
}

// The check in flight: size k of n from the runner's lines, a bar, Cancel (then "cancelling...").
void draw_check_progress(App& app) {
    auto& c = app.check;
    checker::CheckProgress at;
    {
        std::lock_guard l(c.live->m);
        at = c.live->at;
    }
    const bool stopping = c.live->stop.load();
    const float fs = ImGui::GetFontSize();
    ImGui::ProgressBar(check_fraction(at), ImVec2(std::min(fs * 14, ImGui::GetContentRegionAvail().x), 0));
    fit::SameLineIfFits(fit::ButtonWidth("Cancel##check"));
    ImGui::BeginDisabled(stopping);
    if (ImGui::Button("Cancel##check")) c.live->stop = true;
    ImGui::EndDisabled();
    HelpMarker("Cancel kills the child process group that compiles and runs the submission (checker/process.h); "
               "no verdict is given for a stopped check.");
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    fit::Wrapped("checking " + c.checked_path + ": " + check_status_text(at, stopping));
    ImGui::PopStyleColor();
    if (app.recording) (*app.drawn)["check"] = {{"verdict", "checking"}, {"status", check_status_text(at, stopping)}};
}

// The verdict, what was checked, and the evidence's words that the findings do not carry (a race's
// block and interval, the compiler's output).
void draw_verdict(const checker::CheckResult& r) {
    fit::Colored(verdict_colour(r.verdict), checker::to_string(r.verdict));
    const std::string about = fmt::format(" {}: {} exercise, T = {}, {} backend, {:.1f} s, seed {:#x}", r.file, r.exercise,
                                          r.tile, r.backend, r.seconds, static_cast<unsigned long long>(r.seed));
    fit::SameLineIfFits(fit::TextWidth(about));
    fit::Wrapped(about);
    const checker::Evidence& e = r.evidence;
    if (e.race && r.findings.empty())  // a finding names the block, the interval and both threads
        fit::Wrapped(fmt::format("race: block ({}, {}, {}), barrier interval {}, threads ({}, {}, {}) and ({}, {}, {})",
                                 e.race->block[0], e.race->block[1], e.race->block[2], e.race->interval,
                                 e.race->thread_a[0], e.race->thread_a[1], e.race->thread_a[2], e.race->thread_b[0],
                                 e.race->thread_b[1], e.race->thread_b[2]));
    if (!e.compiler_output.empty() && e.compiler_output != e.message + "\n")
        fit::Wrapped(e.compiler_output);
}

// The code of a line the findings name, when it is a line of the checked file.
std::string code_of(const SourceLink& l, const CheckPanelData& c) {
    if (l.line <= 0 || l.line > (int)c.source_lines.size() || !same_source_file(l.file, c.checked_path)) return "";
    std::string code = c.source_lines[(size_t)l.line - 1];
    code.erase(0, std::min(code.size(), code.find_first_not_of(" \t")));
    return code;
}

// One line per distinct finding with the sizes it appeared at, under it the student's lines it
// names (a race: the store and the load) with their code, each `file:line` a link to that line in
// the stepper; then the smallest failing size and which sizes passed.
void draw_findings(App& app) {
    auto& c = app.check;
    const CheckSummary& s = c.summary;
    int id = 0;
    for (const FindingRow& f : s.findings) {
        wrapped_in(verdict_colour(f.verdict), f.headline);
        ImGui::Indent();
        for (const SourceLink& l : f.sources) {
            const std::string code = code_of(l, c);
            if (code.empty()) {  // not a line of the checked file: shown, not a link
                fit::Wrapped(l.text);
                continue;
            }
            // The line is a link: the checked file in the stepper, at the first step of that line.
            ImGui::PushID(id++);
            if (ImGui::SmallButton(l.place.c_str())) c.step_note = app.step_to_line(c.checked_path, c.result->exercise, l.line);
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("step to line %d of %s in the stepper", l.line, l.file.c_str());
            fit::CheckItem(l.place);
            ImGui::PopID();
            const std::string rest = l.text.substr(l.place.size());
            if (!rest.empty()) {
                fit::SameLineIfFits(std::min(fit::TextWidth(rest), ImGui::GetFontSize() * 12));
                fit::Wrapped(rest.substr(rest.find_first_not_of(' ')));
            }
            ImGui::Indent();
            wrapped_in(ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled), code);
            ImGui::Unindent();
        }
        if (f.hint > 0)
            wrapped_in(ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled),
                       fmt::format("hint {} of the exercise's README fits: Show hint", f.hint));
        ImGui::Unindent();
    }
    if (!c.step_note.empty()) wrapped_in(ImVec4(0.95f, 0.75f, 0.3f, 1.0f), c.step_note);
    if (!s.smallest.empty()) fit::Wrapped(s.smallest);
    if (!s.sizes.empty()) fit::Wrapped(s.sizes);
}

std::string mark_meaning(char m) {
    switch (m) {
        case '*': return "the first bad cell";
        case 'X': return "wrong";
        case 'N': return "NaN / Inf";
        case 'U': return "unwritten";
        case 'B': return "boundary changed";
        case '#': return "boundary (kept)";
    }
    return "right";
}

// The evidence's slice map as coloured squares with their key; a click on a bad square asks for
// its backward slice.
void draw_slice_map(App& app, bool lecture) {
    auto& c = app.check;
    if (!c.map) return;
    const SliceMap& m = *c.map;
    const float fs = ImGui::GetFontSize();
    const int nx = m.nx(), ny = m.ny();
    fit::Wrapped(m.title.empty() ? "the bad cells" : m.title);
    HelpMarker(m.key.c_str());
    const float cell = std::clamp(fs * (lecture ? 16 : 10) / std::max(nx, ny), 4.0f, lecture ? fs * 2 : fs);
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const CellGridResult hover = DrawCellGrid("##slice", nx, ny, cell, [&](int x, int y) {
        return cell_colour(m.mark(m.x0 + x, m.y0 + y));
    });
    if (hover.hx >= 0) {
        const int x = m.x0 + hover.hx, y = m.y0 + hover.hy;
        const char mark = m.mark(x, y);
        ImGui::SetTooltip("%s", fmt::format("cell ({}, {}, {}): {}{}", x, y, m.z, mark_meaning(mark),
                                            is_bad_mark(mark) ? "; click for its backward slice" : "").c_str());
        if (ImGui::IsItemClicked() && is_bad_mark(mark)) app.click_check_cell({x, y, m.z});
    }
    if (c.clicked && (*c.clicked)[2] == m.z && m.contains((*c.clicked)[0], (*c.clicked)[1])) {
        const float px = at.x + 1 + ((*c.clicked)[0] - m.x0) * cell, py = at.y + 1 + (ny - 1 - ((*c.clicked)[1] - m.y0)) * cell;
        ImGui::GetWindowDrawList()->AddRect(ImVec2(px - 1, py - 1), ImVec2(px + cell, py + cell), IM_COL32(255, 255, 255, 255),
                                            0, 0, 2.0f);
    }
    fit::SameLineIfFits(SwatchWidth("boundary changed"));
    ImGui::BeginGroup();
    Swatch(cell_colour('.'), "right");
    Swatch(cell_colour('#'), "boundary");
    Swatch(cell_colour('*'), "first bad cell");
    Swatch(cell_colour('X'), "wrong");
    Swatch(cell_colour('N'), "NaN / Inf");
    Swatch(cell_colour('U'), "unwritten");
    Swatch(cell_colour('B'), "boundary changed");
    fit::Disabled("y grows upward");
    ImGui::EndGroup();
    if (!c.clicked) wrapped_in(ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled), "click a bad cell for its backward slice");
}

// --explain's effective stencil: the kernel's terms (each a link to its line, those that differ
// from the exercise's coloured), the exercise's stencil under them, and the difference in words.
void draw_stencil(App& app) {
    auto& c = app.check;
    if (!c.summary.stencil) return;
    const StencilCompare& s = *c.summary.stencil;
    wrapped_in(ImVec4(0.94f, 0.89f, 0.26f, 1.0f), "the first bad output's stencil, as the kernel computed it");
    HelpMarker("The sum of products the CPU engine traced for the first bad output, each term at its offset from "
               "that output (x, y, z), with the line that read its cell; coloured: the terms that differ from the "
               "exercise's stencil. A click on a line steps to it.");
    fit::Wrapped(s.head);
    ImGui::Indent();
    int id = 1000;
    for (size_t i = 0; i < s.terms.size(); ++i) {
        const StencilTermRow& t = s.terms[i];
        const std::string text = (i ? "+ " : "  ") + t.text;
        if (t.wrong) fit::Colored(ImVec4(0.95f, 0.45f, 0.2f, 1.0f), text);
        else fit::Wrapped(text);
        if (t.line.line <= 0) continue;
        fit::SameLineIfFits(fit::TextWidth(t.line.place) + ImGui::GetFontSize());
        ImGui::PushID(id++);
        if (ImGui::SmallButton(t.line.place.c_str()))
            c.step_note = app.step_to_line(c.checked_path, c.result->exercise, t.line.line);
        ImGui::PopID();
    }
    ImGui::Unindent();
    wrapped_in(ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled), "the exercise's: " + s.exercise);
    for (const std::string& d : s.differences) wrapped_in(ImVec4(0.95f, 0.45f, 0.2f, 1.0f), d);
    for (const SourceLink& l : s.mistake)
        if (const std::string code = code_of(l, c); !code.empty()) {
            ImGui::Indent();
            wrapped_in(ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled), l.place + "  " + code);
            ImGui::Unindent();
        }
}

// The backward slice shown for the clicked cell: whose slice it is, then each step with its line,
// the last (the first step that went wrong) marked. Returns whether it is wholly on screen.
bool draw_slice(CheckPanelData& c) {
    const SliceView& v = c.slice;
    ImGui::BeginGroup();
    wrapped_in(ImVec4(0.94f, 0.89f, 0.26f, 1.0f), v.title);
    if (!v.missing.empty()) wrapped_in(ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled), v.missing);
    for (size_t i = 0; i < v.steps.size(); ++i) {
        const bool last = i + 1 == v.steps.size();
        // The steps read as the checker words them ("<- tile[1][1][0] read at line 22"), each with its place.
        const std::string text = v.steps[i] + (last && v.steps.size() > 1 ? "   (the first step that went wrong)" : "");
        if (last) wrapped_in(ImVec4(0.95f, 0.45f, 0.2f, 1.0f), text);
        else fit::Wrapped(text);
        if (const std::string code = code_of(v.lines[i], c); !code.empty()) {
            ImGui::Indent();
            wrapped_in(ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled), code);
            ImGui::Unindent();
        }
    }
    ImGui::EndGroup();
    if (c.scroll_to_slice > 0) {  // just clicked: the panel scrolls until the whole slice shows
        --c.scroll_to_slice;      // (two frames: the first sizes the content, the second scrolls)
        const float top = ImGui::GetItemRectMin().y, height = ImGui::GetItemRectSize().y;
        const float room = ImGui::GetWindowPos().y + ImGui::GetWindowHeight() - ImGui::GetCursorScreenPos().y + height;
        if (height <= ImGui::GetWindowHeight() && room < height) ImGui::SetScrollHereY(1.0f);  // its foot at the panel's
        else if (height > ImGui::GetWindowHeight()) ImGui::SetScrollFromPosY(top - ImGui::GetWindowPos().y, 0.0f);
    }
    // A slice taller than its window (the effective stencil's lines make it long) can never show
    // whole: shown is then its title at the top of the window, the rest a scroll away.
    const float top = ImGui::GetItemRectMin().y, wtop = ImGui::GetWindowPos().y;
    if (ImGui::GetItemRectSize().y > ImGui::GetWindowHeight()) return top >= wtop - 1 && top < wtop + ImGui::GetWindowHeight() / 4;
    return fit::LastItemShown();
}

// The exercise README's hints, one more per click of "Show hint", the one that fits the verdict
// first and marked.
void draw_hints(App& app) {
    const auto& c = app.check;
    if (c.hints.empty()) {
        if (!c.hints_why.empty()) wrapped_in(ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled), "hints: " + c.hints_why);
        return;
    }
    for (int i = 0; i < c.hints_shown; ++i) {
        const Hint& h = c.hints[(size_t)i];
        const bool fits = i == 0 && h.number == c.summary.fitting_hint;
        const std::string text = fmt::format("hint {}{}: {}", h.number, fits ? " (fits this verdict)" : "", h.text);
        if (fits) wrapped_in(ImVec4(0.94f, 0.89f, 0.26f, 1.0f), text);
        else fit::Wrapped(text);
    }
    const std::string label = fmt::format("Show hint ({} of {} shown)", c.hints_shown, c.hints.size());
    ImGui::BeginDisabled(c.hints_shown >= (int)c.hints.size());
    if (ImGui::Button(label.c_str())) app.show_next_hint();
    ImGui::EndDisabled();
}

// Loads per output against the budget, the time against the lab's kernel, and the warnings.
void draw_loads_time_warnings(const checker::CheckResult& r) {
    if (r.loads)
        fit::Wrapped(fmt::format("global loads per output: {:.3f} at N = {} (budget {:.3f}: {}; {})",
                                 r.loads->loads_per_output, r.loads->n, r.loads->budget,
                                 r.loads->within_budget ? "within" : "over", r.loads->source));
    if (r.timing)
        fit::Wrapped(fmt::format("time at N = {}: {:.3f} ms vs the lab's {:.3f} ms (ratio {:.2f})", r.timing->n,
                                 r.timing->student_ms, r.timing->reference_ms, r.timing->ratio));
    for (const auto& w : r.warnings) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        fit::Wrapped("warning: " + w);
        ImGui::PopStyleColor();
    }
}

// An exercise written as data: its stencil's model (analysis/general_stencil.h), the FLOP per
// output and OP/B at the loads counted, beside the single-step limit and the budget's.
void draw_data_model(const CheckPanelData& c, const checker::CheckResult& r) {
    if (!c.summary.model) return;
    const analysis::GeneralStencilModel& m = *c.summary.model;
    std::string s = fmt::format("model: {} points, {} FLOP per output; OP/B (FLOP per byte loaded) {:.2f} at one load "
                                "per output (each input loaded once)", m.points, m.flops_per_output, m.limit_opb());
    const std::optional<checker::LoadCount>& count = r.loads ? r.loads : r.measured_loads;
    if (count)
        s += fmt::format(", {:.2f} at this kernel's {:.3f} loads per output, {:.2f} at the budget's {:.3f}",
                         m.opb(count->loads_per_output), count->loads_per_output, m.opb(count->budget), count->budget);
    fit::Wrapped(s);
}

// The same in the screenshot's sidecar.
void record_data_model(App& app, const CheckPanelData& c, const checker::CheckResult& r) {
    const auto& m = c.summary.model;
    if (!m) return;
    (*app.drawn)["check"]["model_points"] = m->points;
    (*app.drawn)["check"]["model_flops"] = m->flops_per_output;
    (*app.drawn)["check"]["model_limit_opb"] = m->limit_opb();
    if (const auto& count = r.loads ? r.loads : r.measured_loads)
        (*app.drawn)["check"]["model_opb"] = m->opb(count->loads_per_output);
}

// The hints, the loads, time and warnings, and every test (folded: the findings above say it once),
// in a child down to the panel's foot. Returns how many tests failed.
int draw_details(App& app) {
    const checker::CheckResult& r = *app.check.result;
    int failed = 0;
    for (const auto& t : r.tests) failed += !t.passed;
    if (ImGui::BeginChild("##details", ImVec2(0, 0), false)) {
        draw_hints(app);
        draw_data_model(app.check, r);
        draw_loads_time_warnings(r);
        const std::string header = fmt::format("every test: {} of {} failed###tests", failed, r.tests.size());
        if (ImGui::CollapsingHeader(header.c_str())) {
            for (const auto& t : r.tests) {
                fit::Colored(t.passed ? ImVec4(0.0f, 0.75f, 0.5f, 1.0f) : ImVec4(0.95f, 0.45f, 0.2f, 1.0f),
                             t.passed ? "ok  " : "FAIL");
                ImGui::SameLine();
                fit::Wrapped(t.name + (t.passed ? "" : ": " + t.output));
            }
        }
    }
    fit::CheckWindow("details");
    ImGui::EndChild();
    return failed;
}

// The verdict, then (lecture mode) the child the rest scrolls in. Returns whether the verdict is
// wholly on screen.
bool pinned_verdict(const checker::CheckResult& r, bool lecture) {
    ImGui::BeginGroup();
    draw_verdict(r);
    ImGui::EndGroup();
    const bool shown = fit::LastItemShown();
    if (lecture) ImGui::BeginChild("##check_body", ImVec2(0, 0), false);
    return shown;
}
void end_check_body() {
    fit::CheckWindow("check body");
    ImGui::EndChild();
}

}  // namespace

// The controls (at a desk) or the status line (on a projector), and the note when the file looks
// like another exercise than the one chosen; returns that note.
std::string draw_check_header(App& app, bool busy) {
    auto& c = app.check;
    const auto exs = checker::known_exercises();
    c.exercise = std::clamp(c.exercise, 0, (int)exs.size() - 1);
    if (!app.ui.lecture) {
        draw_check_controls(app, exs, busy);
        fit::Wrapped(exs[c.exercise]->summary);
    } else {
        app.ui.status = {c.checked_path, fmt::format("exercise {}", exs[c.exercise]->name)};
    }
    const std::string mismatch = exercise_mismatch(c.guess, exs[c.exercise]->id);
    if (!mismatch.empty()) fit::Colored(ImVec4(0.95f, 0.75f, 0.3f, 1.0f), "note: " + mismatch);
    return mismatch;
}

void draw_check_panel(App& app) {
    auto& c = app.check;
    const bool busy = c.checking.valid();
    const bool lecture = app.ui.lecture;
    const std::string mismatch = draw_check_header(app, busy);
    if (busy) {
        draw_check_progress(app);
        return;
    }
    if (!c.error.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.95f, 0.45f, 0.2f, 1.0f));
        fit::Wrapped(c.error);
        ImGui::PopStyleColor();
        if (app.recording) (*app.drawn)["check"] = {{"verdict", "error"}, {"error", c.error}, {"mismatch", mismatch}};
        return;
    }
    if (!c.result) {
        fit::Disabled("No check yet: pick a file and an exercise, then Check.");
        return;
    }
    const checker::CheckResult& r = *c.result;
    ImGui::Separator();
    // The figure: the verdict, its findings, the map and the slice; then the details (every test,
    // the warnings), which scroll at the panel's foot and need not fit a projector's screen. In
    // lecture mode the verdict stays at the top, the rest scrolls in a child (a slice scrolled into
    // view never takes the verdict off); at a desk the panel scrolls (its controls leave no room).
    fit::BeginFigure();
    const bool verdict_visible = pinned_verdict(r, lecture);
    draw_findings(app);
    draw_slice_map(app, lecture);
    // A slice is shown for a clicked cell, or when there is no map to click (a race's) at once; on
    // a projector, whose screen the findings fill, behind a button.
    const bool mapless_slice = !c.map && !c.slice.steps.empty();
    if (mapless_slice && lecture && !c.slice_asked && ImGui::Button("Show the backward slice")) {
        c.slice_asked = true;
        c.scroll_to_slice = 3;
    }
    const bool slice_asked = c.clicked || (mapless_slice && (!lecture || c.slice_asked));
    const bool slice_shown = slice_asked ? draw_slice(c) : false;
    if (slice_asked) draw_stencil(app);
    ImGui::Separator();
    const int failed = draw_details(app);
    if (lecture) end_check_body();
    fit::EndFigure();
    if (app.recording) {
        nlohmann::json findings = nlohmann::json::array(), sources = nlohmann::json::array();
        for (const auto& f : c.summary.findings) {
            findings.push_back(f.headline);
            nlohmann::json places = nlohmann::json::array();
            for (const auto& l : f.sources) places.push_back(l.place);
            sources.push_back(places);
        }
        (*app.drawn)["check"] = {{"verdict", checker::to_string(r.verdict)}, {"verdict_visible", verdict_visible},
                              {"tests", r.tests.size()},
                              {"failed", failed}, {"map_rows", c.map ? c.map->ny() : 0}, {"message", r.evidence.message},
                              {"exercise", r.exercise}, {"suggested", c.guess ? c.guess->name : ""},
                              {"mismatch", mismatch}, {"findings", findings}, {"finding_sources", sources},
                              {"smallest", c.summary.smallest}, {"sizes", c.summary.sizes},
                              {"clicked", c.clicked ? nlohmann::json(*c.clicked) : nlohmann::json()},
                              {"slice_of", c.slice.of}, {"slice_title", c.slice.title},
                              {"slice_steps", c.slice.steps.size()}, {"slice_shown", slice_shown},
                              {"hints", c.hints.size()}, {"hints_shown", c.hints_shown},
                              {"first_hint", c.hints.empty() ? 0 : c.hints.front().number},
                              {"fitting_hint", c.summary.fitting_hint},
                              {"cause", c.summary.findings.empty() ? "" : c.summary.findings.front().cause}};
        if (c.summary.stencil) {
            int wrong = 0;
            for (const auto& t : c.summary.stencil->terms) wrong += t.wrong;
            (*app.drawn)["check"]["stencil_terms"] = c.summary.stencil->terms.size();
            (*app.drawn)["check"]["stencil_wrong"] = wrong;
            (*app.drawn)["check"]["stencil_differences"] = c.summary.stencil->differences;
        }
        record_data_model(app, c, r);
    }
}

}  // namespace stencil::viewer
