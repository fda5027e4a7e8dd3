#include "cli/engine_estimate.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "core/backend.h"
#include "core/field.h"
#include "core/weights.h"

namespace stencil::cli {

EngineEstimate estimate_engine_run(EngineRuns& engine, const RunOptions& opt) {
    const LaunchRequest& req = opt.request;
    LaunchRequest sample = req;
    // The grid shrinks, never below what the run's own grid has on an axis (a 1000 x 8 x 8 grid
    // samples 32 x 8 x 8): the engine's cost per cell depends on the blocks' shape at the faces.
    sample.dims = {std::min(req.dims.nx, kSampleSide), std::min(req.dims.ny, kSampleSide),
                   std::min(req.dims.nz, kSampleSide)};
    sample.steps = steps_per_launch(req);  // one launch: the run's S steps scale from it
    engine.ptx(sample);                    // compiled (or read from the cache) before the clock starts

    const std::size_t bytes = static_cast<std::size_t>(sample.dims.cells()) * bytes_of(req.precision);
    std::vector<unsigned char> in(bytes), out(bytes);
    if (req.precision == Precision::f32) {
        const auto f = random_field<float>(sample.dims, opt.seed);
        std::memcpy(in.data(), f.data.data(), bytes);
    } else {
        const auto f = random_field<double>(sample.dims, opt.seed);
        std::memcpy(in.data(), f.data.data(), bytes);
    }
    const auto t0 = std::chrono::steady_clock::now();
    engine.run(sample, random_weights(req.radius, opt.seed), in.data(), out.data(), engine::ExecOptions{});
    const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    EngineEstimate e;
    e.sample_seconds = t;
    e.sample_cells = sample.dims.cells();
    // The checked launch, then (timed runs) the warm-up and timed launches, each S steps of the grid.
    const double launches = 1.0 + (opt.time ? opt.warmup + opt.reps : 0);
    const double per_run = t * (static_cast<double>(req.dims.cells()) / e.sample_cells) *
                           (static_cast<double>(std::max(req.steps, 1)) / sample.steps);
    e.seconds = launches * per_run;
    return e;
}

namespace {

std::string grid_text(const GridDims& d) {
    if (d.nx == d.ny && d.ny == d.nz) return fmt::format("{}^3", d.nx);
    return fmt::format("{}x{}x{}", d.nx, d.ny, d.nz);
}

// Rounded as a person says it: seconds under a minute and a half, minutes under two hours.
std::string duration_text(double s) {
    if (s < 90) return fmt::format("{:.0f} s", std::max(1.0, std::round(s)));
    if (s < 2 * 3600) return fmt::format("{:.0f} min", std::round(s / 60));
    return fmt::format("{:.1f} h", s / 3600);
}

}  // namespace

void say_engine_notice(const std::string& what, const std::function<void()>& sample, double sample_work, double work,
                       const std::string& quick, bool no_gpu) {
    sample();  // compiles and loads the kernel
    const auto t0 = std::chrono::steady_clock::now();
    sample();
    const double sample_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double seconds = sample_work > 0 ? sample_seconds * work / sample_work : 0;
    if (seconds < kNoticeSeconds) return;
    fmt::print(stderr, "stencil-lab: {}running {} on the CPU engine, about {}{}\n", no_gpu ? "no GPU: " : "", what,
               duration_text(seconds), quick.empty() ? "" : "; " + quick + " for a quick look");
    std::fflush(stderr);
}

std::string engine_run_notice(const GridDims& dims, const EngineEstimate& e, bool no_gpu) {
    const bool big = dims.cells() > 64LL * 64 * 64;
    return fmt::format("{}running {} on the CPU engine, about {}{}", no_gpu ? "no GPU: " : "", grid_text(dims),
                       duration_text(e.seconds), big ? "; --size 64 for a quick look" : "");
}

}  // namespace stencil::cli
