// `stencil-lab run --problem derivative --kernel K [--size N] [--precision f32|f64] [--backend
// auto|cuda|cpu] [--reps R] [--warmup W] [--seed S] [--no-time] [--json] [--convergence]`
//
// Text 004's derivative kernels (kernels/derivative/versions.h): one launch on a seeded random
// field checked against the fp64 reference with the rounding bound of core/derivative.h, one on
// the smooth test field for the error against the exact derivative (the post prints its RMS and
// MAX), then the timing: effective bandwidth as the post defines it, (bytes read + bytes written)
// / time, beside the post's own figure (80.9 GB/s for x on 64^3 on a Tesla K20c) and, on the GPU,
// the ratio to a device-to-device copy of the same bytes measured in the same run. On the CPU
// backend the time is the PTX engine's: an interpreter, so the GB/s says nothing of hardware.
//
// --convergence: the kernel's own fp64 output on the test field over N = 16, 32, 64, 128 along its
// axis (the least the tile allows across it), the max error at each, and the least-squares slope
// of log(error) against log(h): the scheme's order, 8.
#include "cli/run_derivative.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <iostream>
#include <limits>
#include <memory>
#include <vector>

#include "cli/command.h"
#include "cli/engine_estimate.h"
#include "cli/suggest.h"
#include "core/backend.h"
#include "core/derivative.h"
#include "core/derivative_runner.h"
#include "core/error.h"
#include "core/stats.h"
#include "kernels/derivative/versions.h"

namespace stencil::cli {

namespace {

// The post's measurement (derivative_x, 64 x 4 tile, 64^3 fp32, Tesla K20c): context, not a target.
constexpr double kPostK20cGbps = 80.933625;

struct DerivativeArgs {
    bool convergence = false;
};
DerivativeArgs& derivative_args() {
    static DerivativeArgs a;  // bound to the run command's --convergence for the process
    return a;
}


// ---- one launch on either backend --------------------------------------------------------------

struct Launcher {
    BackendKind kind;
    std::unique_ptr<Backend> backend;  // for the copy bandwidth (GPU) and the device's name
    std::unique_ptr<DerivativeRunner> runner;  // the backend's derivative kernels

    // `field` rounded to the precision, output poisoned; returns both widened to double.
    std::pair<std::vector<double>, std::vector<double>> run(const DerivativeRequest& req,
                                                            const std::vector<double>& field) const {
        return req.precision == Precision::f32 ? run_as<float>(req, field) : run_as<double>(req, field);
    }

    template <class real>
    std::pair<std::vector<double>, std::vector<double>> run_as(const DerivativeRequest& req,
                                                               const std::vector<double>& field) const {
        std::vector<real> in(field.begin(), field.end());
        std::vector<real> out(in.size(), std::numeric_limits<real>::quiet_NaN());
        runner->execute(req, in.data(), out.data());
        return {std::vector<double>(in.begin(), in.end()), std::vector<double>(out.begin(), out.end())};
    }

    // Milliseconds per launch on `field` rounded to the precision.
    std::vector<double> time(const DerivativeRequest& req, const std::vector<double>& field, int warmup,
                             int reps) const {
        if (req.precision == Precision::f32) {
            const std::vector<float> in(field.begin(), field.end());
            return runner->time_ms(req, in.data(), warmup, reps);
        }
        return runner->time_ms(req, field.data(), warmup, reps);
    }
};

Launcher make_launcher(const std::string& choice) {
    std::string why;
    std::unique_ptr<Backend> b = make_backend(choice, &why);
    if (!b) throw UserError(fmt::format("--backend {}: {}", choice, why));
    const BackendKind kind = b->kind();
    std::unique_ptr<DerivativeRunner> runner = make_derivative_runner(*b);
    return {kind, std::move(b), std::move(runner)};
}

nlohmann::json stats_json(const Stats& s) {
    return {{"min", s.min}, {"median", s.median}, {"max", s.max}, {"count", s.count}};
}

// ---- --convergence ------------------------------------------------------------------------------

int convergence(const DerivativeVersion& v, const Launcher& l, bool json) {
    nlohmann::json rows = nlohmann::json::array();
    std::vector<double> h, err;
    std::string text = fmt::format("{} ({}), fp64 on the {} backend: max |df - exact| on f = sin(2 pi x + 1) "
                                   "sin(2 pi y + 2) sin(2 pi z + 3)\n",
                                   v.name, v.title, to_string(l.kind));
    for (int n : convergence_extents()) {
        const GridDims g = convergence_grid(v.id, n);
        const auto [in, out] = l.run({v.id, Precision::f64, g}, sampled_test_field(g));
        const ErrorNorms e = error_against_exact(out, g, v.axis);
        h.push_back(grid_spacing(n));
        err.push_back(e.max);
        rows.push_back({{"n", n}, {"grid", {g.nx, g.ny, g.nz}}, {"h", h.back()}, {"max_error", e.max}, {"rms_error", e.rms}});
        text += fmt::format("  N = {:>3} ({}x{}x{})  h = {:.6f}  max error {:.3e}  rms {:.3e}{}\n", n, g.nx, g.ny, g.nz,
                            h.back(), e.max, e.rms,
                            err.size() > 1 ? fmt::format("  (x{:.1f} smaller)", err[err.size() - 2] / e.max) : "");
    }
    const double order = fitted_order(h, err);
    text += fmt::format("  measured order {:.2f} (least-squares slope of log error against log h; the scheme's is 8: "
                        "halving h divides the error by 2^8 = 256)\n",
                        order);
    if (json)
        std::cout << nlohmann::json{{"problem", "derivative"}, {"kernel", v.name}, {"backend", to_string(l.kind)},
                                    {"precision", "f64"}, {"convergence", rows}, {"order", order}}
                         .dump()
                  << "\n";
    else
        std::cout << text;
    return 0;
}

}  // namespace

void add_derivative_run_options(CLI::App& run) {
    run.add_flag("--convergence", derivative_args().convergence,
                 "--problem derivative: measure the dx^8 order on the kernel's own fp64 output (N = 16..128)");
}

namespace {

// What the command line asks for, checked before a backend is made.
struct DerivativeRun {
    const DerivativeVersion* v = nullptr;
    Precision precision = Precision::f32;
    bool json = false;
    std::string backend = "auto";
};

DerivativeRun parse_run(const CLI::App& app) {
    // (options of the other problems were refused by cmd_run.cpp)
    DerivativeRun r;
    const std::string kernel = option_or(app, "--kernel", "");
    r.v = find_derivative_version(kernel);
    if (!r.v)
        throw UserError(unknown_choice("kernel", kernel, derivative_version_names(), "for --problem derivative"));
    const std::string precision_text = option_or(app, "--precision", "f32");
    const auto precision = parse_precision(precision_text);
    if (!precision) throw UserError(fmt::format("unknown precision '{}' (choose f32 or f64)", precision_text));
    r.precision = *precision;
    r.json = option_given(app, "--json");
    r.backend = option_or(app, "--backend", "auto");
    return r;
}

// A seeded random field in [-1, 1): nothing smooth for a wrong offset to hide behind.
std::vector<double> random_field(GridDims d, std::uint64_t seed) {
    std::vector<double> field(static_cast<std::size_t>(d.cells()));
    std::uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
    for (double& x : field) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        x = double(s >> 11) * 0x1p-52 - 1.0;
    }
    return field;
}

// The run's description and its check, as JSON (times filled in later) and as text.
nlohmann::json describe(const DerivativeVersion& v, const Launcher& l, const DerivativeRequest& req,
                        std::uint64_t seed, const DerivativeCheck& check, const ErrorNorms& exact, double bytes,
                        std::string& text) {
    const int n = req.dims.nx;
    const DerivativeLaunch geo = derivative_launch(req.kernel, req.dims, req.precision);
    nlohmann::json j = {{"problem", "derivative"},
                        {"kernel", v.name},
                        {"function", v.function},
                        {"axis", std::string(to_string(v.axis))},
                        {"backend", std::string(to_string(l.kind))},
                        {"device", l.backend->device().name},
                        {"precision", std::string(to_string(req.precision))},
                        {"grid", {n, n, n}},
                        {"tile", derivative_tile_name(req.kernel, n)},
                        {"block", {geo.block.x, geo.block.y, geo.block.z}},
                        {"blocks", {geo.grid.x, geo.grid.y, geo.grid.z}},
                        {"shared_bytes", geo.smem_bytes},
                        {"seed", std::to_string(seed)},
                        {"ok", check.ok},
                        {"check",
                         {{"ok", check.ok},
                          {"cells", check.cells},
                          {"failed_cells", check.failed},
                          {"max_abs_err", check.max_abs_err},
                          {"max_rel_err", check.max_rel_err},
                          {"bound", check.gamma},
                          {"summary", check.summary()}}},
                        {"error_vs_exact", {{"max", exact.max}, {"rms", exact.rms}}},
                        {"bytes", bytes},
                        {"post_k20c_gbps", kPostK20cGbps},
                        {"time_ms", nullptr},
                        {"effective_gbps", nullptr},
                        {"copy_gbps", nullptr},
                        {"ratio_to_copy", nullptr}};
    text = fmt::format("{} ({}) on {} ({}), {}^3 {}: tile {}, blocks of {}x{}, {} B shared\n", v.name, v.function,
                       to_string(l.kind), l.backend->device().name, n, to_string(req.precision),
                       derivative_tile_name(req.kernel, n), geo.block.x, geo.block.y, geo.smem_bytes);
    text += fmt::format("  check     {}\n", check.summary());
    text += fmt::format("  exact     against the derivative of the smooth test field: max error {:.3e}, rms {:.3e}\n",
                        exact.max, exact.rms);
    return j;
}

// The timed launches, and on the GPU the copy of the same bytes in the same run: into `j` and `text`.
void time_run(const Launcher& l, const DerivativeRequest& req, const std::vector<double>& field, int warmup, int reps,
              double bytes, nlohmann::json& j, std::string& text) {
    const bool gpu = l.kind == BackendKind::cuda;
    const Stats t = summarize(l.time(req, field, warmup, reps));
    const double gbps = bytes / (t.median * 1e-3) / 1e9;
    j["time_ms"] = stats_json(t);
    j["effective_gbps"] = gbps;
    text += fmt::format("  time      min {:.4f} / median {:.4f} / max {:.4f} ms over {} launches{}\n", t.min, t.median,
                        t.max, t.count, gpu ? " (L2 flushed before each)" : " of the PTX engine");
    if (!gpu) {
        text += fmt::format("  bandwidth {:.3f} GB/s effective of the PTX engine (an interpreter: not a hardware "
                            "figure; the post's K20c: {:.1f} GB/s for x on 64^3 fp32; --backend cuda on a GPU)\n",
                            gbps, kPostK20cGbps);
        return;
    }
    const Stats copy = summarize(l.backend->copy_gbps(static_cast<long long>(bytes / 2), reps));
    j["copy_gbps"] = copy.median;
    j["ratio_to_copy"] = gbps / copy.median;
    if (const auto a = l.runner->attributes(req)) {
        j["registers_per_thread"] = a->registers_per_thread;
        j["occupancy"] = a->occupancy;
    }
    text += fmt::format("  bandwidth {:.1f} GB/s effective (read + write of every cell / median time) = {:.2f} x the "
                        "copy's {:.1f} GB/s measured now; the post's K20c: {:.1f} GB/s for x on 64^3 fp32\n",
                        gbps, gbps / copy.median, copy.median, kPostK20cGbps);
}

}  // namespace

int run_derivative(const CLI::App& app) {
    const DerivativeRun r = parse_run(app);
    const DerivativeVersion& v = *r.v;
    if (derivative_args().convergence) {
        for (const char* o : {"--size", "--reps", "--warmup", "--no-time", "--seed"})
            if (option_given(app, o)) throw UserError(fmt::format("--convergence chooses its own grids and runs: drop {}", o));
        if (r.precision != Precision::f64)
            throw UserError("--convergence measures fp64 (in fp32 rounding hides the dx^8 error from N = 32 on): "
                            "drop --precision f32");
        return convergence(v, make_launcher(r.backend), r.json);
    }
    const int n = option_or(app, "--size", kPostExtent);
    const DerivativeRequest req{v.id, r.precision, {n, n, n}};
    if (auto e = derivative_grid_error(req.kernel, req.dims, req.precision)) throw UserError(*e);
    const std::uint64_t seed = option_or(app, "--seed", std::uint64_t{1});
    const Launcher l = make_launcher(r.backend);
    const bool gpu = l.kind == BackendKind::cuda;
    const int reps = option_or(app, "--reps", gpu ? 20 : 1);
    const int warmup = option_or(app, "--warmup", gpu ? 3 : 0);

    // A run on the CPU engine that takes a while says so first (engine_estimate.h): one launch at
    // the post's 64^3 timed, scaled to the run's launches (the check, the smooth field, the timed ones).
    if (!gpu && n > kPostExtent) {
        const DerivativeRequest sample{v.id, r.precision, {kPostExtent, kPostExtent, kPostExtent}};
        if (!derivative_grid_error(sample.kernel, sample.dims, sample.precision)) {
            const std::vector<double> small = random_field(sample.dims, seed);
            say_engine_notice(fmt::format("{}^3", n), [&] { l.run(sample, small); }, double(sample.dims.cells()),
                              double(req.dims.cells()) * (2 + warmup + reps), fmt::format("--size {}", kPostExtent),
                              r.backend == "auto");
        }
    }

    // 1. the check on a random field; 2. the error against the exact derivative of a smooth one
    const std::vector<double> field = random_field(req.dims, seed);
    const auto [in, out] = l.run(req, field);
    const DerivativeCheck check = check_derivative(in, out, req.dims, v.axis, req.precision);
    const ErrorNorms exact = error_against_exact(l.run(req, sampled_test_field(req.dims)).second, req.dims, v.axis);
    // 3. the time; the bytes the post counts: every cell read once and written once
    const double bytes = 2.0 * double(req.dims.cells()) * bytes_of(req.precision);
    std::string text;
    nlohmann::json j = describe(v, l, req, seed, check, exact, bytes, text);
    if (!option_given(app, "--no-time") && check.ok) time_run(l, req, field, warmup, reps, bytes, j, text);
    if (r.json)
        std::cout << j.dump() << "\n";
    else
        std::cout << text;
    std::cout.flush();
    if (!check.ok) {
        fmt::print(stderr, "stencil-lab: {} gives a wrong result: {}\n", v.name, check.summary());
        return 1;
    }
    return 0;
}

}  // namespace stencil::cli
