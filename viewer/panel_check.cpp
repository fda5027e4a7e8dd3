// [SECTION] Check panel: a student's .cu file graded as `stencil-lab check` grades it (the same
// checker, checker/checker.h), on a worker thread; the verdict, the evidence, the slice map of
// the bad cells as coloured squares, and every test.
#include <fmt/format.h>

#include <algorithm>

#include "checker/exercises.h"
#include "viewer/core/check_status.h"
#include "viewer/core/colormap.h"
#include "viewer/fit.h"
#include "viewer/panels.h"

namespace stencil::viewer {

namespace {

// The rows of the evidence's slice map ("y=  3 ##.*N##"), first y first; empty when none.
std::vector<std::string> slice_rows(const std::string& map) {
    std::vector<std::string> rows;
    size_t a = 0;
    while (a < map.size()) {
        size_t e = map.find('\n', a);
        if (e == std::string::npos) e = map.size();
        const std::string line = map.substr(a, e - a);
        if (line.rfind("y=", 0) == 0 && line.size() > 6) rows.push_back(line.substr(6));
        a = e + 1;
    }
    return rows;
}

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

ImVec4 verdict_colour(checker::Verdict v) {
    return v == checker::Verdict::pass ? ImVec4(0.0f, 0.75f, 0.5f, 1.0f) : ImVec4(0.95f, 0.45f, 0.2f, 1.0f);
}

// The file, the exercise, T and the backend, and the Check button (all disabled while checking).
void draw_check_controls(App& app, std::span<const checker::Exercise> exs, bool busy) {
    auto& c = app.check;
    const float fs = ImGui::GetFontSize();
    ImGui::BeginDisabled(busy);
    ImGui::SetNextItemWidth(std::min(fs * 22, ImGui::GetContentRegionAvail().x - fit::TextWidth("file") - fs * 2));
    if (ImGui::InputText("file", c.path, sizeof c.path)) app.set_check_path(true);  // a new file: its exercise
    HelpMarker("A .cu file with one __global__ void stencil_kernel(...): the contract is in "
               "exercises/README.md. A relative path is relative to the folder the viewer was started in.");
    ImGui::SetNextItemWidth(fs * 10);
    c.exercise = std::clamp(c.exercise, 0, (int)exs.size() - 1);
    if (ImGui::BeginCombo("exercise", exs[c.exercise].name)) {
        for (int i = 0; i < (int)exs.size(); ++i)
            if (ImGui::Selectable(exs[i].name, i == c.exercise)) c.exercise = i, c.tile = 0;
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
    if (app.recording) app.drawn["check"] = {{"verdict", "checking"}, {"status", check_status_text(at, stopping)}};
}

// The verdict, what was checked, and the evidence's words (message, race, compiler output).
void draw_verdict(const checker::CheckResult& r) {
    fit::Colored(verdict_colour(r.verdict), checker::to_string(r.verdict));
    const std::string about = fmt::format(" {}: {} exercise, T = {}, {} backend, {:.1f} s, seed {:#x}", r.file, r.exercise,
                                          r.tile, r.backend, r.seconds, static_cast<unsigned long long>(r.seed));
    fit::SameLineIfFits(fit::TextWidth(about));
    fit::Wrapped(about);
    const checker::Evidence& e = r.evidence;
    if (!e.message.empty()) fit::Wrapped(e.message);
    if (e.race)
        fit::Wrapped(fmt::format("race: block ({}, {}, {}), barrier interval {}, threads ({}, {}, {}) and ({}, {}, {})",
                                 e.race->block[0], e.race->block[1], e.race->block[2], e.race->interval,
                                 e.race->thread_a[0], e.race->thread_a[1], e.race->thread_a[2], e.race->thread_b[0],
                                 e.race->thread_b[1], e.race->thread_b[2]));
    if (!e.compiler_output.empty() && e.compiler_output != e.message + "\n")
        fit::Wrapped(e.compiler_output);
}

// The evidence's slice map as coloured squares with their key; `rows` are its rows, first y first.
void draw_slice_map(const checker::Evidence& e, const std::vector<std::string>& rows, bool lecture) {
    if (rows.empty()) return;
    const float fs = ImGui::GetFontSize();
    const int nx = (int)std::max_element(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
                       return a.size() < b.size();
                   })->size();
    const int ny = (int)rows.size();
    fit::Wrapped(e.slice_map.substr(0, e.slice_map.find(" (")));
    // The map's header counts y downwards (text rows); the squares put y = 0 at the bottom.
    std::string header = e.slice_map.substr(0, e.slice_map.find('\n'));
    if (auto d = header.find(" down;"); d != std::string::npos) header.replace(d, 6, " up;");
    HelpMarker(header.c_str());
    const float cell = std::clamp(fs * (lecture ? 16 : 10) / std::max(nx, ny), 4.0f, lecture ? fs * 2 : fs);
    DrawCellGrid("##slice", nx, ny, cell, [&](int x, int y) {
        const std::string& row = rows[(size_t)y];
        return cell_colour(x < (int)row.size() ? row[(size_t)x] : ' ');
    });
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

// Every test, ok or FAIL with its output, in a scrolled child. Returns how many failed.
int draw_tests(const checker::CheckResult& r) {
    fit::Text("tests");
    int failed = 0;
    if (ImGui::BeginChild("##tests", ImVec2(0, 0), false)) {
        for (const auto& t : r.tests) {
            failed += !t.passed;
            fit::Colored(t.passed ? ImVec4(0.0f, 0.75f, 0.5f, 1.0f) : ImVec4(0.95f, 0.45f, 0.2f, 1.0f),
                         t.passed ? "ok  " : "FAIL");
            ImGui::SameLine();
            fit::Wrapped(t.name + (t.passed ? "" : ": " + t.output));
        }
    }
    fit::CheckWindow("tests");
    ImGui::EndChild();
    return failed;
}

}  // namespace

void draw_check_panel(App& app) {
    auto& c = app.check;
    const bool busy = c.checking.valid();
    const auto exs = checker::exercises();
    const bool lecture = app.ui.lecture;
    if (!lecture) {
        draw_check_controls(app, exs, busy);
        fit::Wrapped(exs[c.exercise].summary);
    } else {
        app.ui.status = {c.checked_path, fmt::format("exercise {}", exs[c.exercise].name)};
    }
    const std::string mismatch = exercise_mismatch(c.guess, exs[c.exercise].name);
    if (!mismatch.empty()) fit::Colored(ImVec4(0.95f, 0.75f, 0.3f, 1.0f), "note: " + mismatch);
    if (busy) {
        draw_check_progress(app);
        return;
    }
    if (!c.error.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.95f, 0.45f, 0.2f, 1.0f));
        fit::Wrapped(c.error);
        ImGui::PopStyleColor();
        if (app.recording) app.drawn["check"] = {{"verdict", "error"}, {"error", c.error}, {"mismatch", mismatch}};
        return;
    }
    if (!c.result) {
        fit::Disabled("No check yet: pick a file and an exercise, then Check.");
        return;
    }
    const checker::CheckResult& r = *c.result;
    ImGui::Separator();
    // The figure: the verdict with its evidence and every test, down to the panel's foot.
    fit::BeginFigure();
    draw_verdict(r);
    const checker::Evidence& e = r.evidence;
    const auto rows = slice_rows(e.slice_map);
    draw_slice_map(e, rows, lecture);
    draw_loads_time_warnings(r);
    ImGui::Separator();
    const int failed = draw_tests(r);
    fit::EndFigure();
    if (app.recording)
        app.drawn["check"] = {{"verdict", checker::to_string(r.verdict)}, {"tests", r.tests.size()},
                              {"failed", failed}, {"map_rows", rows.size()}, {"message", e.message},
                              {"exercise", r.exercise}, {"suggested", c.guess ? c.guess->name : ""},
                              {"mismatch", mismatch}};
}

}  // namespace stencil::viewer
