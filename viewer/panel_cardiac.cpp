// [SECTION] Cardiac panel: text 002's Aliev-Panfilov simulation (kernels/cardiac2d/) as a
// false-colour picture of the potential E, redrawn while it steps. The kernel, the mesh and the
// number of steps are chosen here; Run starts a worker that advances the mesh a few steps at a time
// through the GPU when one is usable, else the CPU engine (the same PTX), and publishes each state
// it reaches. The panel only draws the latest state: it computes nothing itself.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <atomic>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "core/backend.h"
#include "core/cardiac2d.h"
#include "core/cardiac2d_check.h"
#include "viewer/core/colormap.h"
#include "viewer/fit.h"
#include "viewer/panels.h"
#include "viewer/plot_widget.h"

namespace stencil::viewer {

// The panel's code sits in a namespace of its own: its using-declarations, which hide star3d's
// names of the same spelling (a using-directive would clash), reach no other file of a unity batch.
namespace cardiac_panel {

using cardiac2d::KernelId;
using cardiac2d::kMinSide;
using cardiac2d::spiral_initial_state;
using cardiac2d::State;
using cardiac2d::Statistics;
using cardiac2d::Stepper;
using cardiac2d::Version;
using cardiac2d::version;
using cardiac2d::versions;

namespace {

// The run in flight and what it last reached. The worker owns the stepper; the panel reads `shown`.
struct CardiacRun {
    std::mutex m;
    State shown = spiral_initial_state(64);
    int step = 0;
    std::string error, backend = "cpu";
    std::thread worker;
    std::atomic<bool> running{false}, stop{false};

    // The panel's choices.
    int kernel = static_cast<int>(KernelId::fused);
    int n = 64;
    int steps = 2000;  // about 170 time units at n = 64: the front has curled into a spiral

    ~CardiacRun() { halt(); }
    void halt() {
        stop = true;
        if (worker.joinable()) worker.join();
        stop = false;
    }
    void start(bool gpu) {
        halt();
        std::lock_guard lock(m);
        shown = spiral_initial_state(n);
        step = 0;
        error.clear();
        running = true;
        worker = std::thread([this, gpu, k = KernelId(kernel), n = n, total = steps] {
            // A few steps per picture: the CPU engine takes about 15 ms a step at 64^2 cells, the GPU
            // microseconds (its pictures are then limited by the copies).
            const int chunk = gpu ? 20 : 5;
            State s = spiral_initial_state(n);
            try {
                std::string why;
                const std::unique_ptr<Backend> b = make_backend(gpu ? "cuda" : "cpu", &why);
                if (!b) throw std::runtime_error(why);
                const std::unique_ptr<Stepper> stepper = cardiac2d::make_stepper(*b);
                for (int done = 0; done < total && !stop;) {
                    const int now = std::min(chunk, total - done);
                    stepper->advance(k, Precision::f32, s, now);
                    done += now;
                    std::lock_guard lock(m);
                    shown = s;
                    step = done;
                    backend = stepper->backend_name();
                }
            } catch (const std::exception& e) {
                std::lock_guard lock(m);
                error = e.what();
            }
            running = false;
        });
    }
};

CardiacRun& run() {
    static CardiacRun r;
    return r;
}

// Viridis from 0 (bottom) to 1 (top) with its ends labelled: the key to the picture's colours.
void colour_bar(float w, float h) {
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float fs = ImGui::GetFontSize();
    ImGui::InvisibleButton("##colourbar", ImVec2(w, h));
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float bar_w = fs * 0.9f, top = p.y + fs * 0.6f, bottom = p.y + h - fs * 0.6f;
    constexpr int kSteps = 32;
    for (int i = 0; i < kSteps; ++i) {
        const float y0 = bottom - (bottom - top) * (i + 1) / kSteps, y1 = bottom - (bottom - top) * i / kSteps;
        dl->AddRectFilled(ImVec2(p.x, y0), ImVec2(p.x + bar_w, y1 + 1), pack(viridis((i + 0.5) / kSteps)));
    }
    const ImVec2 lo = p, hi(p.x + w, p.y + h);
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
    fit::DrawText(dl, ImVec2(p.x + bar_w + fs * 0.3f, top - fs * 0.5f), text, "E = 1", lo, hi);
    fit::DrawText(dl, ImVec2(p.x + bar_w + fs * 0.3f, bottom - fs * 0.5f), text, "E = 0", lo, hi);
}

// E along the mesh's middle row: the wave's profile, beside the picture.
void profile_plot(const State& st, float w, float h) {
    Series e;
    e.name = "E along y = n/2";
    e.colour = pack(viridis(0.85));
    const int n = st.n;
    for (int x = 0; x < n; ++x) {
        e.x.push_back(x);
        e.y.push_back(st.E[st.index(x + 1, n / 2 + 1)]);
    }
    const Axis ax{0, (double)std::max(1, n - 1), AxisScale::linear, "x (cell)"};
    const Axis ay{-0.1, 1.1, AxisScale::linear, "E along the middle row"};
    const std::vector<Series> series = {std::move(e)};
    PlotSpec spec;
    spec.id = "profile";
    spec.x = &ax;
    spec.y = &ay;
    spec.series = &series;
    spec.legend = false;
    spec.size = ImVec2(w, h);
    Plot(spec);
}

}  // namespace

// Long because it draws the panel top to bottom (ImGui's immediate mode): the choices, then the
// picture.
void draw(App& app) {
    CardiacRun& r = run();
    const float fs = ImGui::GetFontSize();
    const bool lecture = app.ui.lecture;
    const Version& v = version(KernelId(r.kernel));
    const bool gpu = !app.gpu_unavailable.has_value();
    if (lecture) {  // the picture, its colour key and the profile; space runs or stops
        if (ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows) && !ImGui::GetIO().WantTextInput &&
            ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Space))) {
            if (r.running) r.halt();
            else r.start(gpu);
        }
        std::lock_guard lock(r.m);
        const Statistics st = cardiac2d::statistics(r.shown);
        app.ui.status = {fmt::format("{}, {}x{} cells", v.name, r.shown.n, r.shown.n),
                         fmt::format("step {} of {} on {}", r.step, r.steps, r.step > 0 ? r.backend : (gpu ? "cuda" : "cpu")),
                         fmt::format("max |E| {:.3f}, L2 of E {:.3f}", st.max_abs_E, st.l2_E),
                         r.running ? "space: stop" : "space: run"};
        const ImVec2 avail = ImGui::GetContentRegionAvail();
        const int n = r.shown.n;
        const float side = std::max(1.0f, std::min(avail.y - 2, avail.x * 0.55f));
        const float cell = std::max(1.0f, side / n);
        fit::BeginFigure();
        DrawCellGrid("##cardiac", n, n, cell, [&](int x, int y) { return pack(viridis(r.shown.E[r.shown.index(x + 1, y + 1)])); });
        ImGui::SameLine();
        colour_bar(fs * 4, n * cell + 2);
        ImGui::SameLine();
        profile_plot(r.shown, std::max(fs * 8, ImGui::GetContentRegionAvail().x), n * cell + 2);
        fit::EndFigure();
        if (app.recording)
            (*app.drawn)["cardiac"] = {{"kernel", v.name}, {"n", n}, {"step", r.step}, {"max_abs_E", st.max_abs_E},
                                    {"l2_E", st.l2_E}, {"picture", true}};
        return;
    }
    // The choices: kernel, mesh, steps, Run / Stop.
    ImGui::SetNextItemWidth(fs * 9);
    if (ImGui::BeginCombo("kernel##cardiac", v.name)) {
        for (const Version& row : versions())
            if (ImGui::Selectable(row.name, row.id == v.id)) r.kernel = static_cast<int>(row.id);
        ImGui::EndCombo();
    }
    fit::SameLineIfFits(fit::LabeledWidth(fs * 7, "n"));
    ImGui::SetNextItemWidth(fs * 7);
    ImGui::SliderInt("n##cardiac", &r.n, kMinSide, 128);
    fit::SameLineIfFits(fit::LabeledWidth(fs * 7, "steps"));
    ImGui::SetNextItemWidth(fs * 7);
    ImGui::SliderInt("steps##cardiac", &r.steps, 10, 10000);
    fit::SameLineIfFits(fit::ButtonWidth(r.running ? "Stop" : "Run"));
    if (r.running ? ImGui::Button("Stop") : ImGui::Button("Run")) {
        if (r.running)
            r.halt();
        else
            r.start(gpu);
    }

    std::lock_guard lock(r.m);
    const Statistics st = cardiac2d::statistics(r.shown);
    HelpMarker("E is the transmembrane potential, coloured by viridis from 0 (dark) to 1 (yellow). The start is the "
               "assignment's: E = 1 on the right half, R = 1 on the bottom half; the broken front curls into a "
               "spiral. max |E| and L2 = sqrt(sum E^2 / n^2) are the assignment's statistics.");
    ImGui::SameLine();
    fit::Wrapped(fmt::format("{}: step {} of {} on {}, {}x{} cells", v.name, r.step, r.steps,
                             r.step > 0 ? r.backend : (gpu ? "cuda" : "cpu"), r.shown.n, r.shown.n));
    fit::Text(fmt::format("max |E| {:.3f}, L2 of E {:.3f}", st.max_abs_E, st.l2_E));
    if (!r.error.empty()) fit::Colored(ImVec4(1, 0.4f, 0.4f, 1), r.error);

    // The picture: the interior cells, y upwards, as large as the panel allows.
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const int n = r.shown.n;
    const float side = std::max(0.0f, std::min(avail.x, avail.y) - 4);
    const float cell = std::max(1.0f, side / n);
    if (side >= n) {
        fit::BeginFigure();
        DrawCellGrid("##cardiac", n, n, cell, [&](int x, int y) {
            return pack(viridis(r.shown.E[r.shown.index(x + 1, y + 1)]));
        });
        fit::EndFigure();
    } else {
        fit::Disabled("(the panel is too small for the picture)");
    }
    if (app.recording)  // --screenshot: what this panel drew, for the test's sidecar
        (*app.drawn)["cardiac"] = {{"kernel", v.name}, {"n", n}, {"step", r.step}, {"max_abs_E", st.max_abs_E},
                                {"l2_E", st.l2_E}, {"picture", side >= n}};
}

}  // namespace cardiac_panel

void draw_cardiac_panel(App& app) { cardiac_panel::draw(app); }

}  // namespace stencil::viewer
