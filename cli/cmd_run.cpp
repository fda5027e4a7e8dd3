// `stencil-lab run --kernel NAME [--tile T] [--radius R] [--precision f32|f64] [--size N | --nx X
// --ny Y --nz Z] [--reps K] [--warmup W] [--seed S] [--backend auto|cuda|cpu] [--json]`:
// check one kernel against the fp64 reference, then time it (core/run.h does both).
#include <fmt/format.h>

#include <iostream>
#include <memory>

#include "cli/command.h"
#include "cli/report_run.h"
#include "core/error.h"
#include "core/run.h"
#include "core/weights.h"

#if STENCIL_LAB_HAVE_CUDA
#include "backends/cuda/counters.h"
#endif

namespace stencil::cli {
namespace {

struct RunArgs {
    std::string kernel;
    int tile = 0;  // 0: the version table's default
    int radius = 1;
    std::string precision = "f32";
    int size = 0;  // 0: the backend's default
    int nx = 0, ny = 0, nz = 0;
    int reps = -1, warmup = -1;  // -1: the backend's default
    std::uint64_t seed = 1;
    std::string backend = "auto";
    bool json = false;
    bool no_time = false;
    bool counters = false;
};

// --counters: one more launch under CUPTI (GPU only). Adds to the JSON, or to the text report.
void add_counters(const RunReport& rep, nlohmann::json& j, std::string& text) {
#if STENCIL_LAB_HAVE_CUDA
    if (rep.backend == BackendKind::cuda) {
        std::string why;
        const auto c = measure_counters(rep.request, random_weights(rep.request.radius, rep.seed), &why);
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
        j["counters"] = cj;
        const double minimum = rep.bytes;
        text += fmt::format("  counters  DRAM {:.1f} MB read + {:.1f} MB written ({:.2f} x the minimum {:.1f} MB); "
                            "L2 {:.1f} MB; {:.2f} sectors per global load request; {:.4g} FLOP executed\n",
                            c->dram_bytes_read / 1e6, c->dram_bytes_write / 1e6,
                            minimum > 0 ? c->dram_bytes() / minimum : 0.0, minimum / 1e6, c->l2_bytes / 1e6,
                            c->sectors_per_request(), c->flops());
        return;
    }
#endif
    const std::string why = rep.backend == BackendKind::cuda ? "this build has no CUPTI support"
                                                             : "hardware counters need the GPU (--backend cuda)";
    j["counters_error"] = why;
    text += "  counters  not available: " + why + "\n";
}

// The GPU times a grid that fills it; the CPU backend emulates every thread, so it gets a grid it
// finishes in seconds.
constexpr int kGpuDefaultSize = 512, kCpuDefaultSize = 64;

int run_command(const RunArgs& a) {
    const KernelVersion* v = find_version(a.kernel);
    if (!v) throw UserError(fmt::format("unknown kernel '{}' (choose {})", a.kernel, version_names()));
    const auto precision = parse_precision(a.precision);
    if (!precision) throw UserError(fmt::format("unknown precision '{}' (choose f32 or f64)", a.precision));
    if (a.size < 0 || a.nx < 0 || a.ny < 0 || a.nz < 0) throw UserError("grid sizes must be positive");

    std::string why;
    std::unique_ptr<Backend> backend = make_backend(a.backend, &why);
    if (!backend) throw UserError(fmt::format("--backend {}: {}", a.backend, why));
    const bool gpu = backend->kind() == BackendKind::cuda;

    RunOptions opt;
    LaunchRequest& req = opt.request;
    req.kernel = v->id;
    req.tile = a.tile > 0 ? a.tile : v->default_tile;
    if (a.tile < 0) throw UserError(fmt::format("tile {} must be at least 1", a.tile));
    req.radius = a.radius;
    req.precision = *precision;
    const int n = a.size > 0 ? a.size : (gpu ? kGpuDefaultSize : kCpuDefaultSize);
    req.dims = {a.nx > 0 ? a.nx : n, a.ny > 0 ? a.ny : n, a.nz > 0 ? a.nz : n};
    opt.seed = a.seed;
    opt.reps = a.reps >= 0 ? a.reps : (gpu ? 20 : 3);
    opt.warmup = a.warmup >= 0 ? a.warmup : (gpu ? 3 : 0);
    opt.time = !a.no_time;

    const RunReport rep = run_kernel(*backend, opt);
    nlohmann::json j = rep.to_json();
    std::string text = format_run_report(rep);
    if (a.counters && rep.ok) add_counters(rep, j, text);
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

const Command run_cmd("run", 20, [](CLI::App& app) -> std::function<int()> {
    app.description("check one kernel against the fp64 reference, then time it (GB/s, copy ratio)");
    auto a = std::make_shared<RunArgs>();
    app.add_option("--kernel,-k", a->kernel, "which version: " + version_names())->required();
    app.add_option("--tile,-t", a->tile,
                   "T: IN_TILE_DIM (block edge for naive); default: the version table's (8, 8, 32, 32)");
    app.add_option("--radius,-r", a->radius, "stencil radius r (6r + 1 points), 1..4")->capture_default_str();
    app.add_option("--precision,-p", a->precision, "f32 or f64")->capture_default_str();
    auto* size = app.add_option("--size,-n", a->size,
                                fmt::format("grid N x N x N (default {} on the GPU, {} on the CPU backend)",
                                            kGpuDefaultSize, kCpuDefaultSize));
    auto* nx = app.add_option("--nx", a->nx, "grid cells along x (fastest in memory)");
    auto* ny = app.add_option("--ny", a->ny, "grid cells along y");
    auto* nz = app.add_option("--nz", a->nz, "grid cells along z");
    size->excludes(nx)->excludes(ny)->excludes(nz);
    app.add_option("--reps", a->reps, "timed launches (default 20 on the GPU, 3 on the CPU)");
    app.add_option("--warmup", a->warmup, "untimed launches first (default 3 on the GPU, 0 on the CPU)");
    app.add_option("--seed", a->seed, "input and weights are drawn from this seed")->capture_default_str();
    app.add_flag("--no-time", a->no_time, "check only, do not time");
    app.add_flag("--counters", a->counters,
                 "GPU: also read hardware counters of one launch through CUPTI (DRAM and L2 bytes, "
                 "sectors per request, FLOPs)");
    add_backend_option(app, a->backend);
    app.add_flag("--json", a->json, "print one JSON object (one line) instead of the report");
    return [a] { return run_command(*a); };
});

}  // namespace
}  // namespace stencil::cli
