// `stencil-lab run --kernel NAME [--tile T | --block BXxBYxBZ] [--radius R] [--precision f32|f64] [--size N | --nx X
// --ny Y --nz Z] [--steps S [--fuse K]] [--z-chunk Z] [--reps K] [--warmup W] [--seed S] [--backend auto|cuda|cpu] [--json]
// [--check-races]`: check one kernel against the fp64 reference, then time it (core/run.h does
// both). On the CPU backend it also traces one interior block for the shared-memory bank
// conflicts, and --check-races runs the kernel under several schedules and block orders with the
// race checks on instead of timing it (on the CPU backend, which `auto` then means).
// Numbers are range-checked by the parser (--tile 1..1024, --radius 1..4, sizes 1..1048576, --reps
// 1..10000, --warmup 0..1000; cli/command.h), and the kernel, tile and grid rules are said before
// a backend is made. --json: null for figures the backend does not know, the seed as a string.
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstring>
#include <iostream>
#include <memory>
#include <optional>

#include "cli/cardiac2d.h"
#include "cli/command.h"
#include "cli/engine_clock.h"
#include "cli/engine_estimate.h"
#include "cli/run_derivative.h"
#include "cli/run_distributed.h"
#include "cli/report_run.h"
#include "cli/suggest.h"
#include "core/counters.h"
#include "core/engine_runs.h"
#include "core/error.h"
#include "core/field.h"
#include "core/host_memory.h"
#include "core/progress.h"
#include "core/run.h"
#include "core/weights.h"

namespace stencil::cli {
namespace {

struct RunArgs {
    std::string kernel;
    int tile = 0;  // 0 (not given): the version table's default
    std::string block;  // --block BXxBYxBZ (naive): "" when not given
    int radius = 1;
    std::string precision = "f32";
    int size = 0;  // 0 (not given): the backend's default; given: 1..kMaxSide (0 is an error)
    int nx = 0, ny = 0, nz = 0;
    int reps = 0, warmup = -1;  // not given: the backend's default
    std::uint64_t seed = 1;
    std::string backend = "auto";
    bool json = false;
    bool no_time = false;
    bool counters = false;
    bool check_races = false;
    bool tile_given = false, size_given = false, reps_given = false, warmup_given = false;
    std::string problem = "star3d";
    int steps = 0;  // cardiac2d: time steps (0: the backend's default); star3d: S (0: one)
    int fuse = 0;   // star3d temporal: steps fused per pass (0: the version table's)
    int z_chunk = 0;  // star3d streaming, temporal: planes a block marches (0: the version table's)
};

// The CPU backend's engine traces one interior block: bank-conflict degree of its shared loads (max
// and mean over warp-level requests; 1 = conflict-free). Absent for kernels without shared loads.
void add_bank_conflicts(EngineRuns& engine, const RunReport& rep, nlohmann::json& j, std::string& text) {
    const LaunchRequest& req = rep.request;
    const Field<float> in32 = req.precision == Precision::f32 ? random_field<float>(req.dims, rep.seed) : Field<float>{};
    const Field<double> in64 = req.precision == Precision::f64 ? random_field<double>(req.dims, rep.seed) : Field<double>{};
    std::vector<unsigned char> out(static_cast<std::size_t>(req.dims.cells()) * bytes_of(req.precision));
    engine::ExecOptions o;
    o.trace.records = engine::TraceMode::block;
    o.trace.block = {rep.geometry.grid.x / 2, rep.geometry.grid.y / 2, rep.geometry.grid.z / 2};
    const void* in = req.precision == Precision::f32 ? (const void*)in32.data.data() : (const void*)in64.data.data();
    const EngineRun run = engine.run(req, random_weights(req.radius, rep.seed), in, out.data(), o);
    int worst = 0;
    long long n = 0;
    double sum = 0;
    for (const auto& r : engine::warp_requests(run.report.trace))
        if (r.space == engine::Space::shared && r.op == engine::Op::load) worst = std::max(worst, r.bank_degree), sum += r.bank_degree, ++n;
    if (n == 0) return;
    j["smem_bank_conflict_degree"] = {{"max", worst}, {"mean", sum / n}, {"requests", n}};
    text += fmt::format("  banks     shared loads: bank-conflict degree max {}, mean {:.2f} over {} warp requests "
                        "of block ({},{},{}) (1 = conflict-free)\n",
                        worst, sum / n, n, o.trace.block.x, o.trace.block.y, o.trace.block.z);
}

// --check-races: the schedule comparison with every check on; one line, rc 0 clean / 1 not.
int check_races(EngineRuns& engine, const LaunchRequest& req, std::uint64_t seed, bool json) {
    const StencilWeights w = random_weights(req.radius, seed);
    std::vector<unsigned char> in(static_cast<std::size_t>(req.dims.cells()) * bytes_of(req.precision));
    if (req.precision == Precision::f32) {
        const auto f = random_field<float>(req.dims, seed);
        std::memcpy(in.data(), f.data.data(), in.size());
    } else {
        const auto f = random_field<double>(req.dims, seed);
        std::memcpy(in.data(), f.data.data(), in.size());
    }
    engine::ExecOptions o;
    o.seed = seed;
    const ScheduleCheck chk = engine.schedule_check(req, w, in.data(), o, 1);
    const engine::Diagnostic* first = nullptr;
    for (const auto& r : chk.runs) {
        for (const auto& d : r.report.diagnostics)
            if (!first || (engine::is_fatal(d.kind) && !engine::is_fatal(first->kind))) first = &d;
        if (first) break;
    }
    std::string line;
    if (chk.ok) {
        line = fmt::format("no races: {} agrees bit for bit under {} runs (threads in order, reversed, seeded random; "
                           "blocks in order, reversed, random), no shared or global race, no uninitialized shared "
                           "read ({:.2f} s)",
                           version(req.kernel).name, chk.runs.size(), chk.seconds);
    } else if (first) {
        line = fmt::format("{}: {}", engine::to_string(first->kind), first->message);
    } else {
        const auto& d = *chk.first_difference;
        line = fmt::format("outputs differ between runs: {} cells, first at ({}, {}, {}): {} vs {}", chk.differing_cells,
                           d.x, d.y, d.z, d.value_a, d.value_b);
    }
    if (json) {
        const auto known = [](long long v) { return v >= 0 ? nlohmann::json(v) : nlohmann::json(nullptr); };
        nlohmann::json j{{"ok", chk.ok},           {"seed", std::to_string(seed)},
                         {"runs", chk.runs.size()}, {"differing_cells", chk.differing_cells},
                         {"seconds", chk.seconds},  {"summary", line}};
        if (first)
            j["first"] = {{"kind", engine::to_string(first->kind)},
                          {"block", {first->block.x, first->block.y, first->block.z}},
                          {"interval", known(first->interval)},
                          {"array", first->array},
                          {"element", first->elem_size > 0 && first->offset >= 0
                                          ? nlohmann::json(first->offset / first->elem_size)
                                          : nlohmann::json(nullptr)}};
        std::cout << j.dump() << "\n";
    } else {
        std::cout << line << "\n";
    }
    return chk.ok ? 0 : 1;
}

// --counters: one more launch under the backend's counters (the GPU's, through CUPTI). Adds to the
// JSON, or to the text report.
void add_counters(Backend& backend, const RunReport& rep, nlohmann::json& j, std::string& text) {
    if (Counters* counters = backend.counters()) {  // (a backend without is refused before the run)
        std::string why;
        const auto c = counters->measure(rep.request, random_weights(rep.request.radius, rep.seed), &why);
        if (!c) {
            j["counters_error"] = why;
            text += "  counters  not available: " + why + "\n";
            return;
        }
        nlohmann::json cj;
        for (const auto& [name, value] : c->raw) cj[name] = value;
        cj["dram_bytes"] = c->dram_bytes();
        cj["sectors_per_request"] = c->sectors_per_request();
        cj["flops"] = c->flops();
        if (c->requested_read_bytes()) cj["requested_read_bytes"] = *c->requested_read_bytes();
        if (c->requested_write_bytes()) cj["requested_write_bytes"] = *c->requested_write_bytes();
        j["counters"] = cj;
        const double minimum = rep.bytes;
        text += fmt::format("  counters  DRAM {:.1f} MB read + {:.1f} MB written ({:.2f} x the minimum {:.1f} MB); "
                            "L2 {:.1f} MB; {:.2f} sectors per global load request; {:.4g} FLOP executed\n",
                            c->dram_bytes_read / 1e6, c->dram_bytes_write / 1e6,
                            minimum > 0 ? c->dram_bytes() / minimum : 0.0, minimum / 1e6, c->l2_bytes / 1e6,
                            c->sectors_per_request(), c->flops());
        if (c->requested_read_bytes())
            text += fmt::format("  requested {:.0f} B loaded, {:.0f} B stored by the kernel's instructions "
                                "(smsp__sass_data_bytes_mem_global_op_ld/st)\n",
                                *c->requested_read_bytes(), c->requested_write_bytes().value_or(0.0));
        else
            text += "  requested not measured: " + c->requested_unavailable + "\n";
    }
}

// --counters is refused before any work where the backend has none: the CPU engine has no hardware
// counters, and a minute of checking and timing before saying so wastes the user's time.
void refuse_counters_without_gpu(Backend& backend, const std::string& asked) {
    if (backend.counters()) return;
    if (backend.kind() == BackendKind::cuda)
        throw UserError("--counters: this build has no CUPTI support (the GPU's counters are read through CUPTI)");
    throw UserError(asked == "cpu" ? "--counters reads the GPU's hardware counters: --backend cpu has none "
                                     "(use --backend auto or cuda on a machine with a GPU)"
                                   : "no GPU: --counters reads the GPU's hardware counters, and this machine runs "
                                     "the CPU engine (drop --counters, or run on a machine with a GPU)");
}

// The GPU times a grid that fills it; the CPU backend emulates every thread, so it gets a grid it
// finishes in seconds.
constexpr int kGpuDefaultSize = 512, kCpuDefaultSize = 64;

// Progress is shown in hundredths of the run (RunProgress gives a fraction per stage).
constexpr long long kProgressSteps = 100;

// Long enough to deserve a progress display: the CPU engine interprets every thread, so a grid of
// 64^3 cells or more (a few seconds per launch) with its launches, or 1000+ launches on a GPU.
bool run_is_long(const RunOptions& opt, bool gpu) {
    const long long launches = 1 + (opt.time ? opt.warmup + opt.reps : 0);
    if (gpu) return launches >= 1000;
    return opt.request.dims.cells() * launches >= 64LL * 64 * 64;
}

// A run that takes a while shows its stages (core/progress.h): the CPU engine on a big grid, or many
// timed launches anywhere. On the CPU engine it first says so, with the time a launch measured here
// predicts, and its display moves with that estimate (one launch of 512^3 is minutes with no stage
// to report inside it). `asked_auto`: the user asked for any backend (the notice says "no GPU").
void show_progress(Backend& backend, RunOptions& opt, bool asked_auto, std::optional<Progress>& progress,
                   std::optional<EngineClock>& clock) {
    if (backend.kind() == BackendKind::cuda) {
        progress.emplace("run", kProgressSteps);
        opt.progress = [&progress](RunStage stage, double fraction) {
            progress->update(static_cast<long long>(fraction * kProgressSteps), to_string(stage));
            return true;
        };
        return;
    }
    const LaunchRequest& req = opt.request;  // its errors said before the sample, as run_kernel would
    if (auto e = request_error(req, backend.limits())) throw UserError(*e);
    if (auto e = grid_error(req.dims, req.radius)) throw UserError(*e);
    if (auto e = backend.cannot_run(req)) throw UserError(*e);
    if (auto e = host_memory_error(req.dims, req.precision, available_host_memory())) throw UserError(*e);
    const EngineEstimate est = estimate_engine_run(*backend.engine(), opt);
    fmt::print(stderr, "stencil-lab: {}\n", engine_run_notice(req.dims, est, asked_auto));
    std::fflush(stderr);
    progress.emplace("run", kProgressSteps);
    clock.emplace(*progress, est.seconds);
    opt.progress = [&clock](RunStage stage, double) {
        clock->stage(std::string(to_string(stage)));
        return true;
    };
}

int run_command(const RunArgs& a) {
    if (a.problem == "cardiac2d")
        return run_cardiac2d({a.kernel, a.size_given ? a.size : 0, a.steps, a.reps_given ? a.reps : 0, a.precision, a.backend, a.json});
    // Everything the user typed is checked before a backend is made (a GPU context costs time).
    const KernelVersion* v = find_version(a.kernel);
    if (!v) throw UserError(unknown_choice("kernel", a.kernel, version_names()));
    const auto precision = parse_precision(a.precision);
    if (!precision) throw UserError(fmt::format("unknown precision '{}' (choose f32 or f64)", a.precision));
    if (a.check_races && a.backend == "cuda")
        throw UserError("--check-races needs --backend cpu (the GPU runs blocks in its own order)");

    RunOptions opt;
    LaunchRequest& req = opt.request;
    req.kernel = v->id;
    req.tile = a.tile_given ? a.tile : v->default_tile;
    req.radius = a.radius;
    req.precision = *precision;
    req.steps = a.steps > 0 ? a.steps : 1;  // --steps S: S applications, checked against S of the reference
    req.fuse = a.fuse;
    req.z_chunk = a.z_chunk;
    if (!a.block.empty()) {  // the user's block shape instead of T^3 (the version table says who takes one)
        req.block = parse_block(a.block);
        if (!req.block) throw UserError(fmt::format("--block '{}': expected BXxBYxBZ, e.g. 32x4x2", a.block));
        if (a.tile_given) throw UserError("--block and --tile both shape the block: give one");
    }
    // The hardware rules are the same on both backends (CUDA's per-block limits): said now.
    if (auto e = request_error(req)) throw UserError(*e);
    if (a.size_given || (a.nx && a.ny && a.nz)) {  // (--size excludes --nx, --ny, --nz)
        const GridDims g = a.size_given ? GridDims{a.size, a.size, a.size} : GridDims{a.nx, a.ny, a.nz};
        if (auto e = grid_error(g, req.radius)) throw UserError(*e);
    }

    std::string why;
    // --check-races is the CPU backend's; `auto` means it.
    const std::string backend_name = a.check_races ? std::string("cpu") : a.backend;
    std::unique_ptr<Backend> backend = make_backend(backend_name, &why);
    if (!backend) throw UserError(fmt::format("--backend {}: {}", a.backend, why));
    const bool gpu = backend->kind() == BackendKind::cuda;

    const int n = a.size_given ? a.size : (gpu ? kGpuDefaultSize : kCpuDefaultSize);
    req.dims = {a.nx > 0 ? a.nx : n, a.ny > 0 ? a.ny : n, a.nz > 0 ? a.nz : n};
    opt.seed = a.seed;
    opt.reps = a.reps_given ? a.reps : (gpu ? 20 : 3);
    opt.warmup = a.warmup_given ? a.warmup : (gpu ? 3 : 0);
    opt.time = !a.no_time;
    if (a.check_races) {
        if (auto e = grid_error(req.dims, req.radius)) throw UserError(*e);
        if (auto e = backend->cannot_run(req)) throw UserError(*e);
        return check_races(*backend->engine(), req, a.seed, a.json);
    }

    if (a.counters) refuse_counters_without_gpu(*backend, a.backend);

    std::optional<Progress> progress;
    std::optional<EngineClock> clock;
    if (run_is_long(opt, gpu)) show_progress(*backend, opt, a.backend == "auto", progress, clock);
    const RunReport rep = run_kernel(*backend, opt);
    clock.reset();
    if (progress) progress->finish();
    nlohmann::json j = rep.to_json();
    std::string text = format_run_report(rep);
    if (a.counters && rep.ok) add_counters(*backend, rep, j, text);
    if (backend->engine() && rep.ok) add_bank_conflicts(*backend->engine(), rep, j, text);
    if (a.json)
        std::cout << j.dump() << "\n";
    else
        std::cout << text;
    std::cout.flush();
    if (!rep.ok) {
        fmt::print(stderr, "stencil-lab: {} gives a wrong result: {}\n", v->name, rep.check.summary());
        return 1;
    }
    return 0;
}

// An option that means nothing for the problem is refused by name, never ignored: the one list of
// which `run` options each problem has no use for.
void refuse_other_problems_options(const CLI::App& app, const std::string& problem) {
    std::vector<const char*> unused;
    if (problem == "star3d") unused = {"--convergence"};
    if (problem == "cardiac2d")
        unused = {"--tile",        "--block",       "--radius", "--nx",   "--ny",     "--nz",     "--counters",
                  "--check-races", "--convergence", "--warmup", "--seed", "--no-time",  "--fuse", "--z-chunk"};
    if (problem == "derivative")  // its kernels' shapes are fixed (`versions --problem derivative`)
        unused = {"--tile", "--block", "--radius", "--nx", "--ny", "--nz", "--counters", "--check-races", "--steps",
                  "--fuse", "--z-chunk"};
    for (const char* n : unused)
        if (app.get_option(n)->count()) throw UserError(fmt::format("{} does not apply to --problem {}", n, problem));
}

const Command run_cmd("run", 20, [](CLI::App& app) -> std::function<int()> {
    app.description("check one kernel against the fp64 reference, then time it (GB/s, copy ratio)");
    auto a = std::make_shared<RunArgs>();
    app.add_option("--kernel,-k", a->kernel, "which version: " + version_names())->required();
    auto* tile = add_int_option(app, "--tile,-t", a->tile, 1, kMaxTile,
                                fmt::format("T: IN_TILE_DIM (block edge for naive); default: the version table's ({})",
                                            [] {
                                                std::string d;
                                                for (const auto& v : kernel_versions())
                                                    d += fmt::format("{}{} {}", d.empty() ? "" : ", ", v.name,
                                                                     v.default_tile);
                                                return d;
                                            }()),
                                "a CUDA block has at most 1024 threads");
    app.add_option("--block", a->block, "BXxBYxBZ: naive's block shape instead of T^3 (the textbook's 32x4x2)");
    add_int_option(app, "--radius,-r", a->radius, 1, kMaxRadius, "stencil radius r (6r + 1 points), 1..4")
        ->capture_default_str();
    app.add_option("--precision,-p", a->precision, "f32 or f64")->capture_default_str();
    auto* size = add_int_option(app, "--size,-n", a->size, 1, kMaxSide,
                                fmt::format("grid N x N x N (default {} on the GPU, {} on the CPU backend)",
                                            kGpuDefaultSize, kCpuDefaultSize));
    auto* nx = add_int_option(app, "--nx", a->nx, 1, kMaxSide, "grid cells along x (fastest in memory)");
    auto* ny = add_int_option(app, "--ny", a->ny, 1, kMaxSide, "grid cells along y");
    auto* nz = add_int_option(app, "--nz", a->nz, 1, kMaxSide, "grid cells along z");
    size->excludes(nx)->excludes(ny)->excludes(nz);
    auto* reps = add_int_option(app, "--reps", a->reps, 1, kMaxReps,
                                "timed launches (default 20 on the GPU, 3 on the CPU)");
    auto* warmup = add_int_option(app, "--warmup", a->warmup, 0, kMaxWarmup,
                                  "untimed launches first (default 3 on the GPU, 0 on the CPU)");
    add_seed_option(app, a->seed, "input and weights are drawn from this seed (decimal or 0x hex)");
    auto* no_time = app.add_flag("--no-time", a->no_time, "check only, do not time");
    no_time->excludes(reps)->excludes(warmup);
    auto* counters = app.add_flag("--counters", a->counters,
                                  "GPU: also read hardware counters of one launch through CUPTI (DRAM and L2 "
                                  "bytes, sectors per request, FLOPs)");
    add_backend_option(app, a->backend);
    add_problem_option(app, a->problem, {Problem::star3d, Problem::cardiac2d, Problem::derivative});
    add_derivative_run_options(app);
    add_distributed_run_options(app);
    add_int_option(app, "--steps", a->steps, 1, 100000,
                   "time steps: star3d applies the stencil S times (checked against S steps of the fp64 "
                   "reference, timed as S updates per cell); cardiac2d; with --decompose");
    add_int_option(app, "--fuse", a->fuse, 1, 4, fmt::format("temporal: time steps fused per pass, K (default {})",
                                               version(KernelId::temporal).fused_steps));
    add_int_option(app, "--z-chunk", a->z_chunk, 1, 4096,
                   fmt::format("streaming, temporal: planes a block marches (default: the version table's, {} and {})",
                               version(KernelId::streaming).z_chunk, version(KernelId::temporal).z_chunk));
    app.add_flag("--check-races", a->check_races,
                 "CPU backend: run the kernel under 3 thread schedules and block orders with shared and "
                 "global race checks on, instead of timing it; rc 1 names the first diagnostic")
        ->excludes(counters)
        ->excludes(reps)
        ->excludes(warmup)
        ->excludes(no_time);
    app.add_flag("--json", a->json, "print one JSON object (one line) instead of the report");
    return [a, tile, size, reps, warmup, &app] {
        if (distributed_run_requested(app)) return run_distributed(app);  // refuses what it has no use for
        refuse_other_problems_options(app, a->problem);
        if (a->problem == "derivative") return run_derivative(app);
        a->tile_given = tile->count() > 0;
        a->size_given = size->count() > 0;
        a->reps_given = reps->count() > 0;
        a->warmup_given = warmup->count() > 0;
        return run_command(*a);
    };
});

}  // namespace
}  // namespace stencil::cli
