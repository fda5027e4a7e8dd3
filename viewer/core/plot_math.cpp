#include "viewer/core/plot_math.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace stencil::viewer {

namespace {
double mapped(const Axis& a, double v) { return a.scale == AxisScale::log10 ? std::log10(v) : v; }
double unmapped(const Axis& a, double m) { return a.scale == AxisScale::log10 ? std::pow(10.0, m) : m; }
}  // namespace

double axis_to_unit(const Axis& a, double v) {
    if (a.scale == AxisScale::log10 && (v <= 0 || a.lo <= 0 || a.hi <= 0))
        return -std::numeric_limits<double>::infinity();
    const double lo = mapped(a, a.lo), hi = mapped(a, a.hi);
    if (hi == lo) return 0.5;
    return (mapped(a, v) - lo) / (hi - lo);
}

double axis_from_unit(const Axis& a, double u) {
    const double lo = mapped(a, a.lo), hi = mapped(a, a.hi);
    return unmapped(a, lo + u * (hi - lo));
}

double nice_step(double span, int target) {
    if (!(span > 0) || target < 1) return 1;
    const double raw = span / target;
    const double p = std::pow(10.0, std::floor(std::log10(raw)));
    const double f = raw / p;
    const double nice = f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10;
    return nice * p;
}

std::string format_tick(double v, double step) {
    if (std::abs(v) < step * 1e-9) return "0";
    const double a = std::abs(v);
    if (a != 0 && (a >= 1e5 || a < 1e-3)) return fmt::format("{:.3g}", v);
    int decimals = 0;
    if (step > 0 && step < 1) decimals = std::min(6, (int)std::ceil(-std::log10(step) - 1e-9));
    // 0.25-style steps need one more digit than their power of ten suggests.
    const double scaled = step * std::pow(10.0, decimals);
    if (step > 0 && std::abs(scaled - std::round(scaled)) > 1e-6) ++decimals;
    return fmt::format("{:.{}f}", v, decimals);
}

std::vector<Tick> linear_ticks(double lo, double hi, int target) {
    std::vector<Tick> t;
    if (!(hi > lo)) return t;
    const double step = nice_step(hi - lo, target);
    const double first = std::ceil(lo / step - 1e-9) * step;
    for (int i = 0; i < 1000; ++i) {
        const double v = first + i * step;
        if (v > hi + step * 1e-9) break;
        t.push_back({v, format_tick(v, step), true});
    }
    return t;
}

std::vector<Tick> log_ticks(double lo, double hi) {
    std::vector<Tick> t;
    if (!(lo > 0) || !(hi > lo)) return t;
    const int d0 = (int)std::floor(std::log10(lo) + 1e-12), d1 = (int)std::ceil(std::log10(hi) - 1e-12);
    const bool label_minor = (d1 - d0) <= 1;
    auto label = [](double v) {
        const double a = std::abs(v);
        if (a >= 1e5 || a < 1e-3) return fmt::format("{:.0e}", v);
        return fmt::format("{:g}", v);
    };
    for (int d = d0; d <= d1; ++d) {
        const double p = std::pow(10.0, d);
        for (int m = 1; m <= 9; ++m) {
            const double v = m * p;
            if (v < lo * (1 - 1e-9) || v > hi * (1 + 1e-9)) continue;
            const bool major = m == 1;
            t.push_back({v, (major || label_minor) ? label(v) : std::string(), major});
        }
    }
    return t;
}

std::vector<Tick> axis_ticks(const Axis& a, int target) {
    return a.scale == AxisScale::log10 ? log_ticks(a.lo, a.hi) : linear_ticks(a.lo, a.hi, target);
}

Range fit_range(const std::vector<double>& values, AxisScale scale, double pad) {
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (double v : values) {
        if (!std::isfinite(v) || (scale == AxisScale::log10 && v <= 0)) continue;
        const double m = scale == AxisScale::log10 ? std::log10(v) : v;
        lo = std::min(lo, m);
        hi = std::max(hi, m);
    }
    if (!(hi >= lo)) return scale == AxisScale::log10 ? Range{1, 10} : Range{0, 1};
    if (hi == lo) {
        const double w = scale == AxisScale::log10 ? 0.5 : (lo == 0 ? 1 : std::abs(lo) * 0.5);
        lo -= w;
        hi += w;
    }
    const double span = hi - lo;
    lo -= pad * span;
    hi += pad * span;
    if (scale == AxisScale::log10) return {std::pow(10.0, lo), std::pow(10.0, hi)};
    return {lo, hi};
}

Point2 to_screen(const Axis& ax, const Axis& ay, const PlotRect& r, double x, double y) {
    const double u = axis_to_unit(ax, x), v = axis_to_unit(ay, y);
    return {(float)(r.x0 + u * (r.x1 - r.x0)), (float)(r.y1 - v * (r.y1 - r.y0))};
}

void from_screen(const Axis& ax, const Axis& ay, const PlotRect& r, Point2 p, double* x, double* y) {
    const double u = (p.x - r.x0) / std::max(1e-6f, r.x1 - r.x0);
    const double v = (r.y1 - p.y) / std::max(1e-6f, r.y1 - r.y0);
    if (x) *x = axis_from_unit(ax, u);
    if (y) *y = axis_from_unit(ay, v);
}

Hover nearest_point(const std::vector<Series>& series, const Axis& ax, const Axis& ay, const PlotRect& r,
                    Point2 mouse, float max_px) {
    Hover best;
    float best_d2 = max_px * max_px;
    for (int s = 0; s < (int)series.size(); ++s) {
        const Series& S = series[s];
        if (S.greyed || S.hidden) continue;
        const int n = (int)std::min(S.x.size(), S.y.size());
        for (int i = 0; i < n; ++i) {
            const Point2 p = to_screen(ax, ay, r, S.x[i], S.y[i]);
            if (!std::isfinite(p.x) || !std::isfinite(p.y)) continue;
            const float dx = p.x - mouse.x, dy = p.y - mouse.y, d2 = dx * dx + dy * dy;
            if (d2 <= best_d2) {
                best_d2 = d2;
                best = {s, i, std::sqrt(d2)};
            }
        }
    }
    return best;
}

}  // namespace stencil::viewer
