#include "core/run.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstring>

#include "core/error.h"
#include "core/field.h"
#include "core/host_memory.h"
#include "core/reference.h"
#include "core/weights.h"

namespace stencil {

std::string_view to_string(RunStage s) {
    switch (s) {
        case RunStage::validating: return "validating";
        case RunStage::preparing: return "preparing input";
        case RunStage::reference: return "fp64 reference";
        case RunStage::executing: return "launching";
        case RunStage::comparing: return "comparing";
        case RunStage::timing: return "timing";
        case RunStage::copy: return "copy bandwidth";
        case RunStage::done: return "done";
    }
    return "?";
}

double minimum_bytes(GridDims d, Precision p) { return 2.0 * static_cast<double>(d.cells()) * bytes_of(p); }

double stencil_flops(GridDims d, int radius) {
    const double inner = std::max(0.0, double(d.nx - 2 * radius)) * std::max(0.0, double(d.ny - 2 * radius)) *
                         std::max(0.0, double(d.nz - 2 * radius));
    return (12.0 * radius + 1.0) * inner;
}

namespace {

// The check of one launch, in the request's precision.
template <class real>
CompareResult check_once(Backend& backend, const LaunchRequest& req, std::uint64_t seed, const StencilWeights& w,
                         const RunProgress& progress, bool& cancelled) {
    auto stage = [&](RunStage s, double f) {
        if (progress && !progress(s, f)) cancelled = true;
        return !cancelled;
    };
    const Field<real> in = random_field<real>(req.dims, seed);
    if (!stage(RunStage::reference, 0.15)) return {};
    const Reference ref = reference_steps(in, w, req.steps);
    Field<real> out = poisoned_output(in, req.radius);
    if (!stage(RunStage::executing, 0.35)) return {};
    backend.execute(req, w, in.data.data(), out.data.data());
    if (!stage(RunStage::comparing, 0.45)) return {};
    return compare_with_reference(out, ref, req.precision);
}

// The check's weights: random and asymmetric (no two alike) so that a swapped neighbour cannot
// pass. For S steps they are scaled to sum |w| = 1, as a stable explicit time step's are, so that
// values stay O(1) over any number of steps instead of growing like (sum |w|)^S into infinity.
StencilWeights check_weights(const LaunchRequest& req, std::uint64_t seed) {
    StencilWeights w = random_weights(req.radius, seed ^ 0x9E3779B97F4A7C15ull);
    if (req.steps > 1) {
        double sum = 0;
        for (int n = 0; n < coefficient_count(req.radius); ++n) sum += std::fabs(w.c[n]);
        for (int n = 0; n < coefficient_count(req.radius); ++n) w.c[n] /= sum;
    }
    return w.rounded_to(req.precision);
}

// JSON has no NaN or infinity: those become null.
nlohmann::json number(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }

}  // namespace

RunReport run_kernel(Backend& backend, const RunOptions& opt) {
    const LaunchRequest& req = opt.request;
    RunReport rep;
    rep.request = req;
    rep.seed = opt.seed;
    rep.backend = backend.kind();
    auto stage = [&](RunStage s, double f) {
        if (opt.progress && !opt.progress(s, f)) rep.cancelled = true;
        return !rep.cancelled;
    };

    // 1. Validate: the sentences of the version table first, then what only the backend knows.
    if (!stage(RunStage::validating, 0.0)) return rep;
    if (auto e = request_error(req, backend.limits())) throw UserError(*e);
    if (auto e = grid_error(req.dims, req.radius)) throw UserError(*e);
    if (auto e = backend.cannot_run(req)) throw UserError(*e);
    if (auto e = host_memory_error(req.dims, req.precision, available_host_memory())) throw UserError(*e);
    if (opt.reps < 1 && opt.time) throw UserError(fmt::format("--reps must be at least 1 (got {})", opt.reps));
    if (opt.warmup < 0) throw UserError(fmt::format("--warmup must be 0 or more (got {})", opt.warmup));

    rep.device = backend.device();
    rep.geometry = launch_geometry(req);
    rep.attributes = backend.attributes(req);

    // 2. Check (S steps against S steps of the reference); the reference uses exactly the weights
    //    the kernel gets, rounded to its precision.
    if (!stage(RunStage::preparing, 0.05)) return rep;
    const StencilWeights w = check_weights(req, opt.seed);
    rep.check = req.precision == Precision::f32
                    ? check_once<float>(backend, req, opt.seed, w, opt.progress, rep.cancelled)
                    : check_once<double>(backend, req, opt.seed, w, opt.progress, rep.cancelled);
    if (rep.cancelled) return rep;
    rep.ok = rep.check.ok;

    // 3. Time, only what is correct: a fast wrong kernel has no bandwidth worth printing. S steps
    //    count S updates of every cell, each one read and one write (the copy-equivalent rate:
    //    fused steps can pass the copy's, since they move the grid once per K updates).
    rep.bytes = req.steps * minimum_bytes(req.dims, req.precision);
    if (!opt.time || !rep.ok) {
        stage(RunStage::done, 1.0);
        return rep;
    }
    if (!stage(RunStage::timing, 0.55)) return rep;
    rep.warmup = opt.warmup;
    rep.reps = opt.reps;
    rep.samples_ms = backend.time_ms(req, w, opt.warmup, opt.reps);
    rep.ms = summarize(rep.samples_ms);
    if (!stage(RunStage::copy, 0.85)) return rep;
    const long long array_bytes = req.dims.cells() * bytes_of(req.precision);
    rep.copy_gbps = summarize(backend.copy_gbps(array_bytes, opt.reps)).median;
    rep.timed = rep.ms.count > 0 && rep.ms.median > 0;
    if (rep.timed) {
        const double s = rep.ms.median * 1e-3;
        rep.gbps = rep.bytes / s / 1e9;
        rep.gcells = static_cast<double>(req.dims.cells()) * req.steps / s / 1e9;
        rep.gflops = req.steps * stencil_flops(req.dims, req.radius) / s / 1e9;
        rep.executed_gflops =
            rep.gflops * executed_flops_per_point(req.kernel, req.radius) / flops_per_point(req.radius);
        rep.copy_ratio = rep.copy_gbps > 0 ? rep.gbps / rep.copy_gbps : 0;
    }
    stage(RunStage::done, 1.0);
    return rep;
}

std::string RunReport::check_line() const {
    if (cancelled) return "check: cancelled";
    if (check.cells == 0) return "check: not run";
    if (request.steps > 1)
        return fmt::format("check: {} (against {} steps of the fp64 reference, seed {})", check.summary(),
                           request.steps, seed);
    return fmt::format("check: {} (against the fp64 reference, seed {})", check.summary(), seed);
}

nlohmann::json RunReport::to_json() const {
    const auto& v = version(request.kernel);
    nlohmann::json j;
    j["kernel"] = v.name;
    j["tile"] = request.tile;
    if (request.block)  // `run --block`: the block is the user's shape, not the row's from T
        j["user_block"] = {request.block->x, request.block->y, request.block->z};
    j["radius"] = request.radius;
    j["steps"] = request.steps;
    j["fused_steps"] = steps_per_launch(request);  // K: steps per launch (1 but for temporal)
    j["precision"] = std::string(stencil::to_string(request.precision));
    j["nx"] = request.dims.nx;
    j["ny"] = request.dims.ny;
    j["nz"] = request.dims.nz;
    j["backend"] = std::string(to_string(backend));
    j["device"] = device.name;
    j["seed"] = std::to_string(seed);  // a string: JavaScript readers would round a 64-bit number
    j["ok"] = ok;
    if (cancelled) j["cancelled"] = true;
    j["cells"] = check.cells;
    j["bad_cells"] = check.bad_cells;
    j["max_rel_err"] = number(check.max_rel_err);
    j["max_abs_err"] = number(check.max_abs_err);
    j["error_bound_gamma"] = number(check.gamma);
    j["check"] = check.summary();
    if (check.first_bad) {
        const auto& b = *check.first_bad;
        j["first_bad"] = {{"x", b.x}, {"y", b.y}, {"z", b.z}, {"expected", number(b.expected)},
                          {"got", number(b.got)}, {"bound", number(b.bound)},
                          {"kind", b.kind == CellKind::boundary ? "boundary" : "interior"}};
    }
    j["timed"] = timed;
    if (timed) {
        j["warmup"] = warmup;
        j["reps"] = reps;
        j["ms_min"] = ms.min;
        j["ms_median"] = ms.median;
        j["ms_max"] = ms.max;
        j["samples_ms"] = samples_ms;
        j["bytes"] = bytes;
        j["gbps"] = gbps;
        j["gcells"] = gcells;
        j["gflops"] = gflops;
        j["executed_gflops"] = executed_gflops;
        j["copy_gbps"] = copy_gbps;
        j["copy_ratio"] = copy_ratio;
    }
    j["block"] = {geometry.block.x, geometry.block.y, geometry.block.z};
    j["grid"] = {geometry.grid.x, geometry.grid.y, geometry.grid.z};
    j["out_tile"] = geometry.out_tile;
    j["out_width"] = geometry.out_width;
    // Planes a block marches: the version table's z-chunk or --z-chunk (null: no z-chunk).
    j["z_chunk"] = version(request.kernel).z_chunk > 0 ? nlohmann::json(geometry.out_planes) : nlohmann::json(nullptr);
    j["smem_bytes"] = geometry.smem_bytes;
    // Unknown is null, never -1 (the CPU backend has no registers, occupancy or compute capability).
    auto known = [](auto v) -> nlohmann::json { return v < 0 ? nlohmann::json(nullptr) : nlohmann::json(v); };
    j["registers"] = known(attributes.registers_per_thread);
    j["static_smem_bytes"] = known(attributes.static_smem_bytes);
    j["active_blocks_per_sm"] = known(attributes.active_blocks_per_sm);
    j["occupancy"] = known(attributes.occupancy);
    const bool gpu = backend == BackendKind::cuda;
    j["device_info"] = {{"name", device.name},
                        {"multiprocessors", device.multiprocessors},
                        {"l2_bytes", device.l2_bytes > 0 ? nlohmann::json(device.l2_bytes) : nlohmann::json(nullptr)},
                        {"smem_per_block", device.smem_per_block},
                        {"smem_per_sm", gpu ? nlohmann::json(device.smem_per_sm) : nlohmann::json(nullptr)},
                        {"compute_capability",
                         gpu ? nlohmann::json(fmt::format("{}.{}", device.cc_major, device.cc_minor)) : nlohmann::json(nullptr)},
                        {"global_mem_bytes", device.global_mem_bytes}};
    return j;
}

}  // namespace stencil
