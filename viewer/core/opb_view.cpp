#include "viewer/core/opb_view.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "viewer/core/colormap.h"

namespace stencil::viewer {

namespace {

std::vector<std::string> temporal_groups() {
    std::vector<std::string> g;
    for (int K = 1; K <= version(KernelId::temporal).max_fused_steps; ++K)
        g.push_back(fmt::format("{} K={}", version(KernelId::temporal).name, K));
    return g;
}

std::vector<std::string> beyond_groups() {
    std::vector<std::string> g = {version(KernelId::streaming).name};
    for (auto& t : temporal_groups()) g.push_back(t);
    return g;
}

std::vector<std::string> loaded_groups() {
    std::vector<std::string> g;
    for (const auto& v : kernel_versions())
        if (!has_update_model(v.id)) g.push_back(v.name);
    return g;
}

bool is_temporal_group(const std::string& g, int* K) {
    const std::string prefix = std::string(version(KernelId::temporal).name) + " K=";
    if (g.rfind(prefix, 0) != 0) return false;
    *K = std::atoi(g.c_str() + prefix.size());
    return true;
}

// "tiled (model)" -> "tiled", "temporal (model): K = 2, per byte moved" -> "temporal K = 2",
// "L2 FLOP/B read (GPU counters)" -> "measured: L2": the axis says the scale, the legend the rest.
std::string short_name(const std::string& n) {
    static const std::pair<const char*, const char*> levels[] = {
        {"requested bytes", "measured: requested"}, {"L2 FLOP/B", "measured: L2"}, {"DRAM FLOP/B", "measured: DRAM"}};
    for (const auto& [from, to] : levels)
        if (n.rfind(from, 0) == 0) return to;
    std::string s = n;
    for (const char* cut : {" (model): ", " (model)", ", per byte moved", "per byte moved"}) {
        const size_t at = s.find(cut);
        if (at != std::string::npos)  // (fmt, not string::replace: GCC 12 warns falsely of overlapping copies)
            s = fmt::format("{}{}{}", s.substr(0, at), std::strcmp(cut, " (model): ") == 0 ? " " : "",
                            s.substr(at + std::strlen(cut)));
    }
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return s.empty() ? n : s;
}

// Temporal's K = 1..4, each its own colour (Okabe-Ito's blue, green, vermillion, purple), far from
// streaming's yellow: one hue for all four made K = 1 and K = 3 the same solid line.
constexpr Rgb kTemporalColours[4] = {{0.00f, 0.45f, 0.70f}, {0.00f, 0.62f, 0.45f}, {0.84f, 0.37f, 0.00f},
                                     {0.80f, 0.47f, 0.65f}};

// A series belongs to the per-byte-moved scale when it is a z-chunked kernel's update curve.
bool moved_scale(const Series& s) { return s.name.find("per byte moved") != std::string::npos; }

}  // namespace

const std::vector<OpbPreset>& opb_presets() {
    static const std::vector<OpbPreset> p = {
        {"textbook", "the textbook's four", OpbScale::per_byte_loaded,
         {version(KernelId::naive).name, version(KernelId::tiled).name, version(KernelId::coarsened).name,
          version(KernelId::register_tiled).name},
         "FLOP per byte loaded: naive stays flat, tiling climbs with T towards the single-step limit."},
        {"tiled", "tiled against T", OpbScale::per_byte_loaded,
         {version(KernelId::naive).name, version(KernelId::tiled).name},
         "The tiled kernel's whole range: T^3 threads stop it at T = 10, far below the limit it approaches."},
        {"beyond", "beyond the textbook", OpbScale::per_byte_moved, beyond_groups(),
         "Per byte moved (a cell update's loads and stores): K fused steps do K updates per byte, so temporal's "
         "limit is K times one step's."},
        {"loaded", "every kernel per byte loaded", OpbScale::per_byte_loaded, loaded_groups(),
         "Every single-step kernel in the textbook's convention; conv27 computes the star as a dense cube."},
    };
    return p;
}

const OpbPreset* find_opb_preset(const std::string& key) {
    for (const auto& p : opb_presets())
        if (key == p.key) return &p;
    return nullptr;
}

std::string opb_preset_keys() {
    std::string s;
    for (const auto& p : opb_presets()) s += (s.empty() ? "" : ", ") + std::string(p.key);
    return s;
}

OpbSelection selection_of(int preset) {
    OpbSelection s;
    const auto& all = opb_presets();
    s.preset = std::clamp(preset, 0, (int)all.size() - 1);
    s.scale = all[s.preset].scale;
    s.shown = {all[s.preset].groups.begin(), all[s.preset].groups.end()};
    return s;
}

void toggle_group(OpbSelection& s, const std::string& group) {
    if (group.empty()) return;
    if (!s.shown.erase(group)) s.shown.insert(group);
    s.preset = -1;
}

double group_limit(const std::string& group, int radius, Precision precision) {
    const double step = opb_limit_at_infinity(radius, precision);  // (12r+1) / sizeof(real)
    int K = 0;
    if (is_temporal_group(group, &K)) return K * step / 2;
    if (group == version(KernelId::streaming).name) return step / 2;
    return step;
}

// Long because it builds the figure in the order it is drawn: the series shown, the legend, the
// limits, the textbook's points, the axes.
OpbFigure opb_view(const OpbFigure& all, const OpbSelection& sel, int radius, Precision precision, bool log_y,
                   bool compact) {
    OpbFigure v;
    v.table = all.table;
    v.updates = all.updates;
    v.formula = all.formula;
    v.model_limit = all.model_limit;
    const bool moved = sel.scale == OpbScale::per_byte_moved;
    v.counters_why = moved ? "" : all.counters_why;
    std::vector<double> xs, ys;
    for (Series s : all.series) {
        if (moved_scale(s) != moved) continue;
        if (!s.group.empty()) s.hidden = !sel.shown.count(s.group);
        if (compact && s.hidden) s.in_legend = false;
        if (moved) {  // each K its own legend entry and colour of dash: its label would repeat it
            s.in_legend = true;
            s.markers = true;
            s.labels.clear();
        }
        // Short legend words: the scale is the axis's, a line is the model, a marker a level.
        s.name = short_name(s.name);
        int K = 0;
        if (moved && is_temporal_group(s.group, &K)) {
            s.colour = pack(kTemporalColours[(K - 1) % 4]);
            s.markers = !compact;  // a crowded small chart: the colours tell K apart, the labels find room
        }
        const bool flat = !s.markers && s.x.size() == 2 && s.y.size() == 2 && s.y[0] == s.y[1];  // no T: spans the axis
        if (!s.hidden && !flat) xs.insert(xs.end(), s.x.begin(), s.x.end());
        if (!s.hidden) ys.insert(ys.end(), s.y.begin(), s.y.end());
        if (!s.hidden) {
            if (s.name.find("(CPU trace") != std::string::npos) v.trace_points += (int)s.x.size();
            else if (s.name.find(", requested)") != std::string::npos) v.requested_points += (int)s.x.size();
            else if (s.name.find(", L2)") != std::string::npos) v.l2_points += (int)s.x.size();
            else if (s.name.find(", DRAM)") != std::string::npos) v.dram_points += (int)s.x.size();
        }
        v.series.push_back(std::move(s));
    }
    // A level's key (a marker with no points of its own: "measured: L2") is listed only while some
    // shown points wear its marker: with no sweep loaded it would name data the chart does not have.
    for (Series& key : v.series) {
        if (!key.in_legend || !key.x.empty() || key.line || !key.markers) continue;
        key.in_legend = std::any_of(v.series.begin(), v.series.end(), [&](const Series& s) {
            return &s != &key && !s.hidden && !s.line && s.markers && s.marker == key.marker && !s.x.empty();
        });
    }
    // Streaming, then temporal by K: the legend reads in order.
    if (moved)
        std::stable_sort(v.series.begin(), v.series.end(), [](const Series& a, const Series& b) { return a.group < b.group; });
    // The limits of what is shown.
    const double step = opb_limit_at_infinity(radius, precision);  // (12r+1) / sizeof(real)
    const int B = bytes_of(precision), F = flops_per_point(radius);
    if (!moved) {
        std::vector<std::string> owners;
        for (const auto& g : loaded_groups())
            if (sel.shown.count(g)) owners.push_back(g);
        if (!owners.empty()) {
            v.refs.push_back({true, step, fmt::format("single-step limit {}/{} = {:.2f}", F, B, step),
                              pack({0.9f, 0.9f, 0.9f}, 0.8f), owners});
            ys.push_back(step);
        }
        const std::string tiled = version(KernelId::tiled).name;
        const auto tiles = model_tiles(KernelId::tiled, radius, precision);
        if (sel.shown.count(tiled) && !tiles.empty())
            v.refs.push_back({false, (double)tiles.back(),
                              compact ? fmt::format("tiled: T <= {}", tiles.back())
                                      : fmt::format("tiled: T <= {} (T^3 <= 1024)", tiles.back()),
                              pack({0.95f, 0.6f, 0.45f}, 0.9f), {tiled}});
        // The textbook's points, where their kernel is shown.
        for (const auto& p : all.points) {
            const bool coarsened = p.label.find("coarsened") != std::string::npos;
            if (sel.shown.count(coarsened ? version(KernelId::coarsened).name : tiled)) {
                v.points.push_back(p);
                if (compact) v.points.back().label = fmt::format("textbook {:.2f}", p.y);
                xs.push_back(p.x);
                ys.push_back(p.y);
            }
        }
    } else {
        std::vector<std::string> one_step;
        for (const auto& g : beyond_groups()) {
            if (!sel.shown.count(g)) continue;
            int K = 1;
            if (!is_temporal_group(g, &K) || K == 1) {
                one_step.push_back(g);
                continue;
            }
            std::uint32_t colour = pack({0.9f, 0.9f, 0.9f}, 0.8f);
            for (const auto& s : v.series)
                if (s.group == g) colour = (s.colour & 0x00ffffffu) | 0xd0000000u;
            const double lim = group_limit(g, radius, precision);
            v.refs.push_back({true, lim, compact ? fmt::format("K = {}: {:.2f}", K, lim) : fmt::format("K = {} limit: {:.2f}", K, lim), colour, {g}});
            ys.push_back(lim);
        }
        if (!one_step.empty()) {
            const double lim = step / 2;
            v.refs.insert(v.refs.begin(), {true, lim,
                                           compact ? fmt::format("one step: {:.2f}", lim)
                                                   : fmt::format("one step: {}/(2x{}) = {:.2f}", F, B, lim),
                                           pack({0.9f, 0.9f, 0.9f}, 0.8f), one_step});
            ys.push_back(lim);
        }
    }
    for (const auto& r : v.refs)
        if (!r.horizontal) xs.push_back(r.value);
    // Axes fitted to what is shown; a flat line (no T in its model) spans them.
    const Range rx = fit_range(xs, AxisScale::linear, 0.05);
    v.x = {std::max(0.0, rx.lo), rx.hi, AxisScale::linear,
           moved ? "tile edge T (rows of the tile)" : "tile edge T (input cells per side)"};
    const std::string ylabel = moved ? "FLOP per byte moved (loads + stores per cell update)" : "OP/B (FLOP per byte loaded)";
    if (log_y) {
        const Range ry = fit_range(ys, AxisScale::log10, 0.05);
        v.y = {ry.lo, ry.hi, AxisScale::log10, ylabel};
    } else {  // room above the highest limit for its label, clear of the curves under it
        double hi = 0, top_limit = 0;
        for (double y : ys) hi = std::max(hi, y);
        for (const auto& r : v.refs)
            if (r.horizontal) top_limit = std::max(top_limit, r.value);
        v.y = {0, hi > 0 ? std::max(hi * 1.12, top_limit * 1.3) : 1, AxisScale::linear, ylabel};
    }
    for (auto& s : v.series)
        if (!s.markers && s.x.size() == 2 && s.y.size() == 2 && s.y[0] == s.y[1]) s.x = {v.x.lo, v.x.hi};
    return v;
}

}  // namespace stencil::viewer
