// The App's update functions: each recomputes, through stencil_viewer_core, what one change of
// the user's affects. Called from panels on input, never every frame.
#include "viewer/app.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/backend.h"
#include "core/error.h"
#include "viewer/core/colormap.h"

namespace stencil::viewer {

const char* panel_name(PanelId p) {
    static const char* n[] = {"stepper", "opb", "halos", "coalescing", "runs"};
    return n[(int)p];
}
const char* panel_title(PanelId p) {
    static const char* n[] = {"Stepper: one block, barrier by barrier", "OP/B against T",
                              "Halos: input tile vs output tile", "Coalescing: one warp's loads",
                              "Runs: time, GB/s, error"};
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
    if (!exp.runnable.empty() && std::find(exp.runnable.begin(), exp.runnable.end(), c.tile) == exp.runnable.end()) {
        int best = exp.runnable.front();
        for (int t : exp.runnable)
            if (std::abs(t - c.tile) < std::abs(best - c.tile)) best = t;
        c.tile = best;
    }
    const auto g = launch_geometry(c.kernel, c.tile, c.radius, c.precision, c.dims);
    c.block.x = std::clamp(c.block.x, 0, std::max(0, g.grid.x - 1));
    c.block.y = std::clamp(c.block.y, 0, std::max(0, g.grid.y - 1));
    c.block.z = std::clamp(c.block.z, 0, std::max(0, g.grid.z - 1));
    const bool kernel_changed = !exp.source.path.empty() || !exp.source.error.empty()
                                    ? exp.cfg.kernel != c.kernel
                                    : true;
    exp.cfg = c;
    exp.trace = trace_block(c);
    if (kernel_changed || exp.source.lines.empty()) exp.source = load_kernel_source(c.kernel, exe_dir);
    exp.block_summary = summarize_loads(exp.trace, -1);
    exp.slice = 0;
    set_warp(std::min(exp.warp, std::max(0, warps_in_block(exp.trace.geo.block) - 1)));
    set_step(exp.trace.ok() && !exp.trace.interval_end.empty() ? exp.trace.interval_end.front() : 0);
}

void App::set_step(int step) {
    exp.step = std::clamp(step, 0, std::max(0, exp.trace.last_step()));
    exp.state = stepper_state(exp.trace, exp.step);
    exp.lines = exp.state.interval >= 0 ? interval_lines(exp.source, exp.state.interval, exp.trace.intervals)
                                        : std::vector<LineRange>{};
}

void App::set_warp(int warp) {
    exp.warp = std::max(0, warp);
    exp.warp_loads = warp_loads(exp.trace, exp.warp);
    exp.warp_summary = summarize_loads(exp.trace, exp.warp);
    exp.prediction = predicted_warp(exp.cfg.kernel, exp.cfg.tile, exp.cfg.radius, exp.cfg.precision, exp.cfg.dims,
                                    exp.warp);
    exp.request = 0;
}

void App::rebuild_opb() {
    auto& o = opb;
    o.series.clear();
    o.refs.clear();
    o.points.clear();
    o.table.clear();
    std::vector<double> ys, xs;
    for (const auto& v : kernel_versions()) {
        Series s;
        s.name = std::string(v.name) + " (model)";
        s.colour = pack(category((int)v.id));
        // tiled, coarsened and register-tiled share one formula: tiled stops at T = 10 (T^3 <= 1024
        // threads), the two z-marching kernels coincide and are told apart by dashes.
        s.dashed = v.id == KernelId::naive || v.id == KernelId::register_tiled;
        const auto tiles = v.id == KernelId::naive ? model_tiles(KernelId::tiled, o.radius, o.precision)
                                                   : model_tiles(v.id, o.radius, o.precision);
        for (int T : tiles) {
            const KernelModel m = kernel_model(v.id, T, o.radius, o.precision);
            s.x.push_back(T);
            s.y.push_back(m.opb);
        }
        if (v.id == KernelId::naive && !tiles.empty()) {  // flat: no T in its model, draw across
            const auto all = model_tiles(KernelId::coarsened, o.radius, o.precision);
            if (!all.empty()) {
                s.x = {(double)tiles.front(), (double)all.back()};
                s.y = {s.y.front(), s.y.front()};
            }
        }
        s.markers = v.id != KernelId::naive;
        xs.insert(xs.end(), s.x.begin(), s.x.end());
        ys.insert(ys.end(), s.y.begin(), s.y.end());
        o.series.push_back(std::move(s));
        o.table.push_back(kernel_model(v.id, v.default_tile, o.radius, o.precision));
    }
    // Draw the tiled curve last (on top of the z-marching ones it coincides with).
    std::swap(o.series[1], o.series[3]);
    // Measured from CPU traces (requested bytes), when the user asked for them.
    for (const auto& v : kernel_versions()) {
        Series s;
        s.name = std::string(v.name) + " (trace, requested bytes)";
        s.colour = pack(category((int)v.id));
        s.line = false;
        s.markers = true;
        for (const auto& m : o.measured)
            if (m.kernel == v.id && m.error.empty() && m.radius == o.radius) {
                s.x.push_back(m.tile);
                s.y.push_back(m.opb);
            }
        if (!s.x.empty()) o.series.push_back(std::move(s));
    }
    // GPU counters: from a GPU run or a loaded results file, else greyed out with the reason.
    Series dram;
    dram.name = "DRAM-level OP/B (GPU counters)";
    dram.colour = pack({0.95f, 0.95f, 0.95f});
    dram.line = false;
    dram.markers = true;
    for (const auto& r : runs.records) {
        if (!r.dram_bytes || *r.dram_bytes <= 0 || r.radius != o.radius) continue;
        if (r.precision != std::string(to_string(o.precision))) continue;
        dram.x.push_back(r.tile);
        dram.y.push_back(r.flops / *r.dram_bytes);
    }
    if (dram.x.empty()) {
        dram.greyed = true;
        dram.greyed_why = gpu_unavailable ? "no GPU here (" + *gpu_unavailable + "); load a results.json with counters"
                                          : "run on the GPU, or load a results.json with counters, to see these";
    } else {
        ys.insert(ys.end(), dram.y.begin(), dram.y.end());
    }
    o.series.push_back(std::move(dram));

    const KernelModel tiled8 = kernel_model(KernelId::tiled, 8, o.radius, o.precision);
    o.formula = tiled8.opb_formula;
    o.refs.push_back({true, tiled8.opb_limit,
                      fmt::format("limit (12r+1)/{} = {:.2f} (only 6r additions: not 7/2)", bytes_of(o.precision),
                                  tiled8.opb_limit),
                      pack({0.9f, 0.9f, 0.9f}, 0.8f)});
    ys.push_back(tiled8.opb_limit);
    if (o.radius == 1 && o.precision == Precision::f32) {
        o.points.push_back({8, 13.0 * 216 / (4 * 512), "seed: 1.37 at T = 8", pack({1, 1, 1})});
        o.points.push_back({32, 13.0 * 27000 / (4 * 32768), "seed: 2.68 at T = 32 (coarsened)", pack({1, 1, 1})});
        o.points.push_back({4, 13.0 * 8 / (4 * 64), "seed: 0.41 at T = 4", pack({1, 1, 1})});
    }
    const Range rx = fit_range(xs, AxisScale::linear, 0.03);
    o.x = {std::max(0.0, rx.lo), rx.hi, AxisScale::linear, "tile edge T (input cells per side)"};
    if (o.log_y) {
        const Range ry = fit_range(ys, AxisScale::log10, 0.05);
        o.y = {ry.lo, ry.hi, AxisScale::log10, "OP/B (FLOP per byte from global memory)"};
    } else {
        double hi = 0;
        for (double v : ys) hi = std::max(hi, v);
        o.y = {0, hi * 1.12, AxisScale::linear, "OP/B (FLOP per byte from global memory)"};
    }
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
                if (v.id == KernelId::naive && T != 8) continue;
                if (v.id != KernelId::naive && T > 16) continue;  // keep it to seconds on a laptop
                out.push_back(measure_trace_opb(v.id, T, r, p, d));
            }
        }
        return out;
    });
}

void App::poll() {
    if (opb.measuring.valid() && opb.measuring.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
        opb.measured = opb.measuring.get();
        rebuild_opb();
    }
    auto fresh = runs.runner.take_finished();
    if (!fresh.empty()) {
        runs.records.insert(runs.records.end(), fresh.begin(), fresh.end());
        rebuild_opb();
    }
}

void App::rebuild_halos() {
    auto& h = halo;
    h.fig = halo_figures(h.tile, h.radius, h.dims);
    h.series.clear();
    h.points.clear();
    for (int d : {3, 2}) {
        Series s;
        s.name = d == 3 ? "3D tile T^3" : "2D tile T^2";
        s.colour = pack(category(d == 3 ? 1 : 0));
        s.markers = false;
        for (int T = 2 * h.radius + 1; T <= 64; ++T) {
            s.x.push_back(T);
            s.y.push_back(100 * halo_figures(T, h.radius, d).fraction);
        }
        h.series.push_back(std::move(s));
    }
    if (h.radius == 1) {
        h.points.push_back({8, 100 * halo_figures(8, 1, 3).fraction, "seed: 8^3 tile, 296 of 512 = 58%", pack({1, 1, 1})});
        h.points.push_back({32, 100 * halo_figures(32, 1, 2).fraction, "seed: 32x32 tile, 124 of 1024 = 12%",
                            pack({1, 1, 1})});
    }
    h.points.push_back({(double)h.tile, 100 * h.fig.fraction, "", pack({1.0f, 0.85f, 0.2f})});  // this tile: a ring (the seeds carry the labels)
    h.x = {0, 65, AxisScale::linear, "tile edge T (cells)"};
    h.y = {0, 100, AxisScale::linear, "halo share of the input tile (%)"};
}

void App::start_runs(bool sweep) {
    auto& r = runs;
    JobOptions o;
    o.backend = r.backend == 0 ? "auto" : r.backend == 1 ? "cuda" : "cpu";
    o.reps = r.reps;
    const GridDims d{r.n[0], r.n[1], r.n[2]};
    if (sweep) o.runs = sweep_requests(r.kernel, r.radius, r.precision, d);
    else o.runs = {{r.kernel, r.tile, r.radius, r.precision, d}};
    std::string why;
    if (!r.runner.start(std::move(o), &why)) r.message = why;
    else r.message.clear();
}

void App::load_results_file() {
    try {
        ResultsFile f = load_results(runs.path);
        runs.message = fmt::format("loaded {} runs from {}{}", f.runs.size(), runs.path,
                                   f.device.empty() ? "" : " (" + f.device + ")");
        runs.records.insert(runs.records.end(), f.runs.begin(), f.runs.end());
        rebuild_opb();
    } catch (const std::exception& e) {
        runs.message = e.what();
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

}  // namespace stencil::viewer
