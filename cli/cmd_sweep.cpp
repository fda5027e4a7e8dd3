// `stencil-lab sweep [--kernels a,b] [--tiles t1,t2] [--radius R] [--precision P] [--size N]
// [--backend auto|cuda|cpu] [--reps K] [--no-plots] --out DIR`: every configuration checked,
// timed and placed next to the model (experiments/sweep.h), with CSV, JSON and gnuplot plots.
// `stencil-lab sweep --replot DIR`: redraws DIR/plots/ from DIR/results.json with the current
// scripts (experiments/sweep_plots.h), running nothing.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <optional>

#include "cli/command.h"
#include "cli/measuring_backend.h"
#include "cli/suggest.h"
#include "core/progress.h"
#include "experiments/sweep.h"
#include "experiments/sweep_output.h"
#include "experiments/sweep_plots.h"
#include "core/counters.h"
#include "core/error.h"

namespace stencil::cli {
namespace {

struct SweepArgs {
    std::vector<std::string> kernels;
    std::vector<int> tiles;
    int radius = 1;
    std::string precision = "f32";
    int size = 0;  // unless given: 256 on the GPU, 16 on the CPU backend
    int reps = 0;  // unless given: 20 on the GPU, 1 on the CPU backend
    bool size_given = false, reps_given = false;
    std::string backend = "auto";
    std::string out;
    std::string replot;
    bool no_plots = false;
};

// Hardware counters and the FMA ceiling (a microbenchmark) come from the backend's Counters (the
// CUDA backend's, through CUPTI).
void add_gpu_measurements(Backend& backend, experiments::SweepOptions& o) {
    Counters* counters = backend.counters();
    if (!counters) {
        o.counters_unavailable_reason = "this backend reads no hardware counters";
        o.fma_note = "FMA peak not measured: this backend reads no hardware counters";
        return;
    }
    // One extra launch per configuration under CUPTI's range profiler (kernel replay). The
    // backend outlives the sweep, and so its counters.
    o.counters = [counters](const LaunchRequest& req) {
        std::string why;
        const auto w = random_weights(req.radius, 7).rounded_to(req.precision);
        const auto c = counters->measure(req, w, &why);
        if (!c) return analysis::counters_unavailable(why);
        analysis::HardwareCounters h;
        h.l1_global_load_requests = c->l1_global_load_requests;
        h.l1_global_load_sectors = c->l1_global_load_sectors;
        h.l2_read_bytes = 32.0 * c->l2_read_sectors;
        h.l2_write_bytes = 32.0 * c->l2_write_sectors;
        h.dram_read_bytes = c->dram_bytes_read;
        h.dram_write_bytes = c->dram_bytes_write;
        h.flops = c->flops();
        // Level 1 measured: thread-level global ld/st instructions x sizeof(real).
        h.requested_read_bytes = c->requested_read_bytes();
        h.requested_write_bytes = c->requested_write_bytes();
        if (!h.requested_read_bytes)
            h.requested_unavailable = !c->requested_unavailable.empty()
                                          ? c->requested_unavailable
                                          : "smsp__sass_data_bytes_mem_global_op_ld.sum was not collected";
        return h;
    };
    std::string fma_why;
    o.fma_gflops = counters->fma_gflops(o.precision, &fma_why);
    o.fma_note = o.fma_gflops ? "FMA peak: a kernel of independent FMA chains, this run"
                              : "FMA peak not measured: " + fma_why;
}

// The summary on stdout (failures and skips on stderr); the exit code: non-zero when nothing ran,
// a check failed or a plot could not be drawn.
int print_summary(const experiments::SweepResult& result, const experiments::SweepOptions& o) {
    int failed = 0, skipped = 0;
    for (const auto& r : result.rows) {
        if (!r.skipped.empty()) {
            ++skipped;
            fmt::print(stderr, "skipped {} T={}: {}\n", version(r.request.kernel).name, r.request.tile, r.skipped);
        } else if (r.run && !r.run->ok) {
            ++failed;
            fmt::print(stderr, "FAILED {} T={}: {}\n", version(r.request.kernel).name, r.request.tile,
                       r.run->check_line());
        }
    }
    fmt::print("sweep on {} ({}), N = {}: {} configurations, {} skipped, {} failed the check\n",
               result.device, result.backend, o.size, result.rows.size(), skipped, failed);
    for (const auto& r : result.rows)
        if (r.run && r.run->timed)
            fmt::print("  {:<15} T={:<3} model OP/B {:6.3f}  requested OP/B {:6.3f}  {:9.4g} ms  {:8.4g} GB/s  "
                       "copy x{:.2f}\n",
                       version(r.request.kernel).name, r.request.tile, r.model.opb,
                       r.measured && r.measured->level("requested").opb ? *r.measured->level("requested").opb : 0.0,
                       r.run->ms.median, r.run->gbps, r.run->copy_ratio);
    fmt::print("wrote {}/results.csv and results.json; {}\n", o.out_dir, result.plots_note);
    for (const auto& f : result.plot_failures) fmt::print(stderr, "plot {}\n", f);
    if (result.backend == "cpu")
        fmt::print("note: CPU backend times are the emulator's; L2/DRAM levels need the GPU's counters\n");
    const int ran = int(result.rows.size()) - skipped;
    if (ran == 0) {
        fmt::print(stderr, "sweep: no configuration ran\n");
        return 1;
    }
    // Non-zero when any check failed or a plot could not be drawn: a script must notice.
    return failed || !result.plot_failures.empty() ? 1 : 0;
}

// Redraws a sweep folder's figures from its results.json; runs no kernel.
int replot_command(const std::string& dir) {
    const auto p = experiments::replot_sweep(dir);
    fmt::print("redrew {}/plots from results.json: {} files; {}\n", dir, p.files.size(), p.note);
    for (const auto& f : p.failures) fmt::print(stderr, "plot {}\n", f);
    return p.failures.empty() ? 0 : 1;
}

int sweep_command(const SweepArgs& a) {
    // Every option is checked before anything runs (a backend is made, a kernel launched).
    experiments::SweepOptions o;
    for (const auto& k : a.kernels) {
        const KernelVersion* v = find_version(k);
        if (!v) throw UserError(unknown_choice("kernel", k, version_names()));
        o.kernels.push_back(v->id);
    }
    o.tiles = a.tiles;  // each in 1..kMaxTile (parsed below)
    const auto p = parse_precision(a.precision);
    if (!p) throw UserError(fmt::format("unknown precision '{}' (choose f32 or f64)", a.precision));
    o.precision = *p;
    o.radius = a.radius;  // (--radius, --size and --reps are range-checked by the parser)
    if (a.out.empty()) throw UserError("sweep needs --out DIR (where the results go) or --replot DIR");
    if (a.size_given) {
        if (auto e = grid_error({a.size, a.size, a.size}, a.radius)) throw UserError(*e);
    }
    experiments::check_output_dir(a.out);  // before any work: a folder that cannot be written fails now

    MeasuringBackend m = measuring_backend(a.backend, a.size_given ? a.size : 0, a.reps_given ? a.reps : 0);
    auto& backend = m.backend;
    const bool gpu = m.gpu;
    o.size = m.size;
    o.reps = m.reps;
    o.warmup = m.warmup;
    o.out_dir = a.out;
    const bool plots = !a.no_plots;
    if (gpu) add_gpu_measurements(*backend, o);
    // The total is known once the sweep has planned its configurations: the display starts then.
    std::optional<Progress> progress;
    o.progress = [&progress](int done, int total, const std::string& what) {
        if (!progress) progress.emplace("sweep", total);
        progress->update(done, what);
    };

    auto result = experiments::run_sweep(*backend, o);
    if (progress) progress->finish();
    experiments::write_sweep_outputs(result, o.out_dir, plots);

    return print_summary(result, o);
}

// A comma-separated list; an empty item (",", "a,,b", a trailing comma) is a mistake, not "all".
std::vector<std::string> split(const std::string& s, const char* option) {
    std::vector<std::string> out;
    if (s.empty()) return out;
    std::string cur;
    for (char c : s + ",") {
        if (c == ',') {
            if (cur.empty())
                throw UserError(fmt::format("{} '{}': an empty item in the comma-separated list", option, s));
            out.push_back(cur);
            cur.clear();
        } else if (c != ' ') cur += c;
    }
    return out;
}

const Command sweep_cmd("sweep", 40, [](CLI::App& app) -> std::function<int()> {
    app.description("check and time every (kernel, T); model vs measured OP/B; CSV, JSON and plots");
    auto a = std::make_shared<SweepArgs>();
    auto kernels = std::make_shared<std::string>();
    auto tiles = std::make_shared<std::string>();
    app.add_option("--kernels", *kernels, "comma-separated versions (default: all): " + version_names());
    app.add_option("--tiles", *tiles, "comma-separated T (default: a spread per kernel)");
    add_int_option(app, "--radius,-r", a->radius, 1, kMaxRadius, "stencil radius r, 1..4")->capture_default_str();
    app.add_option("--precision,-p", a->precision, "f32 or f64")->capture_default_str();
    auto* size_opt = add_int_option(app, "--size,-n", a->size, 1, kMaxSide,
                                    "N of the N^3 grid (default 256 on the GPU, 16 on the CPU)");
    auto* reps_opt = add_int_option(app, "--reps", a->reps, 1, kMaxReps,
                                    "timed launches per configuration (default 20 GPU, 1 CPU)");
    auto* out_opt = app.add_option("--out,-o", a->out, "output folder (checked before anything runs)");
    auto* no_plots_opt = app.add_flag("--no-plots", a->no_plots, "write CSV and JSON only");
    add_backend_option(app, a->backend);
    add_problem_option(app);
    auto* replot_opt = app.add_option("--replot", a->replot,
                                      "redraw DIR/plots from DIR/results.json with the current scripts (runs nothing)");
    for (const char* other : {"--kernels", "--tiles", "--radius", "--precision", "--size", "--reps", "--backend"})
        replot_opt->excludes(app.get_option(other));
    replot_opt->excludes(out_opt)->excludes(no_plots_opt);
    return [a, kernels, tiles, size_opt, reps_opt] {
        if (!a->replot.empty()) return replot_command(a->replot);
        a->size_given = size_opt->count() > 0;
        a->reps_given = reps_opt->count() > 0;
        a->kernels = split(*kernels, "--kernels");
        a->tiles.clear();
        for (const auto& t : split(*tiles, "--tiles")) {
            if (auto e = int_range_error("each of --tiles", t, 1, kMaxTile, "a CUDA block has at most 1024 threads");
                !e.empty())
                throw UserError(e);
            a->tiles.push_back(std::stoi(t));
        }
        return sweep_command(*a);
    };
});

}  // namespace
}  // namespace stencil::cli
