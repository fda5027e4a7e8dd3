// `stencil-lab run --problem cardiac2d --kernel K [--size N] [--steps S] [--precision f32|f64]
// [--backend B] [--reps R] [--json]` (cli/cardiac2d.h): checks one cardiac2d kernel against the fp64
// reference (core/cardiac2d_check.h: one step within the rounding bound, S steps within the stated
// tolerance, the assignment's statistics beside the reference's) and, on the GPU, times it: ms per
// step, GFLOP/s and GB/s (analysis/cardiac2d_model.h) and the ratio to a device-to-device copy
// measured in the same run.
#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "analysis/cardiac2d_model.h"
#include "cli/cardiac2d.h"
#include "cli/engine_estimate.h"
#include "cli/suggest.h"
#include "core/backend.h"
#include "core/cardiac2d_check.h"
#include "core/error.h"
#include "core/stats.h"
#include "kernels/cardiac2d/versions.h"

namespace stencil::cli {

// The command's code sits in a namespace of its own so that its using-declarations (not a
// using-directive: they hide star3d's names of the same spelling, stencil::find_version and
// stencil::KernelId, instead of clashing with them) reach no other file of a unity batch.
namespace cardiac2d_run {

using cardiac2d::check_kernel;
using cardiac2d::CheckReport;
using cardiac2d::Comparison;
using cardiac2d::Discretisation;
using cardiac2d::find_version;
using cardiac2d::kFlopsPerCell;
using cardiac2d::kValuesMovedPerCell;
using cardiac2d::kWarmSteps;
using cardiac2d::Stepper;
using cardiac2d::StepTimer;
using cardiac2d::Version;
using cardiac2d::version_names;

namespace {

// The GPU gets a mesh larger than its L2 (4 meshes of 2050^2 fp32 values: 67 MB); the CPU engine
// interprets every thread, so it gets one it steps through in seconds.
constexpr int kCardiacGpuDefaultSize = 2048, kCardiacCpuDefaultSize = 64;
constexpr int kGpuDefaultSteps = 100, kCpuDefaultSteps = 20;
constexpr int kDefaultReps = 5;

struct Timing {
    Stats ms;  // per step
    double gflops = 0, gbps = 0, copy_gbps = 0, copy_ratio = 0;
};

nlohmann::json comparison_json(const Comparison& c) {
    nlohmann::json j = {{"ok", c.ok()},           {"max_error_E", c.max_error_E}, {"max_error_R", c.max_error_R},
                        {"failed", c.failed},     {"summary", c.summary()}};
    if (!c.ok()) j["first"] = {{"x", c.first_x}, {"y", c.first_y}, {"got", c.first_got}, {"want", c.first_want}};
    return j;
}

std::string ok_text(bool ok) { return ok ? "ok" : "WRONG"; }

// What a run found: the check, and on the GPU the timing.
struct Outcome {
    const Version* v = nullptr;
    Precision p = Precision::f32;
    int n = 0, steps = 0, checked = 0, reps = 0;
    bool gpu = false;
    std::string backend_name, device;
    Discretisation d;
    CheckReport rep;
    std::optional<Timing> timing;
};

nlohmann::json outcome_json(const Outcome& o) {
    nlohmann::json j = {{"problem", "cardiac2d"},
                        {"kernel", o.v->name},
                        {"precision", std::string(to_string(o.p))},
                        {"n", o.n},
                        {"steps", o.steps},
                        {"checked_steps", o.checked},
                        {"backend", o.backend_name},
                        {"device", o.device},
                        {"dt", o.d.dt},
                        {"alpha", o.d.alpha},
                        {"ok", o.rep.ok()},
                        {"check",
                         {{"one_step", comparison_json(o.rep.one_step)},
                          {"one_step_from", kWarmSteps},
                          {"k_steps", comparison_json(o.rep.k_steps)},
                          {"tolerance", o.rep.tolerance}}},
                        {"statistics",
                         {{"ok", o.rep.statistics_ok},
                          {"tolerance", o.rep.statistics_tolerance},
                          {"max_abs_E", o.rep.got.max_abs_E},
                          {"l2_E", o.rep.got.l2_E},
                          {"reference", {{"max_abs_E", o.rep.want.max_abs_E}, {"l2_E", o.rep.want.l2_E}}}}},
                        {"timing", nullptr}};
    if (o.timing)
        j["timing"] = {{"ms_per_step", {{"min", o.timing->ms.min}, {"median", o.timing->ms.median}, {"max", o.timing->ms.max}}},
                       {"gflops", o.timing->gflops},
                       {"gbps", o.timing->gbps},
                       {"copy_gbps", o.timing->copy_gbps},
                       {"copy_ratio", o.timing->copy_ratio},
                       {"reps", o.reps}};
    return j;
}

std::string outcome_text(const Outcome& o) {
    std::string s = fmt::format("cardiac2d {} ({}), {}, n = {} (mesh {}^2 with ghosts), {} steps, backend {} ({})\n",
                                o.v->name, o.v->title, to_string(o.p), o.n, cardiac2d::mesh_width(o.n), o.steps, o.backend_name,
                                o.device);
    s += fmt::format("  step      dt {:.6g}, alpha {:.6g} (the assignment's stable step, dx = 1/(n-1))\n", o.d.dt, o.d.alpha);
    s += fmt::format("  check     one step from step {}: {}  {}\n", kWarmSteps, o.rep.one_step.summary(),
                     ok_text(o.rep.one_step.ok()));
    s += fmt::format("            {} steps{}: max |E - E_ref| {:.3g}, |R - R_ref| {:.3g}, tolerance {:.3g}  {}\n", o.checked,
                     o.checked < o.steps ? fmt::format(" (the first {} of {}: the tolerance is stated up to there)", o.checked, o.steps) : "",
                     o.rep.k_steps.max_error_E, o.rep.k_steps.max_error_R, o.rep.tolerance, ok_text(o.rep.k_steps.ok()));
    s += fmt::format("  stats     max |E| {:.9g} (reference {:.9g}), L2 of E {:.9g} (reference {:.9g})  {}\n",
                     o.rep.got.max_abs_E, o.rep.want.max_abs_E, o.rep.got.l2_E, o.rep.want.l2_E, ok_text(o.rep.statistics_ok));
    if (o.timing)
        s += fmt::format("  time      {:.4f} ms per step (min {:.4f}, max {:.4f}; {} runs of {} steps)\n"
                         "  rate      {:.1f} GFLOP/s ({} FLOP per cell), {:.1f} GB/s ({} values per cell), "
                         "copy {:.1f} GB/s, {:.2f} x copy\n",
                         o.timing->ms.median, o.timing->ms.min, o.timing->ms.max, o.reps, o.steps, o.timing->gflops,
                         kFlopsPerCell, o.timing->gbps, kValuesMovedPerCell, o.timing->copy_gbps, o.timing->copy_ratio);
    else if (!o.gpu)
        s += "  time      not measured: the CPU backend interprets PTX (GB/s need --backend cuda)\n";
    return s;
}

// ms per step over `reps` runs of `steps` steps; the rates from the model's FLOPs and bytes per
// cell; the copy of the same bytes in the same run.
Timing time_steps(StepTimer& timer, Backend& backend, const Version& v, Precision p, int n, int steps, int reps) {
    Timing t;
    t.ms = summarize(timer.time_step_ms(v.id, p, n, steps, reps));
    const double s = t.ms.median * 1e-3;
    t.gflops = cardiac2d::step_flops(n) / s * 1e-9;
    t.gbps = cardiac2d::step_min_bytes(n, p) / s * 1e-9;
    t.copy_gbps = summarize(backend.copy_gbps(cardiac2d::copy_bytes(n, p), reps)).median;
    t.copy_ratio = t.copy_gbps > 0 ? t.gbps / t.copy_gbps : 0;
    return t;
}

}  // namespace

// A run on the CPU engine that takes a while says so first (engine_estimate.h): one step of the
// kernel on a 256 x 256 mesh is timed, and the check's steps on the n x n mesh scaled from it.
void say_cpu_time(Stepper& stepper, const Outcome& o, bool no_gpu) {
    constexpr int kSample = 256;  // large enough that a launch's fixed cost is a small share
    if (o.n <= kSample) return;
    cardiac2d::State s = cardiac2d::spiral_initial_state(kSample);
    say_engine_notice(fmt::format("the {}^2 mesh for {} steps", o.n, o.checked),
                      [&] { stepper.advance(o.v->id, o.p, s, 1); }, double(kSample) * kSample,
                      double(o.n) * o.n * (o.checked + 1), fmt::format("--size {}", kCardiacCpuDefaultSize), no_gpu);
}

int run(const Cardiac2dRunArgs& a) {
    // Everything the user typed is checked before a backend is made.
    Outcome o;
    o.v = find_version(a.kernel);
    if (!o.v)
        throw UserError(unknown_choice("kernel", a.kernel, version_names(), "for --problem cardiac2d"));
    const auto p = parse_precision(a.precision);
    if (!p) throw UserError(fmt::format("unknown precision '{}' (choose f32 or f64)", a.precision));
    o.p = *p;
    if (a.size > 0)
        if (auto e = cardiac2d::size_error(a.size)) throw UserError(*e);

    std::string why;
    std::unique_ptr<Backend> backend = make_backend(a.backend, &why);
    if (!backend) throw UserError(fmt::format("--backend {}: {}", a.backend, why));
    o.gpu = backend->kind() == BackendKind::cuda;
    o.n = a.size > 0 ? a.size : (o.gpu ? kCardiacGpuDefaultSize : kCardiacCpuDefaultSize);
    o.steps = a.steps > 0 ? a.steps : (o.gpu ? kGpuDefaultSteps : kCpuDefaultSteps);
    o.reps = a.reps > 0 ? a.reps : kDefaultReps;

    const std::unique_ptr<Stepper> stepper = cardiac2d::make_stepper(*backend);
    o.backend_name = stepper->backend_name();
    o.device = backend->device().name;

    o.checked = std::min(o.steps, cardiac2d::kMaxCheckedSteps);
    if (!o.gpu) say_cpu_time(*stepper, o, a.backend == "auto");
    o.rep = check_kernel(*stepper, o.v->id, o.p, o.n, o.checked);
    if (StepTimer* timer = stepper->timer(); timer && o.rep.ok())
        o.timing = time_steps(*timer, *backend, *o.v, o.p, o.n, o.steps, o.reps);
    o.d = cardiac2d::discretise(o.n);
    if (a.json)
        std::cout << outcome_json(o).dump() << "\n";
    else
        std::cout << outcome_text(o);
    std::cout.flush();
    if (!o.rep.ok()) {
        fmt::print(stderr, "stencil-lab: cardiac2d {} gives a wrong result: {}\n", o.v->name,
                   !o.rep.one_step.ok() ? o.rep.one_step.summary() : o.rep.k_steps.summary());
        return 1;
    }
    return 0;
}

}  // namespace cardiac2d_run

int run_cardiac2d(const Cardiac2dRunArgs& a) { return cardiac2d_run::run(a); }

}  // namespace stencil::cli
