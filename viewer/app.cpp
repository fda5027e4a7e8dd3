// The App's update functions: each recomputes, through stencil_viewer_core, what one change of
// the user's affects. Called from panels on input, never every frame.
#include "viewer/app.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "core/backend.h"
#include "core/error.h"
#include "checker/exercises.h"
#include "viewer/core/colormap.h"
#include "viewer/core/student_trace.h"

namespace stencil::viewer {

const char* panel_name(PanelId p) {
    static const char* n[] = {"stepper", "opb", "halos", "coalescing", "runs", "check", "cardiac", "timeline"};
    return n[(int)p];
}
const char* panel_title(PanelId p) {
    static const char* n[] = {"Stepper: one block, barrier by barrier", "OP/B against T",
                              "Halos: input tile vs output tile", "Coalescing: one warp's loads",
                              "Runs: time, GB/s, error", "Check a submission",
                              "Cardiac: the spiral wave of text 002", "Timeline: the block's warps over time"};
    return n[(int)p];
}

void App::init(const std::string& dir) {
    exe_dir = dir;
    gpu_unavailable = cuda_unavailable_reason();
    StepperConfig c;
    c.kernel = KernelId::tiled;
    c.tile = 8;
    c.dims = {20, 20, 20};
    c.block = {1, 1, 1};
    set_config(c);
    rebuild_opb();
    rebuild_halos();
}

void App::set_config(StepperConfig c) {
    // Keep T and the block valid for the kernel: the nearest runnable T, a block in the grid.
    exp.runnable = runnable_tiles(c.kernel, c.radius, c.precision);
    exp.tile_note.clear();
    if (!exp.runnable.empty() && std::find(exp.runnable.begin(), exp.runnable.end(), c.tile) == exp.runnable.end()) {
        int best = exp.runnable.front();
        for (int t : exp.runnable)
            if (std::abs(t - c.tile) < std::abs(best - c.tile)) best = t;
        const auto why = tile_error(c.kernel, c.tile, c.radius, c.precision);
        exp.tile_note = fmt::format("T = {} cannot run for {} ({}): showing T = {}", c.tile, version(c.kernel).name,
                                    why ? *why : "not among the tiles this build compiled", best);
        c.tile = best;
    }
    if (!version(c.kernel).takes_block) c.block_shape.reset();  // only naive's rows take a block shape
    const auto g = launch_geometry(c.kernel, c.tile, c.radius, c.precision, c.dims, c.block_shape);
    c.block.x = std::clamp(c.block.x, 0, std::max(0, g.grid.x - 1));
    c.block.y = std::clamp(c.block.y, 0, std::max(0, g.grid.y - 1));
    c.block.z = std::clamp(c.block.z, 0, std::max(0, g.grid.z - 1));
    exp.cfg = c;
    exp.tracer.request(c);  // on the worker: the panels keep the previous trace until poll() installs it
}

void App::install_trace(TraceResult r) {
    const bool kernel_changed = exp.source.lines.empty() && exp.source.error.empty()
                                    ? true
                                    : exp.trace.cfg.kernel != r.trace.cfg.kernel || exp.trace.steps.empty() ||
                                          exp.trace.cfg.kernel_file != r.trace.cfg.kernel_file;
    exp.trace = std::move(r.trace);
    if (!(exp.trace.cfg == beside.traced)) beside.lab.reset(), beside.diff = {};  // of another block
    if (beside.start_on_trace && !exp.trace.cfg.kernel_file.empty()) {
        beside.start_on_trace = false;
        start_beside_lab();
    }
    exp.block_summary = r.block_summary;
    exp.prediction = std::move(r.prediction);
    if (kernel_changed || exp.source.lines.empty()) {
        // A student's kernel is shown as its file, beside the textbook's listing of its exercise.
        exp.source = exp.trace.cfg.kernel_file.empty() ? load_kernel_source(exp.trace.cfg.kernel, exe_dir)
                                                       : read_kernel_source(exp.trace.cfg.kernel_file);
        exp.textbook = load_textbook_source(exp.trace.cfg.kernel, exe_dir);
        exp.book_line = corresponding_lines(exp.source, exp.textbook);
    }
    exp.ptx = exp.trace.ptx.empty() ? PtxListing{} : ptx_listing(exp.trace.ptx, exp.trace.ptx_entry);
    if (exp.trace.ptx.empty()) exp.ptx.error = "the PTX of a student's kernel stays in the checker's child process";
    exp.site_line = exp.ptx.ok() ? site_lines(exp.ptx, exp.trace.site_instr, exp.trace.sites) : std::vector<int>{};
    exp.line_counts = counts_by_line(exp.ptx, exp.site_line, exp.trace.acc, exp.trace.sites, exp.trace.ptx_file);
    exp.linked_line = -1;
    exp.slice = 0;
    exp.modelled = timeline_modelled(exp.trace);  // the GPU's only when asked (timeline panel)
    exp.timeline = exp.modelled;
    exp.window = {0, std::max(1.0, exp.timeline.end)};
    exp.gpu_timeline_why.clear();
    set_warp(std::min(exp.warp, std::max(0, warps_in_block(exp.trace.geo.block) - 1)));
    int step = story_step(exp.trace);  // where the picture tells the kernel's story (stepper.h)
    if (exp.step_after_trace) {
        step = *exp.step_after_trace < 0 ? exp.trace.last_step() + 1 + *exp.step_after_trace : *exp.step_after_trace;
        exp.step_after_trace.reset();
    }
    if (exp.line_after_trace) {
        if (exp.trace.ok()) step = first_step_at_line(exp.trace, *exp.line_after_trace);
        exp.line_after_trace.reset();
    }
    set_step(step);
}

void App::finish_trace() {
    exp.tracer.wait();
    if (auto r = exp.tracer.take()) install_trace(std::move(*r));
}

void App::set_step(int step) {
    exp.step = std::clamp(step, 0, std::max(0, exp.trace.last_step()));
    exp.state = stepper_state(exp.trace, exp.step);
    exp.where = step_source(exp.trace, exp.step);
    exp.lines = exp.state.interval >= 0 ? interval_lines(exp.source, exp.state.interval, exp.trace.intervals)
                                        : std::vector<LineRange>{};
}

void App::set_warp(int warp) {
    exp.warp = std::max(0, warp);
    exp.warp_loads = warp_loads(exp.trace, exp.warp);
    exp.warp_summary = summarize_loads(exp.trace, exp.warp);
    exp.request_labels.clear();
    for (size_t i = 0; i < exp.warp_loads.size(); ++i) {
        const auto& w = exp.warp_loads[i];
        exp.request_labels.push_back(fmt::format("{}: {} rows, {} sectors##{}", w.label, w.rows, w.sectors, i));
    }
    exp.request = 0;
}

void App::rebuild_opb() {
    opb.fig = opb_figure(opb.radius, opb.precision, opb.log_y, opb.measured, runs.records, gpu_unavailable);
    opb.help = fmt::format("OP/B = FLOPs / bytes loaded from global memory (loads only, as the textbook counts).\n"
                           "naive: (12r+1) / ((6r+1) sizeof(real)) = 13/28 = 0.46 for r = 1, fp32.\n"
                           "tiled and z-marching: {}\nMeasured points, colour = kernel, marker = level: requested "
                           "(CPU trace or counters), L2 and DRAM (GPU counters), each FLOPs / bytes read at that "
                           "level (the model's convention: above the model line is reuse a cache caught).\n"
                           "Model source: {}",
                           opb.fig.formula, model_provenance());
    opb.update_help = update_table_text(opb.fig.updates);
    opb.view = opb_view(opb.fig, opb.selection, opb.radius, opb.precision, opb.log_y, ui.lecture || ui.compact_charts);
    opb.roofline = roofline_figure(runs.records, opb.ceilings, opb.radius, opb.precision);
}

void App::start_ceiling_measurement() {
    if (opb.measuring_ceilings.valid()) return;
    const std::string b = runs.backend == 1 ? "cuda" : runs.backend == 2 ? "cpu" : "auto";
    opb.measuring_ceilings = std::async(std::launch::async, [b, p = opb.precision] { return measure_ceilings(b, p); });
}

void App::start_trace_measurement() {
    if (opb.measuring.valid()) return;
    const int r = opb.radius;
    const Precision p = opb.precision;
    const GridDims d = opb.measure_dims;
    opb.measuring = std::async(std::launch::async, [r, p, d] {
        std::vector<TraceOpb> out;
        for (const auto& v : kernel_versions()) {
            for (int T : runnable_tiles(v.id, r, p)) {
                if (!v.tile_is_template && T != 8) continue;  // naive, conv27: T is the block edge
                if (v.tile_is_template && T > 16) continue;  // keep it to seconds on a laptop
                out.push_back(measure_trace_opb(v.id, T, r, p, d));
            }
        }
        return out;
    });
}

void App::poll() {
    if (auto r = exp.tracer.take()) install_trace(std::move(*r));
    if (opb.measuring.valid() && opb.measuring.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
        opb.measured = opb.measuring.get();
        rebuild_opb();
    }
    if (opb.measuring_ceilings.valid() &&
        opb.measuring_ceilings.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
        opb.ceilings = opb.measuring_ceilings.get();
        rebuild_opb();
    }
    if (check.checking.valid() && check.checking.wait_for(std::chrono::seconds(0)) == std::future_status::ready)
        finish_check();
    if (beside.tracing.valid() && beside.tracing.wait_for(std::chrono::seconds(0)) == std::future_status::ready)
        finish_beside_lab();
    auto fresh = runs.runner.take_finished();
    if (!fresh.empty()) {
        runs.records.insert(runs.records.end(), fresh.begin(), fresh.end());
        rebuild_opb();
    }
}

void App::start_check() {
    if (check.checking.valid()) return;
    checker::CheckOptions o;
    const auto exs = checker::known_exercises();
    o.exercise = exs[static_cast<size_t>(std::clamp(check.exercise, 0, (int)exs.size() - 1))]->id;
    o.tile = check.tile;
    o.backend = check.backend == 1 ? "cuda" : check.backend == 2 ? "cpu" : "auto";
    o.explain = true;  // the viewer's check: the backward slice of the first bad output is worth its time
    check.checked_path = check.path;
    check.error.clear();
    check.result.reset();
    check.live = std::make_shared<CheckPanelData::Live>();
    o.stop = &check.live->stop;
    o.progress = [live = check.live](const checker::CheckProgress& p) {
        std::lock_guard l(live->m);
        live->at = p;
    };
    check.checking = std::async(std::launch::async, [o, path = check.checked_path, live = check.live] {
        return checker::check_submission(path, o);
    });
}

void App::set_check_path(bool choose) {
    std::vector<std::string> names;
    for (const auto& e : checker::exercises()) names.push_back(e.name);
    check.guess = guess_exercise(check.path, read_header(check.path), names);
    if (!choose || !check.guess) return;
    choose_check_exercise(check.guess->name);
    check.tile = 0;
}

void App::choose_check_exercise(std::string_view name) {
    const checker::Exercise* e = nullptr;
    try {
        e = checker::find_exercise(name);
    } catch (const UserError&) {  // a folder that went away or whose spec is wrong: keep the choice
    }
    if (e) {
        const auto exs = checker::known_exercises();
        check.exercise = (int)(std::find(exs.begin(), exs.end(), e) - exs.begin());
    }
}

void App::finish_check() {
    if (!check.checking.valid()) return;
    try {
        check.result = check.checking.get();
    } catch (const std::exception& e) {  // UserError: no such file, a bad --tile, no GPU
        check.error = e.what();
        return;
    }
    show_check_result();
}

void App::show_check_report(checker::CheckResult r, const std::string& report_path) {
    namespace fs = std::filesystem;
    std::string file = r.file;
    if (!fs::is_regular_file(file)) {
        const fs::path beside = fs::path(report_path).parent_path() / fs::path(r.file).filename();
        if (fs::is_regular_file(beside)) file = beside.string();
    }
    std::snprintf(check.path, sizeof check.path, "%s", file.c_str());
    set_check_path(false);
    choose_check_exercise(r.exercise);
    check.tile = r.tile;
    check.backend = r.backend == "cuda" ? 1 : 2;
    check.checked_path = file;
    check.error.clear();
    check.result = std::move(r);
    show_check_result();
}

void App::show_check_result() {
    const checker::CheckResult& r = *check.result;
    check.summary = summarize_check(r);
    check.map = parse_slice_map(r.evidence.slice_map);
    check.source_lines = read_kernel_source(check.checked_path).lines;
    check.clicked.reset();
    check.slice_asked = false;
    check.step_note.clear();
    check.slice = slice_view(r.evidence, std::nullopt, r.backend);
    check.hints_why.clear();
    check.hints = hint_order(exercise_hints(r.exercise, &check.hints_why), check.summary.fitting_hint);
    check.hints_shown = 0;
    if (check.click_on_arrival) click_check_cell(*check.click_on_arrival);
    for (int i = 0; i < check.hints_on_arrival; ++i) show_next_hint();
}

void App::click_check_cell(std::array<int, 3> cell) {
    if (!check.result) return;
    // The checker explains the first bad output only (CheckOptions has no other target): the slice
    // shown for another cell is that one, and its title says so.
    check.clicked = cell;
    check.slice = slice_view(check.result->evidence, cell, check.result->backend);
    check.scroll_to_slice = 2;
}

void App::show_next_hint() { check.hints_shown = std::min<int>(check.hints_shown + 1, (int)check.hints.size()); }

void App::start_beside_lab() {
    if (beside.tracing.valid() || exp.trace.cfg.kernel_file.empty() || !exp.trace.ok()) return;
    beside.traced = exp.trace.cfg;
    beside.lab.reset();
    beside.diff = {};
    beside.tracing = std::async(std::launch::async, [cfg = lab_config_of(exp.trace.cfg)] { return trace_block(cfg); });
}

void App::finish_beside_lab() {
    if (!beside.tracing.valid()) return;
    beside.lab = beside.tracing.get();
    beside.lab_source = load_kernel_source(beside.lab->cfg.kernel, exe_dir);
    // The stepper may have moved to another kernel or block meanwhile: compare what was asked.
    if (exp.trace.cfg == beside.traced) {
        beside.diff = first_difference(exp.trace, *beside.lab);
        if (beside.diff.found) set_step(beside.diff.student.step);  // the stepper stops there
    } else beside.diff.error = "the stepper's kernel or block changed while the lab's kernel was traced: ask again";
}

void App::rebuild_halos() { halo.view = halo_figure(halo.tile, halo.radius, halo.dims, halo.slice); }

void App::start_runs(bool sweep) {
    auto& r = runs;
    JobOptions o;
    o.backend = r.backend == 0 ? "auto" : r.backend == 1 ? "cuda" : "cpu";
    o.reps = r.reps;
    const GridDims d{r.n[0], r.n[1], r.n[2]};
    LaunchRequest one;
    one.kernel = r.kernel, one.tile = r.tile, one.radius = r.radius, one.precision = r.precision, one.dims = d;
    o.runs = sweep ? sweep_requests(r.kernel, r.radius, r.precision, d) : std::vector<LaunchRequest>{one};
    std::string why;
    if (!r.runner.start(std::move(o), &why)) r.message = why;
    else r.message.clear();
}

bool App::load_results_file() {
    try {
        ResultsFile f = load_results(runs.path);
        runs.message = fmt::format("loaded {} runs from {}{}", f.runs.size(), runs.path,
                                   f.device.empty() ? "" : " (" + f.device + ")");
        // Loading a file again replaces its rows (no duplicates); rows from elsewhere stay.
        std::erase_if(runs.records, [&](const RunRecord& r) { return r.origin == f.path; });
        runs.records.insert(runs.records.end(), f.runs.begin(), f.runs.end());
        if (!f.runs.empty()) opb.ceilings = ceilings_from_file(f);
        rebuild_opb();
        return true;
    } catch (const std::exception& e) {
        runs.message = e.what();
        return false;
    }
}

void App::save_results_file() {
    try {
        ResultsFile f;
        f.runs = runs.records;
        save_results(runs.path, f);
        runs.message = fmt::format("saved {} runs to {}", f.runs.size(), runs.path);
    } catch (const std::exception& e) {
        runs.message = e.what();
    }
}

void App::list_open_folder(const std::string& folder) {
    open_dialog.listing = list_folder(folder, open_dialog.kind);
    open_dialog.message = open_dialog.listing.error;
}

void App::show_open_dialog(OpenKind kind, const std::string& folder) {
    open_dialog.kind = kind;
    open_dialog.pending = true;
    open_dialog.message.clear();
    // Start from what that panel has now: the stepper's student file, the runs' results path.
    const std::string now = kind == OpenKind::kernel ? exp.cfg.kernel_file : std::string(runs.path);
    std::snprintf(open_dialog.path, sizeof open_dialog.path, "%s", open_error(now, kind).empty() ? now.c_str() : "");
    list_open_folder(folder);
}

// A panel the user opened a file for comes into view: presented alone when one panel is.
static void show_panel(UiOptions& ui, PanelId p) {
    if (ui.solo >= 0) {
        for (int i = 0; i < kPanels; ++i) ui.open[i] = i == (int)p;
        ui.solo = (int)p;
        ui.focus_pending = true;
    } else {
        ui.open[(int)p] = true;
    }
    ui.relayout = true;
}

std::string App::open_file(OpenKind kind, const std::string& path, const std::string& exercise) {
    if (std::string why = open_error(path, kind); !why.empty()) return open_dialog.message = why;
    if (kind == OpenKind::results) {
        std::snprintf(runs.path, sizeof runs.path, "%s", path.c_str());
        if (!load_results_file()) return open_dialog.message = runs.message;
        show_panel(ui, PanelId::runs);
    } else {
        StepperConfig c = exp.cfg;
        c.kernel_file = path;
        c.exercise = exercise;
        if (c.exercise.empty()) {  // what the file says it is for, as --kernel-file does
            std::vector<std::string> names;
            for (const auto& e : checker::exercises())
                if (e.is_star3d()) names.push_back(e.name);
            const auto g = guess_exercise(path, read_header(path), names);
            if (!g) return open_dialog.message = path + ": say which exercise it is for (the stepper's exercise box)";
            c.exercise = g->name;
        }
        if (std::string why = resolve_student_config(c); !why.empty()) return open_dialog.message = why;
        set_config(c);
        show_panel(ui, PanelId::stepper);
    }
    open_dialog.message.clear();
    open_dialog.opened = path;
    return "";
}

std::string App::step_to_line(const std::string& path, const std::string& exercise, int line) {
    if (std::string why = open_file(OpenKind::kernel, path, exercise); !why.empty()) return why;
    exp.line_after_trace = line;
    return "";
}

std::string App::open_from_flag(const std::string& spec, const std::string& exercise) {
    std::string why;
    const auto r = parse_open_request(spec, &why);
    if (!r) return why;
    if (r->path.empty()) {
        show_open_dialog(r->kind);
        return "";
    }
    // The same state as choosing the file in the dialog: its folder listed, its path typed, Open.
    open_dialog.kind = r->kind;
    std::snprintf(open_dialog.path, sizeof open_dialog.path, "%s", r->path.c_str());
    list_open_folder(std::filesystem::path(r->path).parent_path().string());
    return open_file(r->kind, r->path, exercise);
}

}  // namespace stencil::viewer
