// [SECTION] Cardiac panel: text 002's Aliev-Panfilov simulation (kernels/cardiac2d/) as a
// false-colour picture of the potential E, redrawn while it steps. The kernel, the mesh and the
// number of steps are chosen here; Run starts a worker that advances the mesh a few steps at a time
// through the GPU when one is usable, else the CPU engine (the same PTX), and publishes each state
// it reaches. The panel only draws the latest state: it computes nothing itself.
#include <fmt/format.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <thread>

#include "backends/cpu/cardiac2d_cpu.h"
#include "core/cardiac2d.h"
#include "viewer/core/colormap.h"
#include "viewer/fit.h"
#include "viewer/panels.h"

#if STENCIL_LAB_HAVE_CUDA
#include "backends/cuda/cardiac2d.h"
#endif

namespace stencil::viewer {

namespace {

// Using-declarations hide star3d's names of the same spelling (a using-directive would clash).
using cardiac2d::KernelId;
using cardiac2d::kMinSide;
using cardiac2d::spiral_initial_state;
using cardiac2d::State;
using cardiac2d::Statistics;
using cardiac2d::Stepper;
using cardiac2d::Version;
using cardiac2d::version;
using cardiac2d::versions;

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
            std::unique_ptr<Stepper> stepper;
#if STENCIL_LAB_HAVE_CUDA
            if (gpu) stepper = std::make_unique<cardiac2d::CudaStepper>();
#endif
            if (!stepper) stepper = std::make_unique<cardiac2d::CpuStepper>();
            State s = spiral_initial_state(n);
            try {
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

}  // namespace

void draw_cardiac_panel(App& app) {
    CardiacRun& r = run();
    const float fs = ImGui::GetFontSize();
    // The choices: kernel, mesh, steps, Run / Stop.
    const Version& v = version(KernelId(r.kernel));
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
    const bool gpu = !app.gpu_unavailable.has_value();
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
        DrawCellGrid("##cardiac", n, n, cell, [&](int x, int y) {
            return pack(viridis(r.shown.E[r.shown.index(x + 1, y + 1)]));
        });
    } else {
        fit::Disabled("(the panel is too small for the picture)");
    }
    if (app.recording)  // --screenshot: what this panel drew, for the test's sidecar
        app.drawn["cardiac"] = {{"kernel", v.name}, {"n", n}, {"step", r.step}, {"max_abs_E", st.max_abs_E},
                                {"l2_E", st.l2_E}, {"picture", side >= n}};
}

}  // namespace stencil::viewer
