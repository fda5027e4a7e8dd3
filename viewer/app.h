// The viewer's state: what the panels read. Panels (panel_*.cpp) draw from it and call the
// App's set_*() functions when the user changes something; those recompute (through
// stencil_viewer_core) only what that change affects. Nothing here is recomputed per frame.
#pragma once
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>

#include <string>
#include <string_view>
#include <vector>

#include "checker/checker.h"
#include "core/json_value.h"
#include "checker/exercise_guess.h"
#include "viewer/core/figures.h"
#include "viewer/core/file_open.h"
#include "viewer/core/jobs.h"
#include "viewer/core/block_timeline.h"
#include "viewer/core/timing_model.h"
#include "viewer/core/check_view.h"
#include "viewer/core/kernel_source.h"
#include "viewer/core/listing_match.h"
#include "viewer/core/measure.h"
#include "viewer/core/model_view.h"
#include "viewer/core/opb_view.h"
#include "viewer/core/plot_math.h"
#include "viewer/core/ptx_listing.h"
#include "viewer/core/results.h"
#include "viewer/core/roofline.h"
#include "viewer/core/stepper.h"
#include "viewer/core/trace_compare.h"
#include "viewer/core/warp_map.h"

namespace stencil::viewer {

using checker::ExerciseGuess;
using checker::exercise_mismatch;
using checker::guess_exercise;
using checker::read_header;

enum class PanelId { stepper, opb, halos, coalescing, runs, check, cardiac, timeline };
inline constexpr int kPanels = 8;
const char* panel_name(PanelId p);   // "stepper", "opb", ... (the --panel spelling)
const char* panel_title(PanelId p);  // window titles

// The user's UI options (Tracy's ViewData): font, scale, which panels are open.
struct UiOptions {
    float font_px = 20.0f;       // --font, 14..40 at 96 dpi; multiplied by the monitor's content scale
    bool font_follows_window = false;  // no --font: lecture mode sizes it to the window (lecture_font_px)
    bool compact_charts = false;  // a font large for the window: the charts' short labels (frame.cpp)
    float content_scale = 1.0f;  // from glfwGetWindowContentScale (high-DPI)
    bool font_dirty = true;      // rebuild the font atlas before the next frame
    // The check panel starts closed (View menu, or --panel check / --check FILE): the other five
    // are what goes on the projector.
    bool open[kPanels] = {true, true, true, true, true, false, false, false};
    bool relayout = true;        // place the open windows on the next frame
    int solo = -1;               // presentation: this panel fills the window (--present)
    bool focus_pending = false;  // focus the presented panel on the next frame (Page Down / Up)
    // Lecture mode (--lecture, the L key): one panel, its figure first and as large as the window
    // allows, its controls folded into one line or left to the keys, no menu bar, and one small
    // status line under it that the panel fills (`status`) each frame.
    bool lecture = false;
    std::vector<std::string> status;  // the panel's words, most important first (each shown if it fits)
    bool saved_open[kPanels] = {};  // the layout lecture mode replaced, restored when it ends
    int saved_solo = -1;
};

// The stepper's block, shared with the coalescing panel (same trace).
struct Experiment {
    StepperConfig cfg;             // what the controls show; trace.cfg is what is displayed
    TraceWorker tracer;            // traces cfg off the UI thread (App::set_config / poll)
    std::optional<int> step_after_trace;  // step to show when the trace arrives (< 0: from the end)
    std::optional<int> line_after_trace;  // or the first step of this source line (a finding's line)
    StepperTrace trace;
    StepperState state;
    int step = 0;
    KernelSource source;
    std::vector<LineRange> lines;  // of the current interval
    StepZoom zoom = StepZoom::instruction;  // what one step forward / back moves
    SourcePos where;               // the current step's file and line (step_source)
    KernelSource textbook;         // the row's listing as printed (bench/textbook/)
    std::vector<int> book_line;    // per line of `source`: its line in `textbook` (-1: none)
    // Source beside PTX: the engine's PTX of the traced kernel, each site's line in it, and per
    // source line (1-based) what the block did there (ptx_listing.h). Set with each trace.
    PtxListing ptx;
    std::vector<int> site_line;
    std::map<int, LineCounts> line_counts;
    bool beside_ptx = false;       // the source's neighbour: the PTX (else the textbook's listing)
    int linked_line = -1;          // a source line (1-based) chosen by a click in either listing
    int thread = -1;               // the stepper's chosen thread (its loads and stores listed)
    BlockTimeline timeline;        // the timeline panel's (modelled from the trace, or the GPU's when asked)
    BlockTimeline modelled;        // the timing model's from the trace (timing_model.h), drawn beside the GPU's
    TimeWindow window;             // its zoom
    std::string gpu_timeline_why;  // why the GPU's could not be recorded
    int warp = 0;
    int request = 0;               // selected request of the warp
    std::vector<WarpLoad> warp_loads;
    std::vector<std::string> request_labels;  // one per warp_loads entry, formatted in set_warp
    WarpSummary warp_summary, block_summary;
    WarpPrediction prediction;
    std::vector<int> runnable;     // T choices for cfg.kernel
    std::string tile_note;         // why the asked T was replaced by the nearest that runs (shown, never silent)
    int slice = 0;                 // z slice in the coalescing panel's colour map
};

struct OpbData {
    int radius = 1;
    Precision precision = Precision::f32;
    bool log_y = false;
    bool legend = true;              // the chart's legend (toggle: it can cover points on a projector)
    OpbFigure fig;                   // every series of both scales: rebuilt by App::rebuild_opb on a change only
    OpbSelection selection = selection_of(0);  // what the chart shows: a preset, or the legend's clicks
    OpbFigure view;                  // fig filtered by the selection, axes and limits fitted (opb_view.h)
    std::string help;                // the model's HelpMarker text (formatted once, with fig)
    std::string update_help;         // streaming's and temporal's bytes per update (the same)
    std::future<std::vector<TraceOpb>> measuring;
    std::vector<TraceOpb> measured;
    GridDims measure_dims{48, 48, 48};
    // The roofline tab (--roofline shows it first): its ceilings from a loaded sweep or measured here.
    bool show_roofline = false;
    Ceilings ceilings;
    std::future<Ceilings> measuring_ceilings;
    RooflineFigure roofline;         // rebuilt with fig
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
    int exercise = 0;  // index into checker::known_exercises()
    int tile = 0;      // 0: the exercise's default
    int backend = 0;   // 0 auto, 1 cuda, 2 cpu
    std::future<checker::CheckResult> checking;
    std::optional<checker::CheckResult> result;
    std::string error;  // a usage error (no such file, bad tile): the checker's one line
    std::string checked_path;
    // The check in flight: its stop flag (Cancel) and the runner's last case line, shared with
    // the worker thread (which keeps it alive while it runs).
    struct Live {
        std::atomic<bool> stop{false};
        mutable std::mutex m;
        checker::CheckProgress at;
    };
    std::shared_ptr<Live> live;
    std::optional<ExerciseGuess> guess;  // what the file at `path` suggests (set_check_path)
    // What the panel draws of `result` (viewer/core/check_view.h), made once when it arrives.
    CheckSummary summary;
    std::optional<SliceMap> map;
    std::vector<std::string> source_lines;  // the checked file, for the lines the findings name
    std::optional<std::array<int, 3>> clicked;  // the bad cell clicked on the map
    SliceView slice;                            // the backward slice shown for it
    int scroll_to_slice = 0;                    // frames left to scroll the panel to the slice
    bool slice_asked = false;                   // lecture mode: a map-less verdict's slice asked for
    std::string step_note;                      // why a finding's line could not be stepped to
    std::vector<Hint> hints;                    // the exercise README's, in the order revealed
    int hints_shown = 0;                        // "Show hint" reveals one more per click
    std::string hints_why;                      // why there are none (no README found)
    // What the command line asks to do once the result arrives (--check-cell, --check-hints).
    std::optional<std::array<int, 3>> click_on_arrival;
    int hints_on_arrival = 0;
};

// Step beside the lab: the lab's kernel of a student's exercise traced on the stepper's block, and
// the first shared cell or global store where the two differ (viewer/core/trace_compare.h).
struct BesideLab {
    std::future<StepperTrace> tracing;
    StepperConfig traced;          // the student's config the lab trace was asked for
    std::optional<StepperTrace> lab;
    TraceDifference diff;
    KernelSource lab_source;       // for the lab's line
    bool start_on_trace = false;   // --beside-lab: start once the student's trace arrives
};

// File > Open's modal (frame.cpp draws it; viewer/core/file_open.h lists the folder): a student's
// kernel for the stepper or a results file for the runs panel, handed to their loading code.
struct OpenDialog {
    bool pending = false;        // open the modal on the next frame
    OpenKind kind = OpenKind::kernel;
    char path[512] = "";
    FolderListing listing;
    std::string message;         // why the last choice could not be opened
    std::string opened;          // the last file it opened (the sidecar's)
};

struct App {
    std::string exe_dir;
    UiOptions ui;
    Experiment exp;
    OpbData opb;
    HaloData halo;
    RunsData runs;
    CheckPanelData check;
    BesideLab beside;
    OpenDialog open_dialog;
    std::optional<std::string> gpu_unavailable;  // why GPU figures are greyed out
    // --screenshot: panels note what they drew (series and point counts, the step, counts) into
    // `drawn`, written beside the PNG as a sidecar the screenshot tests check. Off otherwise.
    bool recording = false;
    JsonValue drawn = JsonValue::object();

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
    void start_ceiling_measurement();  // a copy and (CUDA) an FMA peak run, on a worker
    void poll();                       // collects finished background work (cheap)
    // halos
    void rebuild_halos();
    // runs
    void start_runs(bool sweep);
    bool load_results_file();          // false (and runs.message says why) on failure
    // Background work in flight (a run, a trace, a trace measurement): the main loop keeps polling.
    bool busy() const {
        return opb.measuring.valid() || opb.measuring_ceilings.valid() || runs.runner.running() || tracing() ||
               check.checking.valid() || beside.tracing.valid();
    }
    // check
    void start_check();
    // `path` changed: read what exercise the file suggests, and choose it when `choose`.
    void set_check_path(bool choose);
    void choose_check_exercise(std::string_view name);  // the panel's exercise; an unknown name: unchanged
    void finish_check();               // waits for the check in flight (--screenshot)
    // A saved check (--check-report, checker/report_read.h) shown as if it had just ended: its
    // file, exercise and backend chosen in the panel; the file's lines read beside the report when
    // its path, as the check was given it, does not name a file from here.
    void show_check_report(checker::CheckResult r, const std::string& report_path);
    void show_check_result();          // what the panel draws of check.result, made once
    // A click on cell (x, y, z) of the slice map: its backward slice (the first bad output's when
    // the checker cannot explain another: check_view.h slice_view).
    void click_check_cell(std::array<int, 3> cell);
    void show_next_hint();
    // The stepper's student kernel beside the lab's: traces the lab's kernel on the same block (a
    // worker), then compares (finish_beside_lab waits for it: --screenshot).
    void start_beside_lab();
    void finish_beside_lab();
    void save_results_file();
    // File > Open
    void show_open_dialog(OpenKind kind, const std::string& folder = ".");
    void list_open_folder(const std::string& folder);
    // Hands `path` to the stepper (kernel: for `exercise`, or the one the file suggests) or to the
    // runs panel (results), and shows that panel. Returns why not ("" when opened).
    std::string open_file(OpenKind kind, const std::string& path, const std::string& exercise = "");
    // The command line's File > Open (`kernel[:FILE]`, `results[:FILE]`: parse_open_request).
    std::string open_from_flag(const std::string& spec, const std::string& exercise = "");
    // A finding's line clicked in the check panel: the checked file in the stepper (for `exercise`),
    // at the first step of `line` once traced. Returns why not ("" when opened).
    std::string step_to_line(const std::string& path, const std::string& exercise, int line);
};

}  // namespace stencil::viewer
