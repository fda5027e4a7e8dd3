#include "viewer/core/roofline.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/backend.h"
#include "core/counters.h"
#include "core/run.h"
#include "core/stats.h"
#include "viewer/core/colormap.h"
#include "viewer/core/update_model.h"
#include "viewer/core/version_style.h"

namespace stencil::viewer {

Ceilings ceilings_from_file(const ResultsFile& f) {
    Ceilings c;
    c.device = f.device;
    const std::string name = f.path.empty() ? "the loaded file" : f.path.substr(f.path.find_last_of('/') + 1);
    if (f.copy_gbps && *f.copy_gbps > 0) {
        c.memory_gbps = f.copy_gbps;
        c.memory_source = "copy kernel of " + name;
    } else if (auto m = median_copy_gbps(f.runs)) {
        c.memory_gbps = m;
        c.memory_source = "median of the copies timed beside " + name + "'s runs";
    } else {
        c.memory_source = name + " has no copy bandwidth";
    }
    if (f.fma_gflops && *f.fma_gflops > 0) {
        c.compute_gflops = f.fma_gflops;
        c.compute_source = "FMA peak of " + name;
    } else {
        c.compute_source = f.fma_note.empty() ? name + " has no FMA peak" : f.fma_note;
    }
    return c;
}

std::optional<double> median_copy_gbps(const std::vector<RunRecord>& runs) {
    std::vector<double> v;
    for (const auto& r : runs)
        if (r.copy_gbps > 0) v.push_back(r.copy_gbps);
    if (v.empty()) return std::nullopt;
    return summarize(v).median;
}

Ceilings measure_ceilings(const std::string& backend, Precision p) {
    Ceilings c;
    std::string why;
    std::unique_ptr<Backend> b = make_backend(backend, &why);
    if (!b) {
        c.memory_source = c.compute_source = "no backend: " + why;
        return c;
    }
    c.device = b->device().name;
    const std::string where = std::string(to_string(b->kind()));
    try {
        const std::vector<double> gbps = b->copy_gbps(256ll << 20, 5);
        if (!gbps.empty()) {
            c.memory_gbps = summarize(gbps).median;
            c.memory_source = fmt::format("copy of 256 MiB on {}, measured now (median of {})", where, gbps.size());
        }
    } catch (const std::exception& e) {
        c.memory_source = std::string("copy failed: ") + e.what();
    }
    if (Counters* counters = b->counters()) {
        if (auto f = counters->fma_gflops(p, &why)) {
            c.compute_gflops = f;
            c.compute_source = fmt::format("FMA peak on {}, measured now (independent FMA chains)", where);
        } else {
            c.compute_source = "FMA peak not measured: " + why;
        }
    } else if (b->kind() == BackendKind::cuda) {
        c.compute_source = "FMA peak not measured: this backend reads no hardware counters";
    } else {
        // The PTX engine's speed is an interpreter's: a peak would measure the engine, not a GPU.
        c.compute_source = "no FMA peak on the CPU backend (the PTX engine interprets; its FLOP/s are no GPU's)";
    }
    return c;
}

std::optional<RooflinePoint> roofline_point(const RunRecord& r) {
    if (r.ms_median <= 0 || !r.error.empty()) return std::nullopt;
    const double flops = r.flops > 0 ? r.flops : stencil_flops(r.dims, r.radius);
    if (flops <= 0) return std::nullopt;
    RooflinePoint p;
    p.gflops = flops / (r.ms_median * 1e6);
    if (const auto rw = level_opb_rw(r.dram, flops)) {
        p.intensity = *rw;
        p.dram = true;
    } else {
        // Each launch reads and writes the grid once: a temporal launch fusing K steps moves the
        // bytes of one step for K steps' FLOPs.
        const Precision prec = r.precision == "f64" ? Precision::f64 : Precision::f32;
        p.intensity = flops / (minimum_bytes(r.dims, prec) * r.launches());
    }
    return p;
}

namespace {

std::string point_label(const RunRecord& r) {
    if (r.tile <= 0) return r.kernel;  // peers have no T
    return r.fused_steps > 1 ? fmt::format("{} T={} K={}", r.kernel, r.tile, r.fused_steps)
                             : fmt::format("{} T={}", r.kernel, r.tile);
}

// One series per kernel name (peers too: torch, cuDNN...), in the version table's colours.
void add_points(RooflineFigure& f, const std::vector<RunRecord>& runs, int radius, Precision p,
                std::vector<double>& xs, std::vector<double>& ys) {
    std::vector<std::string> names;
    for (const auto& r : runs)
        if (std::find(names.begin(), names.end(), r.kernel) == names.end()) names.push_back(r.kernel);
    for (size_t k = 0; k < names.size(); ++k) {
        Series s;
        s.name = names[k];
        const auto* v = find_version(names[k]);
        s.colour = pack(v ? version_style(v->id).colour : category((int)k));
        s.line = false;
        s.markers = true;
        s.marker = v ? version_style(v->id).marker : MarkerShape::diamond;
        for (const auto& r : runs) {
            if (r.kernel != names[k] || r.radius != radius || r.precision != to_string(p)) continue;
            const auto pt = roofline_point(r);
            if (!pt) continue;
            s.x.push_back(pt->intensity);
            s.y.push_back(pt->gflops);
            s.labels.push_back(point_label(r));
            f.dram_points += pt->dram;
            xs.push_back(pt->intensity);
            ys.push_back(pt->gflops);
        }
        if (s.x.empty()) continue;
        f.points += (int)s.x.size();
        f.series.push_back(std::move(s));
    }
}

// The z-chunked kernels' model on the memory ceiling: FLOP per DRAM byte per update
// (analysis::update_traffic at the row's default T; temporal: each K), at the GFLOP/s a
// DRAM-bound launch reaches there. Only with a memory ceiling to place them on.
void add_model_points(RooflineFigure& f, const Ceilings& c, int radius, Precision p, std::vector<double>& xs,
                      std::vector<double>& ys) {
    if (!c.memory_gbps) return;
    for (const auto& v : kernel_versions()) {
        if (!has_update_model(v.id)) continue;
        Series s;
        s.name = std::string(v.name) + " (model, DRAM bytes per update)";
        s.colour = pack(version_style(v.id).colour, 0.55f);  // fainter than the measured points
        s.line = false;
        s.markers = true;
        s.marker = version_style(v.id).marker;
        for (int K : fused_choices(v.id)) {
            const UpdateModel m = update_model(v.id, v.default_tile, radius, p, K);
            if (m.invalid || m.opb_dram <= 0) continue;
            double gflops = *c.memory_gbps * m.opb_dram;
            if (c.compute_gflops) gflops = std::min(gflops, *c.compute_gflops);
            s.x.push_back(m.opb_dram);
            s.y.push_back(gflops);
            s.labels.push_back(v.max_fused_steps > 1 ? fmt::format("model K={}", K) : std::string("model"));
            xs.push_back(m.opb_dram);
            ys.push_back(gflops);
        }
        if (s.x.empty()) continue;
        f.model_points += (int)s.x.size();
        f.series.push_back(std::move(s));
    }
}

}  // namespace

RooflineFigure roofline_figure(const std::vector<RunRecord>& runs, const Ceilings& given, int radius, Precision p) {
    RooflineFigure f;
    Ceilings c = given;
    if (!c.memory_gbps)  // runs made here timed a copy beside each kernel
        if (auto m = median_copy_gbps(runs)) {
            c.memory_gbps = m;
            c.memory_source = "median of the copies timed beside the runs";
        }
    std::vector<double> xs, ys;
    add_points(f, runs, radius, p, xs, ys);
    add_model_points(f, c, radius, p, xs, ys);
    if (c.memory_gbps && c.compute_gflops) f.ridge = *c.compute_gflops / *c.memory_gbps;
    if (f.ridge > 0) xs.push_back(f.ridge);
    if (c.compute_gflops) ys.push_back(*c.compute_gflops);
    if (xs.empty()) xs = {0.1, 10};
    if (ys.empty()) ys = {1, 1000};
    const auto [xlo, xhi] = std::minmax_element(xs.begin(), xs.end());
    const auto [ylo, yhi] = std::minmax_element(ys.begin(), ys.end());
    // A decade's room around the data: the ceilings' slope and the points' distance to them show.
    f.x = {std::pow(10, std::floor(std::log10(*xlo)) - 0.3), std::pow(10, std::ceil(std::log10(*xhi)) + 0.3),
           AxisScale::log10, "arithmetic intensity (FLOP per byte: DRAM when counted, else 2 x cells x sizeof)"};
    f.y = {std::pow(10, std::floor(std::log10(*ylo)) - 0.3), std::pow(10, std::ceil(std::log10(*yhi)) + 0.3),
           AxisScale::log10, "GFLOP/s (12r+1 per output / median time)"};
    // The ceilings first (drawn under the points): min(bandwidth x intensity, peak).
    if (c.memory_gbps) {
        Series m;
        m.name = fmt::format("memory: {:.0f} GB/s (copy)", *c.memory_gbps);
        m.colour = pack({0.55f, 0.8f, 1.0f});
        const double end = f.ridge > 0 ? f.ridge : f.x.hi;
        m.x = {f.x.lo, end};
        m.y = {*c.memory_gbps * f.x.lo, *c.memory_gbps * end};
        f.series.insert(f.series.begin(), std::move(m));
    }
    if (c.compute_gflops) {
        Series m;
        m.name = fmt::format("compute: {:.0f} GFLOP/s (FMA peak)", *c.compute_gflops);
        m.colour = pack({1.0f, 0.6f, 0.45f});
        m.x = {f.ridge > 0 ? f.ridge : f.x.lo, f.x.hi};
        m.y = {*c.compute_gflops, *c.compute_gflops};
        f.series.insert(f.series.begin() + (c.memory_gbps ? 1 : 0), std::move(m));
    }
    const std::string none = "no sweep loaded and none measured here yet";
    if (!c.memory_gbps) f.note += "no memory ceiling: " + (c.memory_source.empty() ? none : c.memory_source) + ". ";
    if (!c.compute_gflops) f.note += "no compute ceiling: " + (c.compute_source.empty() ? none : c.compute_source) + ".";
    f.used = c;
    if (f.points == 0) f.note += (f.note.empty() ? "" : " ") + std::string("No timed runs at this r and precision: run or load a sweep (runs panel).");
    return f;
}

}  // namespace stencil::viewer
