// [SECTION] Timeline panel: the stepper's block over time, one row per warp (load, wait at the
// barrier, compute, store), the barriers' releases as lines; tiled or coarsened (its z-march: two
// barriers per plane). From the GPU (an instrumented launch, clock64 cycles) when asked and
// possible, with the timing model's beside it; else modelled from the CPU engine's trace
// (viewer/core/timing_model.h, labelled "modelled"), or the engine's own steps when asked. Zoom
// with the mouse wheel or the buttons; drag to pan.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

#include "viewer/core/colormap.h"
#include "viewer/fit.h"
#include "viewer/panels.h"

namespace stencil::viewer {

namespace {

// "step" -> "steps"; "cycles" and "ns" are already what a count of them says.
std::string plural(const std::string& unit) { return unit.empty() || unit.back() == 's' ? unit : unit + "s"; }

Rgb phase_colour(TimelinePhase p) {
    switch (p) {
        case TimelinePhase::load: return palette::loaded;
        case TimelinePhase::wait: return palette::reloaded;
        case TimelinePhase::compute: return palette::output;
        case TimelinePhase::store: return {0.94f, 0.89f, 0.26f};
    }
    return palette::idle;
}

// The kernels with an instrumented GPU launch; the CPU trace's fallback shows the same ones (the
// stepper's block: choosing here changes the stepper's kernel too).
void kernel_choice(App& app) {
    const StepperConfig& c = app.exp.cfg;
    const bool lab = c.kernel_file.empty();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9);
    if (ImGui::BeginCombo("kernel##timeline", lab ? version(c.kernel).name : "a student's")) {
        for (KernelId k : gpu_timeline_kernels())
            if (ImGui::Selectable(version(k).name, lab && k == c.kernel)) {
                StepperConfig n = c;
                n.kernel = k;
                n.tile = std::min(version(k).default_tile, 8);
                n.kernel_file.clear();
                n.exercise.clear();
                app.set_config(n);
            }
        ImGui::EndCombo();
    }
    HelpMarker("tiled: one barrier between the load and the compute. coarsened: the block marches z, two barriers "
               "per plane (the plane's load, then the shift of the 2r+1 planes): the z-march's barrier cost plane "
               "by plane. The stepper's block, on the GPU or in the CPU engine's trace.");
}

void source_controls(App& app) {
    auto& e = app.exp;
    kernel_choice(app);
    if (ImGui::Button("modelled")) {
        e.timeline = e.modelled;
        e.window = {0, std::max(1.0, e.timeline.end)};
        e.gpu_timeline_why.clear();
    }
    HelpMarker("The CPU engine's trace of the block replayed warp by warp with a GPU's costs: an instruction's "
               "issue, a global load's sectors through the block's memory pipe and its latency, a shared load's "
               "latency, an output's chain of FMAs, a barrier's release after its last warp (viewer/core/"
               "timing_model.h). A model, not a measurement: it shows where warps wait, not how long a GPU takes.");
    fit::SameLineIfFits(fit::ButtonWidth("the engine's steps"));
    if (ImGui::Button("the engine's steps")) {
        e.timeline = timeline_from_trace(e.trace);
        e.window = {0, std::max(1.0, e.timeline.end)};
        e.gpu_timeline_why.clear();
    }
    HelpMarker("The CPU engine runs a block's threads one at a time: its clock is the stepper's step (one "
               "instruction of the block). A warp waits from its last step before a barrier to the barrier's release.");
    fit::SameLineIfFits(fit::ButtonWidth("record on the GPU"));
    if (ImGui::Button("record on the GPU")) {
        std::string why;
        if (auto s = record_gpu_stamps(e.trace.cfg, &why)) {
            e.timeline = timeline_from_stamps(*s);
            e.window = {0, std::max(1.0, e.timeline.end)};
            e.gpu_timeline_why.clear();
        } else {
            e.gpu_timeline_why = why;
        }
    }
    HelpMarker("The lab's tiled or coarsened kernel, built with stamps at its phase marks, records clock64 and %globaltimer at six marks "
               "per warp of the stepper's block (start, loaded, at the barrier, released, computed, stored; coarsened: "
               "per plane of its z-march) into a device buffer: the hardware's own timeline "
               "(backends/cuda/block_timeline.h).");
    if (!e.gpu_timeline_why.empty()) Greyed("GPU timeline:", e.gpu_timeline_why);
}

void zoom_controls(App& app) {
    auto& e = app.exp;
    const double end = std::max(1.0, e.timeline.end);
    const double mid = (e.window.from + e.window.to) / 2;
    if (ImGui::Button("zoom in")) e.window = zoom_window(e.window, mid, 2, end);
    fit::SameLineIfFits(fit::ButtonWidth("zoom out"));
    if (ImGui::Button("zoom out")) e.window = zoom_window(e.window, mid, 0.5, end);
    fit::SameLineIfFits(fit::ButtonWidth("whole block"));
    if (ImGui::Button("whole block")) e.window = {0, end};
    const std::string shown =
        fmt::format("{:.0f} .. {:.0f} of {:.0f} {}", e.window.from, e.window.to, end, plural(e.timeline.unit));
    fit::SameLineIfFits(fit::TextWidth(shown));
    fit::Text(shown);
    HelpMarker("Mouse wheel over the chart: zoom about the pointer; drag: pan.");
}

// `lecture`: the rows take all the height there is (else at most a line each); `height`: the room
// (0: what is left of the panel). `window` is zoomed and panned by the mouse.
void chart(const BlockTimeline& tl, TimeWindow& window, bool lecture, float height = 0) {
    const float fs = ImGui::GetFontSize();
    const float label_w = fit::TextWidth("w00 ");
    ImVec2 avail = ImGui::GetContentRegionAvail();
    if (height > 0) avail.y = std::min(avail.y, height);
    const int n = (int)tl.warps.size();
    const float row_h = std::clamp((avail.y - fs * 2) / std::max(1, n), fs * 0.35f, lecture ? fs * 4 : fs * 1.2f);
    const float width = std::max(fs * 4, avail.x - label_w - 4);
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImGui::PushID(&tl);
    ImGui::InvisibleButton("##timeline", ImVec2(label_w + width, row_h * n + fs * 1.5f));
    ImGui::PopID();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float x0 = p.x + label_w;
    const ImVec2 lo(x0, p.y), hi(x0 + width, p.y + row_h * n);
    dl->PushClipRect(lo, ImVec2(hi.x, hi.y + fs * 1.5f), true);
    const TimeWindow& w = window;
    std::string hover;
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    for (int r = 0; r < n; ++r) {
        const float y = p.y + r * row_h;
        for (const auto& s : tl.warps[r]) {
            if (s.end < w.from || s.begin > w.to) continue;
            const float a = (float)w.x_of(s.begin, x0, width), b = std::max(a + 1.0f, (float)w.x_of(s.end, x0, width));
            dl->AddRectFilled(ImVec2(a, y + 1), ImVec2(b, y + row_h - 1), pack(phase_colour(s.phase)));
            if (ImGui::IsItemHovered() && mouse.x >= a && mouse.x < b && mouse.y >= y && mouse.y < y + row_h)
                hover = fmt::format("warp {}: {} from {:.0f} to {:.0f} {}s (interval {})", r, to_string(s.phase),
                                    s.begin, s.end, tl.unit, s.interval);
        }
    }
    for (double b : tl.barriers)
        if (b >= w.from && b <= w.to) {
            const float x = (float)w.x_of(b, x0, width);
            dl->AddLine(ImVec2(x, lo.y), ImVec2(x, hi.y), IM_COL32(255, 255, 255, 200), 2);
        }
    dl->PopClipRect();
    // Warp labels, as many as the rows have room for.
    const int every = std::max(1, (int)std::ceil(fs / row_h));
    for (int r = 0; r < n; r += every)
        fit::DrawText(dl, ImVec2(p.x, p.y + r * row_h + (row_h - fs) / 2), IM_COL32(220, 220, 220, 255),
                      fmt::format("w{}", r), ImVec2(p.x, p.y - fs), ImVec2(x0, hi.y + fs));
    // Time ticks at the window's ends.
    fit::DrawText(dl, ImVec2(x0, hi.y + 2), IM_COL32(200, 200, 200, 255), fmt::format("{:.0f}", w.from), lo,
                  ImVec2(hi.x, hi.y + fs * 1.5f));
    const std::string to = fmt::format("{:.0f} {}", w.to, plural(tl.unit));
    fit::DrawText(dl, ImVec2(hi.x - ImGui::CalcTextSize(to.c_str()).x, hi.y + 2), IM_COL32(200, 200, 200, 255), to,
                  lo, ImVec2(hi.x, hi.y + fs * 1.5f));
    if (!hover.empty()) ImGui::SetTooltip("%s", hover.c_str());
    // Wheel zooms about the pointer, a drag pans.
    const double end = std::max(1.0, tl.end);
    if (ImGui::IsItemHovered() && ImGui::GetIO().MouseWheel != 0) {
        const double at = w.from + (mouse.x - x0) / width * (w.to - w.from);
        window = zoom_window(w, at, ImGui::GetIO().MouseWheel > 0 ? 1.5 : 1 / 1.5, end);
    }
    if (ImGui::IsItemActive() && ImGui::IsMouseDragging(0)) {
        const double shift = -ImGui::GetIO().MouseDelta.x / width * (w.to - w.from);
        const double span = w.to - w.from;
        const double from = std::clamp(w.from + shift, 0.0, end - span);
        window = {from, from + span};
    }
}

// The timeline; a GPU's measured one with the model's beside it (under it, on its own time axis).
// Returns whether the model's was drawn beside.
bool charts(App& app, bool measured, bool lecture) {
    auto& e = app.exp;
    const bool beside = measured && !e.modelled.empty();
    const float fs = ImGui::GetFontSize();
    chart(e.timeline, e.window, lecture, beside ? (ImGui::GetContentRegionAvail().y - fs * 1.5f) * 0.55f : 0);
    if (!beside) return false;
    static TimeWindow modelled_window;
    modelled_window = {0, std::max(1.0, e.modelled.end)};
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.95f, 0.75f, 0.3f, 1.0f));
    fit::Wrapped("modelled, from the CPU engine's trace (cycles)");
    ImGui::PopStyleColor();
    chart(e.modelled, modelled_window, lecture);
    return true;
}

}  // namespace

void draw_timeline_panel(App& app) {
    if (trace_status(app)) return;
    auto& e = app.exp;
    if (!e.trace.ok()) {
        fit::Wrapped("No trace: " + e.trace.error);
        return;
    }
    const bool lecture = app.ui.lecture;
    if (!lecture) source_controls(app);
    const auto& tl = e.timeline;
    if (tl.empty()) {
        fit::Wrapped("No timeline yet: press a button above.");
        return;
    }
    double all = 0;
    for (int p = 0; p < kTimelinePhases; ++p) all += tl.total((TimelinePhase)p);
    const double wait = tl.total(TimelinePhase::wait);
    const std::string waiting = fmt::format("{:.0f}% of the warps' time ({} warps, {} barrier{})",
                                            all > 0 ? 100 * wait / all : 0, tl.warps.size(), tl.barriers.size(),
                                            tl.barriers.size() == 1 ? "" : "s");
    // The CPU engine's clock cannot show a wait: say why, where the number is.
    const bool lockstep = tl.unit == "step";
    const bool measured = !lockstep && !tl.modelled;  // the GPU's
    const std::string title = tl.modelled ? "modelled (no GPU measured this): the CPU engine's trace with a GPU's "
                                            "issue, memory latency and barrier costs, in cycles"
                              : measured ? "measured on the GPU" : "the CPU engine's steps";
    const char* why_none =
        "The CPU engine interprets the block in lock step: every warp executes each instruction in the same step, "
        "so all reach a barrier together and none is seen waiting there. That is the engine's clock, not the "
        "kernel's: on a GPU warps run at their own pace (record on the GPU to see their wait).";
    if (lecture) {
        app.ui.status = {lockstep ? "CPU engine, in steps" : tl.modelled ? "modelled, in cycles" : "GPU, " + tl.unit,
                         "waiting at barriers: " + waiting,
                         lockstep ? "the engine runs warps in lock step: no wait can show" : ""};
    } else {
        fit::Wrapped(tl.source);
        ValueWithHelp("waiting at barriers:", waiting,
                      "sum over warps of (release - arrival) / sum over warps of the time they spent in any phase. "
                      "The tiled kernel's halo warps load, then wait and do nothing more.");
        if (lockstep) {
            ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
            fit::Wrapped(why_none);
            ImGui::PopStyleColor();
        }
    }
    fit::BeginFigure();
    Swatches({{pack(phase_colour(TimelinePhase::load)), "load"},
              {pack(phase_colour(TimelinePhase::wait)), "wait at barrier"},
              {pack(phase_colour(TimelinePhase::compute)), "compute"},
              {pack(phase_colour(TimelinePhase::store)), "store"},
              {pack({1, 1, 1}), "line: barrier released"}});
    // What the chart is, in words, over it (wrapped: a projector's 1024 pixels hold half the line).
    ImGui::PushStyleColor(ImGuiCol_Text,
                          tl.modelled ? ImVec4(0.95f, 0.75f, 0.3f, 1.0f) : ImGui::GetStyleColorVec4(ImGuiCol_Text));
    fit::Wrapped(lecture && tl.modelled ? std::string("modelled: no GPU measured this") : title);
    ImGui::PopStyleColor();
    if (!lecture) zoom_controls(app);
    const bool beside = charts(app, measured, lecture);
    fit::EndFigure();
    if (app.recording) {
        int spans = 0, wait_spans = 0;
        for (const auto& w : tl.warps) {
            spans += (int)w.size();
            for (const auto& s : w) wait_spans += s.phase == TimelinePhase::wait && s.end > s.begin;
        }
        (*app.drawn)["timeline"] = {{"kernel", e.trace.cfg.kernel_file.empty() ? version(e.trace.cfg.kernel).name : "student"},
                                 {"unit", tl.unit}, {"warps", tl.warps.size()}, {"spans", spans},
                                 {"barriers", tl.barriers.size()}, {"wait_share", all > 0 ? wait / all : 0},
                                 {"end", tl.end}, {"window_from", e.window.from}, {"window_to", e.window.to},
                                 {"lockstep_note", lockstep}, {"modelled", tl.modelled}, {"title", title},
                                 {"wait_spans", wait_spans}, {"beside_modelled", beside}};
    }
}

}  // namespace stencil::viewer
