// The viewer's state: what the panels read. Panels (panel_*.cpp) draw from it and call the
// App's set_*() functions when the user changes something; those recompute (through
// stencil_viewer_core) only what that change affects. Nothing here is recomputed per frame.
#pragma once
#include <future>
#include <optional>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "checker/checker.h"
#include "viewer/core/figures.h"
#include "viewer/core/jobs.h"
#include "viewer/core/kernel_source.h"
#include "viewer/core/measure.h"
#include "viewer/core/model_view.h"
#include "viewer/core/plot_math.h"
#include "viewer/core/results.h"
#include "viewer/core/stepper.h"
#include "viewer/core/warp_map.h"

namespace stencil::viewer {

enum class PanelId { stepper, opb, halos, coalescing, runs, check, cardiac };
inline constexpr int kPanels = 7;
const char* panel_name(PanelId p);   // "stepper", "opb", ... (the --panel spelling)
const char* panel_title(PanelId p);  // window titles

// The user's UI options (Tracy's ViewData): font, scale, which panels are open.
struct UiOptions {
    float font_px = 20.0f;       // --font, 14..40 at 96 dpi; multiplied by the monitor's content scale
    float content_scale = 1.0f;  // from glfwGetWindowContentScale (high-DPI)
    bool font_dirty = true;      // rebuild the font atlas before the next frame
    // The check panel starts closed (View menu, or --panel check / --check FILE): the other five
    // are what goes on the projector.
    bool open[kPanels] = {true, true, true, true, true, false, false};
    bool relayout = true;        // place the open windows on the next frame
    int solo = -1;               // presentation: this panel fills the window (--present)
    bool focus_pending = false;  // focus the presented panel on the next frame (Page Down / Up)
};

// The stepper's block, shared with the coalescing panel (same trace).
struct Experiment {
    StepperConfig cfg;             // what the controls show; trace.cfg is what is displayed
    TraceWorker tracer;            // traces cfg off the UI thread (App::set_config / poll)
    std::optional<int> step_after_trace;  // step to show when the trace arrives (< 0: from the end)
    StepperTrace trace;
    StepperState state;
    int step = 0;
    KernelSource source;
    std::vector<LineRange> lines;  // of the current interval
    int warp = 0;
    int request = 0;               // selected request of the warp
    std::vector<WarpLoad> warp_loads;
    std::vector<std::string> request_labels;  // one per warp_loads entry, formatted in set_warp
    WarpSummary warp_summary, block_summary;
    WarpPrediction prediction;
    std::vector<int> runnable;     // T choices for cfg.kernel
    int slice = 0;                 // z slice in the coalescing panel's colour map
};

struct OpbData {
    int radius = 1;
    Precision precision = Precision::f32;
    bool log_y = false;
    bool legend = true;              // the chart's legend (toggle: it can cover points on a projector)
    OpbFigure fig;                   // rebuilt by App::rebuild_opb on a change only
    std::string help;                // the model's HelpMarker text (formatted once, with fig)
    std::future<std::vector<TraceOpb>> measuring;
    std::vector<TraceOpb> measured;
    GridDims measure_dims{48, 48, 48};
};

struct HaloData {
    int tile = 8, radius = 1, dims = 3;
    int slice = -1;   // z of the 3D tile shown (< 0: the middle)
    HaloFigure view;  // rebuilt by App::rebuild_halos on a change only
};

struct RunsData {
    JobRunner runner;
    std::vector<RunRecord> records;
    int backend = 2;  // 0 auto, 1 cuda, 2 cpu
    KernelId kernel = KernelId::tiled;
    int tile = 8, radius = 1;
    Precision precision = Precision::f32;
    int n[3] = {64, 64, 64};
    int reps = 3;
    std::string message;
    char path[512] = "results.json";
    int selected = -1;
};

// A student's submission checked as `stencil-lab check` does (checker/checker.h), on a worker
// thread: the checker runs the submission in a child process under a time limit, so the window
// stays live and nothing of the submission runs in the viewer.
struct CheckPanelData {
    char path[512] = "exercises/find-the-race/stencil.cu";
    int exercise = 0;  // index into checker::exercises()
    int tile = 0;      // 0: the exercise's default
    int backend = 0;   // 0 auto, 1 cuda, 2 cpu
    std::future<checker::CheckResult> checking;
    std::optional<checker::CheckResult> result;
    std::string error;  // a usage error (no such file, bad tile): the checker's one line
    std::string checked_path;
};

struct App {
    std::string exe_dir;
    UiOptions ui;
    Experiment exp;
    OpbData opb;
    HaloData halo;
    RunsData runs;
    CheckPanelData check;
    std::optional<std::string> gpu_unavailable;  // why GPU figures are greyed out
    // --screenshot: panels note what they drew (series and point counts, the step, counts) into
    // `drawn`, written beside the PNG as a sidecar the screenshot tests check. Off otherwise.
    bool recording = false;
    nlohmann::json drawn = nlohmann::json::object();

    void init(const std::string& exe_dir);
    // stepper / coalescing
    void set_config(StepperConfig c);  // asks the tracer for the block (the old trace stays shown)
    void install_trace(TraceResult r);  // the new trace arrived (from poll)
    void finish_trace();               // waits for the trace in flight and installs it (--screenshot)
    bool tracing() const { return exp.tracer.busy(); }
    void set_step(int step);
    void set_warp(int warp);
    // OP/B
    void rebuild_opb();
    void start_trace_measurement();
    void poll();                       // collects finished background work (cheap)
    // halos
    void rebuild_halos();
    // runs
    void start_runs(bool sweep);
    bool load_results_file();          // false (and runs.message says why) on failure
    // Background work in flight (a run, a trace, a trace measurement): the main loop keeps polling.
    bool busy() const {
        return opb.measuring.valid() || runs.runner.running() || tracing() || check.checking.valid();
    }
    // check
    void start_check();
    void finish_check();               // waits for the check in flight (--screenshot)
    void save_results_file();
};

}  // namespace stencil::viewer
