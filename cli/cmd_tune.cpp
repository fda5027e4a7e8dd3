// `stencil-lab tune --kernel K [--radius R] [--precision P] [--size N] [--backend B] [--reps K]
// [--cache FILE] [--fresh] [--out DIR] [--json]`: every configuration the version exposes, checked,
// then timed on a GPU (ranked by the model's traffic on the CPU backend), the best with the
// spread; results cached and resumable (experiments/tune.h).
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

#include "cli/command.h"
#include "cli/measuring_backend.h"
#include "cli/suggest.h"
#include "core/disk_cache.h"
#include "core/error.h"
#include "core/progress.h"
#include "experiments/sweep.h"
#include "experiments/tune.h"

namespace stencil::cli {
namespace {

struct TuneArgs {
    std::string kernel;
    int radius = 1;
    std::string precision = "f32";
    int size = 0, reps = 0;  // unless given: 256 and 20 on the GPU, 16 and 1 on the CPU backend
    bool size_given = false, reps_given = false;
    std::string backend = "auto";
    std::string cache;       // default: <the lab's cache folder>/tune.json
    bool fresh = false, no_cache = false, json = false;
    std::string out;
};

std::string default_cache_file() {
    const CacheRoot root = cache_root();
    if (root.path.empty()) return {};
    std::error_code ec;
    std::filesystem::create_directories(root.path, ec);
    return ec ? std::string() : (root.path / "tune.json").string();
}

void print_text(const experiments::TuneResult& r, const std::string& cache) {
    fmt::print("tune {} r={} {} N={} on {} ({}): {} configurations\n", version(r.kernel).name, r.radius,
               to_string(r.precision), r.size, r.device, r.backend, r.tried.size());
    for (size_t i = 0; i < r.tried.size(); ++i) {
        const auto& t = r.tried[i];
        const char* mark = r.best && *r.best == i ? "*" : " ";
        if (!t.skipped.empty()) {
            fmt::print(" {} {:<14} skipped: {}\n", mark, t.label(), t.skipped);
        } else if (!t.ok) {
            fmt::print(" {} {:<14} FAILED the check: {}\n", mark, t.label(), t.check);
        } else if (t.timed) {
            fmt::print(" {} {:<14} {:8.4f} ms (min {:.4f}, max {:.4f}){}  {:7.1f} GB/s  copy x{:.2f}  "
                       "model {:6.2f} B/output{}\n", mark, t.label(), t.ms_median, t.ms_min, t.ms_max,
                       t.steps > 1 ? fmt::format(", {} steps: {:.4f} ms a step", t.steps, t.ms_median / t.steps) : "",
                       t.gbps, t.copy_ratio, t.requested_bytes_per_output, t.from_cache ? "  (cached)" : "");
        } else {
            fmt::print(" {} {:<14} checked ok; model {:6.2f} requested B/output, {:.2f} sectors/request{}\n", mark,
                       t.label(), t.requested_bytes_per_output, t.sectors_per_request, t.from_cache ? "  (cached)" : "");
        }
    }
    if (r.best) fmt::print("best: {} ({})\n", r.tried[*r.best].label(), r.ranking);
    else fmt::print("best: none (no configuration passed its check)\n");
    if (!cache.empty()) fmt::print("cache: {}\n", cache);
}

int tune_command(const TuneArgs& a) {
    // Everything checked before anything runs.
    experiments::TuneOptions o;
    if (a.kernel.empty()) throw UserError(fmt::format("tune needs --kernel (one of {})", version_names()));
    const KernelVersion* v = find_version(a.kernel);
    if (!v) throw UserError(unknown_choice("kernel", a.kernel, version_names()));
    o.kernel = v->id;
    const auto p = parse_precision(a.precision);
    if (!p) throw UserError(fmt::format("unknown precision '{}' (choose f32 or f64)", a.precision));
    o.precision = *p;
    o.radius = a.radius;
    if (a.size_given)
        if (auto e = grid_error({a.size, a.size, a.size}, a.radius)) throw UserError(*e);
    if (!a.out.empty()) experiments::check_output_dir(a.out);
    if (!a.cache.empty()) check_output_file(a.cache, "--cache");
    o.cache_file = a.no_cache ? "" : a.cache.empty() ? default_cache_file() : a.cache;
    o.fresh = a.fresh;

    MeasuringBackend m = measuring_backend(a.backend, a.size_given ? a.size : 0, a.reps_given ? a.reps : 0);
    auto& backend = m.backend;
    o.size = m.size;
    o.reps = m.reps;
    o.warmup = m.warmup;
    std::optional<Progress> progress;
    if (!a.json)
        o.progress = [&progress](int done, int total, const std::string& what) {
            if (!progress) progress.emplace("tune", total);
            progress->update(done, what);
        };
    const auto result = experiments::run_tune(*backend, o);
    if (progress) progress->finish();
    std::optional<experiments::TuneOutputs> written;
    if (!a.out.empty()) written = experiments::write_tune_outputs(result, a.out);
    if (a.json) {
        std::cout << result.to_json().dump(1) << "\n";
    } else {
        print_text(result, o.cache_file);
        if (written) fmt::print("wrote {}/tune.json; {}\n", a.out, written->plot_note);
    }
    return result.best ? 0 : 1;
}

const Command tune_cmd("tune", 50, [](CLI::App& app) -> std::function<int()> {
    app.description("find the best configuration (tile; block shape where the version takes one) of one version for one grid: each checked, timed on a GPU");
    auto a = std::make_shared<TuneArgs>();
    app.add_option("--kernel,-k", a->kernel, "the version to tune (required): " + version_names());
    add_int_option(app, "--radius,-r", a->radius, 1, kMaxRadius, "stencil radius r, 1..4")->capture_default_str();
    app.add_option("--precision,-p", a->precision, "f32 or f64")->capture_default_str();
    auto* size_opt = add_int_option(app, "--size,-n", a->size, 1, kMaxSide,
                                    "N of the N^3 grid (default 256 on the GPU, 16 on the CPU)");
    auto* reps_opt = add_int_option(app, "--reps", a->reps, 1, kMaxReps,
                                    "timed launches per configuration (default 20 GPU, 1 CPU)");
    add_backend_option(app, a->backend);
    add_problem_option(app);
    auto* cache_opt = app.add_option("--cache", a->cache, "the results cache (default: the lab's cache folder, tune.json)");
    app.add_flag("--fresh", a->fresh, "measure every configuration again (the cache is still updated)");
    app.add_flag("--no-cache", a->no_cache, "neither read nor write a cache")->excludes(cache_opt);
    app.add_option("--out,-o", a->out, "write tune.json and the plot of the search (tune.png, .svg) here");
    app.add_flag("--json", a->json, "print the result as JSON ({\"best\": ..., \"tried\": [...]})");
    return [a, size_opt, reps_opt] {
        a->size_given = size_opt->count() > 0;
        a->reps_given = reps_opt->count() > 0;
        return tune_command(*a);
    };
});

}  // namespace
}  // namespace stencil::cli
