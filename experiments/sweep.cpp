// The sweep: the configurations, then run_kernel and the model for each.
#include "experiments/sweep.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "core/engine_runs.h"
#include "core/error.h"
#include "core/field.h"
#include "core/weights.h"

namespace stencil::experiments {

namespace fs = std::filesystem;
using namespace analysis;

void check_output_dir(const std::string& dir) {
    std::error_code ec;
    const fs::path d(dir);
    if (fs::exists(d, ec) && !fs::is_directory(d, ec))
        throw UserError(fmt::format("--out {}: exists and is not a folder", dir));
    fs::create_directories(d, ec);
    if (ec) throw UserError(fmt::format("--out {}: cannot create the folder: {}", dir, ec.message()));
    // Writable? Try a file (permissions alone do not tell: read-only mounts, /proc, root).
    const fs::path probe = d / ".stencil-lab-write-test";
    {
        std::ofstream f(probe, std::ios::trunc);
        if (!(f << "x") || !f.flush())
            throw UserError(fmt::format("--out {}: the folder is not writable", dir));
    }
    fs::remove(probe, ec);
}

namespace {

template <class real>
engine::Counts trace_counts(EngineRuns& engine, const LaunchRequest& req, std::uint64_t seed) {
    const auto in = random_field<real>(req.dims, seed);
    auto out = poisoned_output(in, req.radius);
    engine::ExecOptions opt;
    opt.trace.count = true;
    const auto run = engine.run(req, random_weights(req.radius, seed), in.data.data(), out.data.data(), opt);
    return run.report.counts;
}

void validate(const SweepOptions& o) {
    if (o.size < 1) throw UserError(fmt::format("--size {} must be positive", o.size));
    if (auto e = grid_error({o.size, o.size, o.size}, o.radius)) throw UserError(*e);
    if (o.radius < 1 || o.radius > kMaxRadius)
        throw UserError(fmt::format("radius {} is outside 1..{}", o.radius, kMaxRadius));
    if (o.reps < 1) throw UserError("--reps must be at least 1");
    if (o.warmup < 0) throw UserError("warm-up launches cannot be negative");
    // A folder that cannot be written must fail now, not after the whole sweep has run.
    if (!o.out_dir.empty()) check_output_dir(o.out_dir);
}

std::string default_fma_note(const SweepOptions& o, BackendKind kind) {
    if (o.fma_gflops || !o.fma_note.empty()) return o.fma_note;
    return kind == BackendKind::cpu
               ? "FMA throughput not measured on the CPU backend (the emulator's speed is no GPU ceiling)"
               : "FMA throughput not measured (no microbenchmark result was supplied)";
}

// The configurations in table order, each with its model, or the reason it cannot run.
std::vector<SweepRow> plan_rows(const Backend& backend, const SweepOptions& o, GridDims dims) {
    std::vector<KernelId> kernels = o.kernels;
    if (kernels.empty())
        for (const auto& v : kernel_versions()) kernels.push_back(v.id);
    std::vector<SweepRow> rows;
    for (KernelId k : kernels) {
        const std::vector<int> tiles = o.tiles.empty() ? sweep_tiles(k, o.radius, o.precision) : o.tiles;
        for (int T : tiles) {
            SweepRow row;
            row.request.kernel = k;
            row.request.tile = T;
            row.request.radius = o.radius;
            row.request.precision = o.precision;
            row.request.dims = dims;
            if (version(k).halo_in_tile && T <= 2 * o.radius) {
                row.skipped = fmt::format("{}: tile T={} leaves no output cells (T must exceed 2r)",
                                          version(k).name, T);
            } else if (T < 1) {
                row.skipped = fmt::format("tile {} must be at least 1", T);
            } else {
                row.model = model(k, T, o.radius, o.precision);
                row.exact = exact_grid_traffic(k, T, o.radius, o.precision, dims);
                if (auto e = tile_error(k, T, o.radius, o.precision, backend.limits())) row.skipped = *e;
                else if (auto c = backend.cannot_run(row.request)) row.skipped = *c;
            }
            rows.push_back(std::move(row));
        }
    }
    if (rows.empty()) throw UserError("sweep: no configuration to run");
    // Every configuration skipped: nothing would be measured, so say why instead of writing
    // empty results.
    if (std::all_of(rows.begin(), rows.end(), [](const SweepRow& r) { return !r.skipped.empty(); }))
        throw UserError(fmt::format("sweep: nothing can run: all {} configuration(s) are skipped ({} T={}: {})",
                                    rows.size(), version(rows[0].request.kernel).name, rows[0].request.tile,
                                    rows[0].skipped));
    return rows;
}

HardwareCounters counters_for(Backend& backend, const SweepOptions& o, const SweepRow& row) {
    if (!row.run->ok) return counters_unavailable("the check failed: nothing was measured");
    if (o.counters) return o.counters(row.request);
    return counters_unavailable(!o.counters_unavailable_reason.empty() ? o.counters_unavailable_reason
                                : backend.kind() == BackendKind::cpu
                                    ? "the CPU backend has no caches to count: L2 and DRAM bytes need the "
                                      "GPU's hardware counters"
                                    : "hardware counters were not collected in this build");
}

// One configuration: check and time, the whole-grid warp pattern, the measured levels.
void measure_row(Backend& backend, const SweepOptions& o, SweepRow& row) {
    const auto& req = row.request;
    RunOptions ro;
    ro.request = req;
    ro.seed = o.seed;
    ro.warmup = o.warmup;
    ro.reps = o.reps;
    row.run = run_kernel(backend, ro);

    const WarpPattern wp = warp_pattern(req.kernel, req.tile, req.radius, req.precision, req.dims);
    row.model_sectors_per_request = wp.sectors_per_request;
    row.model_requests = wp.requests;
    row.model_sectors = wp.sectors;

    std::optional<engine::Counts> counts;
    if (EngineRuns* engine = backend.engine(); engine && o.trace_level1 && row.run->ok)
        counts = req.precision == Precision::f32 ? trace_counts<float>(*engine, req, o.seed)
                                                 : trace_counts<double>(*engine, req, o.seed);
    row.measured = measure(req.kernel, req.tile, req.radius, req.precision, req.dims, counts ? &*counts : nullptr,
                           counters_for(backend, o, row));
}

}  // namespace

SweepResult run_sweep(Backend& backend, const SweepOptions& o) {
    validate(o);
    const GridDims dims{o.size, o.size, o.size};

    SweepResult res;
    res.backend = backend.kind() == BackendKind::cuda ? "cuda" : "cpu";
    res.device = backend.device().name;
    res.dims = dims;
    res.radius = o.radius;
    res.precision = o.precision;
    res.fma_gflops = o.fma_gflops;
    res.fma_note = default_fma_note(o, backend.kind());
    res.rows = plan_rows(backend, o, dims);

    const int total = int(res.rows.size());
    std::vector<double> copies;
    for (int i = 0; i < total; ++i) {
        SweepRow& row = res.rows[i];
        const auto& req = row.request;
        if (o.progress)
            o.progress(i, total, fmt::format("{} T={} r={} {} N={}", version(req.kernel).name, req.tile, req.radius,
                                             to_string(req.precision), o.size));
        if (!row.skipped.empty()) continue;
        measure_row(backend, o, row);
        if (row.run->timed && row.run->copy_gbps > 0) copies.push_back(row.run->copy_gbps);
    }
    if (o.progress) o.progress(total, total, "done");
    if (!copies.empty()) {
        std::sort(copies.begin(), copies.end());
        res.copy_gbps = copies[copies.size() / 2];
    }
    return res;
}

}  // namespace stencil::experiments
