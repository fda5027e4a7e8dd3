#include "viewer/core/figures.h"

#include <fmt/format.h>

#include <algorithm>

#include "viewer/core/colormap.h"
#include "viewer/core/update_model.h"
#include "viewer/core/version_style.h"

namespace stencil::viewer {

namespace {

// Every plotted x and y, in the order added, for fitting the axes to all of them.
struct PlottedValues {
    std::vector<double> xs, ys;
    void add(const Series& s) {
        xs.insert(xs.end(), s.x.begin(), s.x.end());
        ys.insert(ys.end(), s.y.begin(), s.y.end());
    }
};

Series model_series(const KernelVersion& v, int radius, Precision precision) {
    Series s;
    s.name = std::string(v.name) + " (model)";
    s.group = v.name;
    s.colour = pack(version_style(v.id).colour);
    s.marker = version_style(v.id).marker;
    const bool flat = !v.tile_is_template;  // naive, conv27: no T in the model
    s.dashed = flat;
    const auto tiles = flat ? model_tiles(KernelId::tiled, radius, precision) : model_tiles(v.id, radius, precision);
    for (int T : tiles) {
        const KernelModel m = kernel_model(v.id, T, radius, precision);
        s.x.push_back(T);
        s.y.push_back(m.opb);
    }
    if (flat && !tiles.empty()) {  // no T in its model: draw across
        const auto all = model_tiles(KernelId::coarsened, radius, precision);
        if (!all.empty()) {
            s.x = {(double)tiles.front(), (double)all.back()};
            s.y = {s.y.front(), s.y.front()};
        }
    }
    s.markers = !flat;
    return s;
}

// A z-chunked kernel's curve: FLOP per byte moved (loads and stores) per cell update, from
// analysis::update_traffic. Temporal's curves (one per K) are labelled K = k at their last point.
Series update_series(const UpdateCurve& c) {
    Series s;
    s.name = update_curve_name(c);
    s.group = update_curve_group(c);
    s.colour = pack(version_style(c.kernel).colour);
    s.marker = version_style(c.kernel).marker;
    s.markers = true;
    s.dashed = c.fused % 2 == 0;  // neighbouring K apart where the curves cross
    for (const auto& m : c.points) {
        s.x.push_back(m.tile);
        s.y.push_back(m.opb_requested);
    }
    if (version(c.kernel).max_fused_steps > 1) {
        s.labels.assign(s.x.size(), std::string());
        s.labels[s.labels.size() * 3 / 4] = fmt::format("K = {}", c.fused);  // clear of the T = 32 crowd
    }
    return s;
}

void add_model_series(OpbFigure& o, PlottedValues& plotted, int radius, Precision precision) {
    const std::vector<UpdateCurve> curves = update_curves(radius, precision);
    std::vector<Series> more_k;  // temporal's other K: drawn, labelled, not listed
    for (const auto& v : kernel_versions()) {
        Series s = model_series(v, radius, precision);
        if (has_update_model(v.id)) {
            s = Series{};
            s.name = std::string(v.name) + " (model)";
            s.colour = pack(version_style(v.id).colour);
            for (const auto& c : curves) {
                if (c.kernel != v.id) continue;
                Series u = update_series(c);
                for (const auto& m : c.points)
                    if (m.tile == v.default_tile) o.updates.push_back(m);
                if (c.fused == v.fused_steps) s = std::move(u);
                else {  // drawn and labelled, not listed; lines only, so the textbook's labels find room
                    u.in_legend = false;
                    u.markers = false;
                    more_k.push_back(std::move(u));
                }
            }
        }
        // register-tiled has coarsened's formula: the same curve. Drawn as hollow squares over
        // coarsened's dots (so both show) and the legend says so.
        if (v.id == KernelId::register_tiled) {
            const auto& c = o.series[(int)KernelId::coarsened];
            if (c.x == s.x && c.y == s.y) {
                s.name += " = coarsened";
                s.line = false;
            }
        }
        plotted.add(s);
        o.series.push_back(std::move(s));
        o.table.push_back(kernel_model(v.id, v.default_tile, radius, precision));
    }
    for (auto& s : more_k) {
        plotted.add(s);
        o.series.push_back(std::move(s));
    }
    // Draw the tiled curve after coarsened (it coincides with it up to T = 10).
    std::swap(o.series[1], o.series[2]);
}

// The measured levels: a marker each (the colour is the kernel's, as on its model curve).
struct LevelKey {
    const char* key;    // the legend's entry
    const char* label;  // in a point's series name
    MarkerShape marker;
};
constexpr LevelKey kLevels[3] = {
    {"requested bytes (CPU trace or GPU counters)", "requested", MarkerShape::diamond},
    {"L2 FLOP/B read (GPU counters)", "L2", MarkerShape::triangle},
    {"DRAM FLOP/B read (GPU counters)", "DRAM", MarkerShape::cross},
};

// A legend-only entry for a level: its marker in a neutral colour, greyed while no point has it.
Series level_key(int level) {
    Series s;
    s.name = kLevels[level].key;
    s.colour = pack({0.85f, 0.85f, 0.85f});
    s.line = false;
    s.markers = true;
    s.marker = kLevels[level].marker;
    return s;
}

// The points of one kernel at one level: drawn, not listed (the kernel's curve and the level's key
// are in the legend).
Series measured_series(const KernelVersion& v, int level, const char* source) {
    Series s;
    s.name = fmt::format("{} ({}, {})", v.name, source, kLevels[level].label);
    s.group = v.name;
    s.colour = pack(version_style(v.id).colour);
    s.line = false;
    s.markers = true;
    s.marker = kLevels[level].marker;
    s.in_legend = false;
    return s;
}

// Measured from CPU traces (requested bytes), at this chart's r and precision only.
void add_trace_series(OpbFigure& o, PlottedValues& plotted, int radius, Precision precision,
                      const std::vector<TraceOpb>& measured) {
    for (const auto& v : kernel_versions()) {
        Series s = measured_series(v, 0, "CPU trace");
        s.name = std::string(v.name) + " (CPU trace, requested bytes)";
        for (const auto& m : measured)
            if (m.kernel == v.id && m.error.empty() && m.radius == radius && m.precision == precision) {
                s.x.push_back(m.tile);
                s.y.push_back(m.opb);
            }
        if (s.x.empty()) continue;
        o.trace_points += (int)s.x.size();
        plotted.add(s);
        o.series.push_back(std::move(s));
    }
}

// Runs' measured levels (requested, L2 and DRAM), FLOP per byte read: the model's convention, so
// that a point above the model line is reuse the caches caught. From runs of this r and precision,
// one series per kernel and level. Returns the file's own reason, when rows say why a level is
// missing.
std::string add_counter_series(OpbFigure& o, PlottedValues& plotted, int radius, Precision precision,
                               const std::vector<RunRecord>& runs) {
    std::string note;
    int* counts[3] = {&o.requested_points, &o.l2_points, &o.dram_points};
    for (int level = 0; level < 3; ++level) {
        const size_t key = o.series.size();
        o.series.push_back(level_key(level));
        for (const auto& v : kernel_versions()) {
            Series s = measured_series(v, level, "runs");
            for (const auto& r : runs) {
                if (r.radius != radius || r.precision != to_string(precision) || r.kernel_id() != v.id) continue;
                const RunRecord::Level& l = level == 0 ? r.requested : level == 1 ? r.l2 : r.dram;
                if (const auto y = level_opb_read(l, r.flops)) {
                    s.x.push_back(r.tile);
                    s.y.push_back(*y);
                } else if (level > 0 && note.empty() && !l.note.empty()) {
                    note = l.note;
                }
            }
            if (s.x.empty()) continue;
            *counts[level] += (int)s.x.size();
            plotted.add(s);
            o.series.push_back(std::move(s));
        }
        // The requested level has CPU-trace points too: its key is greyed only with neither.
        o.series[key].greyed = *counts[level] == 0 && (level > 0 || o.trace_points == 0);
    }
    return note;
}

void explain_missing_counters(OpbFigure& o, int radius, Precision precision, const std::vector<RunRecord>& runs,
                              const std::string& note, const std::optional<std::string>& gpu_unavailable) {
    if (o.l2_points > 0 && o.dram_points > 0) return;
    const bool any_counters = std::any_of(runs.begin(), runs.end(), [](const RunRecord& r) {
        return r.dram.measured() || r.l2.measured();
    });
    const std::string here = fmt::format("r = {}, {}", radius, to_string(precision));
    if (any_counters) o.counters_why = "the loaded runs have counters, but none at " + here;
    else if (!note.empty()) o.counters_why = "the runs say: " + note;
    else if (gpu_unavailable) o.counters_why = "no GPU here (" + *gpu_unavailable + "): load a GPU sweep's results.json";
    else o.counters_why = "run on the GPU (runs panel), or load a GPU sweep's results.json";
    for (auto& s : o.series)
        if (s.greyed) s.greyed_why = o.counters_why;
    // The requested level's key is greyed for want of any measurement, not of a GPU.
    for (auto& s : o.series)
        if (s.name == kLevels[0].key && s.greyed) s.greyed_why = "measure from CPU traces, or load a sweep";
}

// The formula's text, the T -> infinity limit and (at r = 1, f32) the textbook's figures.
void add_references(OpbFigure& o, PlottedValues& plotted, int radius, Precision precision) {
    // The formula's text from the smallest T the tiled kernel runs at this r (T = 8 cannot at r = 4).
    const auto tiled_tiles = model_tiles(KernelId::tiled, radius, precision);
    const KernelModel smallest = kernel_model(KernelId::tiled, tiled_tiles.empty() ? 8 : tiled_tiles.front(), radius, precision);
    o.formula = smallest.opb_formula;
    o.model_limit = smallest.invalid ? 0.0 : smallest.opb_limit;
    const double limit = opb_limit_at_infinity(radius, precision);
    o.refs.push_back({true, limit, fmt::format("limit T -> inf: (12r+1)/{} = {:.2f}", bytes_of(precision), limit),
                      pack({0.9f, 0.9f, 0.9f}, 0.8f), {}});
    plotted.ys.push_back(limit);
    if (radius != 1 || precision != Precision::f32) return;
    // The seeds' figures, from the model (they must agree with the docs: tests check both).
    const double t8 = kernel_model(KernelId::tiled, 8, 1, precision).opb;
    const double c32 = kernel_model(KernelId::coarsened, 32, 1, precision).opb;
    const double t4 = kernel_model(KernelId::tiled, 4, 1, precision).opb;
    o.points.push_back({8, t8, fmt::format("textbook: {:.2f} at T = 8", t8), pack({1, 1, 1})});
    o.points.push_back({32, c32, fmt::format("textbook: {:.2f} at T = 32 (coarsened)", c32), pack({1, 1, 1})});
    o.points.push_back({4, t4, fmt::format("textbook: {:.2f} at T = 4", t4), pack({1, 1, 1})});
    for (const auto& p : o.points) plotted.xs.push_back(p.x), plotted.ys.push_back(p.y);
}

void fit_opb_axes(OpbFigure& o, const PlottedValues& plotted, bool log_y) {
    const Range rx = fit_range(plotted.xs, AxisScale::linear, 0.03);
    o.x = {std::max(0.0, rx.lo), rx.hi, AxisScale::linear, "tile edge T (input cells per side)"};
    if (log_y) {
        const Range ry = fit_range(plotted.ys, AxisScale::log10, 0.05);
        o.y = {ry.lo, ry.hi, AxisScale::log10, "OP/B (FLOP per byte)"};
    } else {
        double hi = 0;
        for (double v : plotted.ys) hi = std::max(hi, v);
        o.y = {0, hi * 1.12, AxisScale::linear, "OP/B (FLOP per byte)"};
    }
}

}  // namespace

OpbFigure opb_figure(int radius, Precision precision, bool log_y, const std::vector<TraceOpb>& measured,
                     const std::vector<RunRecord>& runs, const std::optional<std::string>& gpu_unavailable) {
    OpbFigure o;
    PlottedValues plotted;
    add_model_series(o, plotted, radius, precision);
    add_trace_series(o, plotted, radius, precision, measured);
    const std::string note = add_counter_series(o, plotted, radius, precision, runs);
    explain_missing_counters(o, radius, precision, runs, note, gpu_unavailable);
    add_references(o, plotted, radius, precision);
    fit_opb_axes(o, plotted, log_y);
    return o;
}

HaloFigure halo_figure(int tile, int radius, int dims, int slice) {
    HaloFigure h;
    h.slice = slice < 0 ? tile / 2 : std::min(slice, tile - 1);
    h.counts = halo_counts(tile, radius, dims);
    h.fig = halo_figures(tile, radius, dims);
    for (int d : {3, 2}) {
        Series s;
        s.name = d == 3 ? "3D tile T^3" : "2D tile T^2";
        s.colour = pack(category(d == 3 ? 1 : 0));
        s.markers = false;
        for (int T = 2 * radius + 1; T <= 64; ++T) {
            s.x.push_back(T);
            s.y.push_back(100 * halo_figures(T, radius, d).fraction);
        }
        h.series.push_back(std::move(s));
    }
    if (radius == 1) {
        const HaloFigures a = halo_figures(8, 1, 3), b = halo_figures(32, 1, 2);
        h.points.push_back({8, 100 * a.fraction,
                            fmt::format("textbook: 8^3 tile, {} of {} = {:.0f}%", a.halo_cells, a.in_cells, 100 * a.fraction),
                            pack({1, 1, 1})});
        h.points.push_back({32, 100 * b.fraction,
                            fmt::format("textbook: 32x32 tile, {} of {} = {:.0f}%", b.halo_cells, b.in_cells, 100 * b.fraction),
                            pack({1, 1, 1})});
        // (short enough to find a clear spot at a projector's 40 px: the legend names the curves)
        h.short_labels = {fmt::format("8^3: {:.0f}%", 100 * a.fraction), fmt::format("32x32: {:.0f}%", 100 * b.fraction)};
    }
    h.points.push_back({(double)tile, 100 * h.fig.fraction, "", pack({1.0f, 0.85f, 0.2f})});  // this tile: a ring
    h.short_labels.push_back("");
    h.x = {0, 65, AxisScale::linear, "tile edge T (cells)"};
    h.y = {0, 100, AxisScale::linear, "halo share of the input tile (%)"};
    h.share_text = fmt::format("{} of {} cells = {:.1f}%  (output {})", h.fig.halo_cells, h.fig.in_cells,
                               100 * h.fig.fraction, h.fig.out_cells);
    // fmt's positional {0}, never printf's %N$ (glibc aborts on a format that mixes or skips them).
    h.grid_label = dims == 3 ? fmt::format("slice z = {} of the {}^3 tile", h.slice, tile)
                             : fmt::format("the {0}x{0} tile", tile);
    h.slice_counts = dims == 3 ? halo_slice_counts(tile, radius, h.slice) : h.counts;
    const long long halo = h.slice_counts.halo_read + h.slice_counts.halo_unread;
    const long long cells = halo + h.slice_counts.output;
    h.slice_fraction = cells > 0 ? double(halo) / double(cells) : 0.0;
    h.slice_text = fmt::format("{}: {} of {} cells halo = {:.1f}% ({} never read)",
                               dims == 3 ? fmt::format("slice z = {}", h.slice) : std::string("the tile"), halo, cells,
                               100 * h.slice_fraction, h.slice_counts.halo_unread);
    return h;
}

HaloCell halo_cell(int x, int y, int z, int T, int r, int dims) {
    auto out = [&](int v) { return v < r || v >= T - r; };
    const int axes_out = out(x) + out(y) + (dims == 3 ? out(z) : 0);
    return axes_out == 0 ? HaloCell::output : axes_out == 1 ? HaloCell::halo_read : HaloCell::halo_unread;
}

HaloCounts halo_slice_counts(int T, int r, int z) {
    HaloCounts c;
    for (int y = 0; y < T; ++y)
        for (int x = 0; x < T; ++x) {
            const HaloCell k = halo_cell(x, y, z, T, r, 3);
            (k == HaloCell::output ? c.output : k == HaloCell::halo_read ? c.halo_read : c.halo_unread) += 1;
        }
    return c;
}

HaloCounts halo_counts(int T, int r, int dims) {
    HaloCounts c;
    for (int z = 0; z < (dims == 3 ? T : 1); ++z)
        for (int y = 0; y < T; ++y)
            for (int x = 0; x < T; ++x) {
                const HaloCell k = halo_cell(x, y, z, T, r, dims);
                (k == HaloCell::output ? c.output : k == HaloCell::halo_read ? c.halo_read : c.halo_unread) += 1;
            }
    return c;
}

}  // namespace stencil::viewer
