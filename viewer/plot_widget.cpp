#include "viewer/plot_widget.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "viewer/core/label_place.h"
#include "viewer/fit.h"

namespace stencil::viewer {

namespace {

void dashed_line(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 c, float thick, float dash) {
    const float dx = b.x - a.x, dy = b.y - a.y, len = std::sqrt(dx * dx + dy * dy);
    if (len < 1e-3f) return;
    for (float t = 0; t < len; t += 2 * dash) {
        const float t1 = std::min(len, t + dash);
        dl->AddLine(ImVec2(a.x + dx * t / len, a.y + dy * t / len), ImVec2(a.x + dx * t1 / len, a.y + dy * t1 / len), c,
                    thick);
    }
}

// One marker of a series (and of its legend entry): the shape tells series of one colour apart.
void marker(ImDrawList* dl, MarkerShape m, ImVec2 c, float r, ImU32 col, float thick) {
    switch (m) {
        case MarkerShape::circle: dl->AddCircleFilled(c, r, col); break;
        case MarkerShape::square:  // hollow: a coinciding filled circle stays visible inside
            dl->AddRect(ImVec2(c.x - r * 1.3f, c.y - r * 1.3f), ImVec2(c.x + r * 1.3f, c.y + r * 1.3f), col, 0, 0, thick);
            break;
        case MarkerShape::diamond:
            dl->AddQuad(ImVec2(c.x, c.y - r * 1.5f), ImVec2(c.x + r * 1.5f, c.y), ImVec2(c.x, c.y + r * 1.5f),
                        ImVec2(c.x - r * 1.5f, c.y), col, thick);
            break;
        case MarkerShape::triangle:
            dl->AddTriangle(ImVec2(c.x, c.y - r * 1.5f), ImVec2(c.x + r * 1.4f, c.y + r), ImVec2(c.x - r * 1.4f, c.y + r),
                            col, thick);
            break;
        case MarkerShape::cross:
            dl->AddLine(ImVec2(c.x - r * 1.2f, c.y - r * 1.2f), ImVec2(c.x + r * 1.2f, c.y + r * 1.2f), col, thick);
            dl->AddLine(ImVec2(c.x - r * 1.2f, c.y + r * 1.2f), ImVec2(c.x + r * 1.2f, c.y - r * 1.2f), col, thick);
            break;
        case MarkerShape::ring: dl->AddCircle(c, r * 1.2f, col, 0, thick); break;
        case MarkerShape::plus:
            dl->AddLine(ImVec2(c.x - r * 1.5f, c.y), ImVec2(c.x + r * 1.5f, c.y), col, thick);
            dl->AddLine(ImVec2(c.x, c.y - r * 1.5f), ImVec2(c.x, c.y + r * 1.5f), col, thick);
            break;
        case MarkerShape::triangle_down:
            dl->AddTriangle(ImVec2(c.x, c.y + r * 1.5f), ImVec2(c.x - r * 1.4f, c.y - r), ImVec2(c.x + r * 1.4f, c.y - r),
                            col, thick);
            break;
        case MarkerShape::hexagon: dl->AddNgon(c, r * 1.4f, col, 6, thick); break;
        case MarkerShape::square_filled:
            dl->AddRectFilled(ImVec2(c.x - r, c.y - r), ImVec2(c.x + r, c.y + r), col);
            break;
    }
}

// Ticks of an axis, recomputed only when the axis or the tick count changes (not every frame).
struct TickCache {
    double lo = 0, hi = 0;
    AxisScale scale = AxisScale::linear;
    int target = 0;
    std::vector<Tick> ticks;
    std::vector<float> widths;  // CalcTextSize of each label, for the same font size
    float font = 0;
};
const TickCache& ticks_of(ImGuiID id, const Axis& a, int target) {
    static std::unordered_map<ImGuiID, TickCache> cache;
    TickCache& c = cache[id];
    const float font = ImGui::GetFontSize();
    if (c.font != font || c.lo != a.lo || c.hi != a.hi || c.scale != a.scale || c.target != target) {
        c = {a.lo, a.hi, a.scale, target, axis_ticks(a, target), {}, font};
        for (const Tick& t : c.ticks) c.widths.push_back(t.label.empty() ? 0 : ImGui::CalcTextSize(t.label.c_str()).x);
    }
    return c;
}

// Where a plot's parts go, from its size and its texts: margins for the tick labels, the axis
// labels (wrapped to the canvas) and the title, and the legend's place.
struct PlotLayout {
    ImVec2 size;
    float lh = 0;                  // a legend row
    std::vector<float> entry_w;    // each legend entry's width
    float legend_w = 0;
    bool legend_outside = false;
    std::vector<ImVec2> below_at;  // offsets of each entry from the legend's top-left
    float legend_h = 0;
    float label_wrap = 0;
    std::string yl;                // the y label as drawn
    ImVec2 xs, ys;                 // the axis labels' sizes
    float x_label_h = 0;
    float left = 0, bottom = 0, top = 0, right = 0;
};

constexpr float kMinDataRows = 9;  // the data rectangle's least height, in font heights

PlotLayout plot_layout(const PlotSpec& spec, float fs) {
    const Axis& ax = *spec.x;
    const Axis& ay = *spec.y;
    const auto& series = *spec.series;
    PlotLayout l;
    l.size = spec.size;
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    if (l.size.x <= 0) l.size.x = avail.x;
    if (l.size.y <= 0) l.size.y = std::max(8 * fs, std::min(avail.y, l.size.x * 0.6f));
    // Margins: room for tick labels on the left, the x label below, the title above.
    // The legend goes right of the plot when that leaves the plot 22 font heights of width, so it
    // covers no data; else below the x label, its entries flowing in rows (never over the data).
    l.lh = fs * 1.25f;
    if (spec.legend)
        for (const Series& s : series) {
            l.entry_w.push_back(s.in_legend ? ImGui::CalcTextSize(s.name.c_str()).x + fs * 2.4f : 0.0f);
            l.legend_w = std::max(l.legend_w, l.entry_w.back());
        }
    l.legend_outside = spec.legend && l.size.x - l.legend_w - fs * 5 > fs * 22;
    // Below: rows of entries as wide as the canvas allows.
    if (spec.legend && !l.legend_outside && !series.empty()) {
        float x = 0, y = 0;
        for (float w : l.entry_w) {
            if (x > 0 && x + w > l.size.x - fs) x = 0, y += l.lh;
            l.below_at.push_back(ImVec2(x, y));
            if (w > 0) x += w + fs;  // an unlisted series takes no room
        }
        l.legend_h = y + l.lh + fs * 0.3f;
        l.size.y = std::max(l.size.y, fs * 8.0f + l.legend_h);
    }
    // Axis labels wrap to the canvas when it is narrower than they are (margins grow to hold them).
    l.label_wrap = std::max(fs * 4, l.size.x - fs * 0.4f);
    l.yl = ay.label + (ay.scale == AxisScale::log10 ? "  [log scale]" : "");
    l.xs = fit::TextSize(ax.label, l.label_wrap);
    l.ys = fit::TextSize(l.yl, l.label_wrap);
    l.x_label_h = l.xs.y + fs * 0.4f;
    l.left = fs * 4.2f;
    l.bottom = fs * 1.6f + l.x_label_h + l.legend_h;
    l.top = l.ys.y + fs * 0.6f;
    l.right = l.legend_outside ? l.legend_w + fs * 0.8f : fs * 0.8f;
    // The data keep room for their labels at any font: at 32 px in a small panel the margins and a
    // legend below left the data 3 font heights, and no spot for a label was clear of the curves
    // (the panel scrolls instead).
    l.size.y = std::max(l.size.y, l.top + l.bottom + fs * kMinDataRows);
    return l;
}

// What every drawing step of one plot shares: the draw list, the axes, the data rectangle, the
// canvas that every text stays in, and the sizes that follow the font.
struct Canvas {
    ImDrawList* dl;
    const Axis& ax;
    const Axis& ay;
    PlotRect r;
    ImVec2 p0, size;
    ImVec2 lo, hi;
    float fs;
    ImU32 text;
    float thick, marker_r;
};

void draw_ticks_and_grid(const Canvas& c) {
    const ImU32 grid = IM_COL32(255, 255, 255, 28), axis = IM_COL32(200, 200, 200, 255);
    const PlotRect& r = c.r;
    const float fs = c.fs;
    const int xt = std::max(2, (int)((r.x1 - r.x0) / (fs * 5))), yt = std::max(2, (int)((r.y1 - r.y0) / (fs * 2.5f)));
    const TickCache& xc = ticks_of(ImGui::GetID("x"), c.ax, xt);
    const TickCache& yc = ticks_of(ImGui::GetID("y"), c.ay, yt);
    for (size_t i = 0; i < xc.ticks.size(); ++i) {
        const Tick& t = xc.ticks[i];
        const Point2 p = to_screen(c.ax, c.ay, r, t.value, c.ay.scale == AxisScale::log10 ? c.ay.lo : c.ay.lo);
        if (p.x < r.x0 - 0.5f || p.x > r.x1 + 0.5f) continue;
        c.dl->AddLine(ImVec2(p.x, r.y0), ImVec2(p.x, r.y1), t.major ? grid : IM_COL32(255, 255, 255, 12));
        c.dl->AddLine(ImVec2(p.x, r.y1), ImVec2(p.x, r.y1 + fs * (t.major ? 0.35f : 0.2f)), axis, 1.5f);
        if (!t.label.empty())
            fit::DrawText(c.dl, ImVec2(p.x - xc.widths[i] / 2, r.y1 + fs * 0.4f), c.text, t.label, c.lo, c.hi);
    }
    for (size_t i = 0; i < yc.ticks.size(); ++i) {
        const Tick& t = yc.ticks[i];
        const Point2 p = to_screen(c.ax, c.ay, r, c.ax.lo, t.value);
        if (p.y < r.y0 - 0.5f || p.y > r.y1 + 0.5f) continue;
        c.dl->AddLine(ImVec2(r.x0, p.y), ImVec2(r.x1, p.y), t.major ? grid : IM_COL32(255, 255, 255, 12));
        c.dl->AddLine(ImVec2(r.x0 - fs * (t.major ? 0.35f : 0.2f), p.y), ImVec2(r.x0, p.y), axis, 1.5f);
        if (!t.label.empty())
            fit::DrawText(c.dl, ImVec2(r.x0 - fs * 0.5f - yc.widths[i], p.y - fs / 2), c.text, t.label, c.lo, c.hi);
    }
    c.dl->AddRect(ImVec2(r.x0, r.y0), ImVec2(r.x1, r.y1), axis, 0, 0, 1.5f);
}

// The x label centred below, the y label written above the axis (ImGui draws no rotated text).
void draw_axis_labels(const Canvas& c, const PlotLayout& l, bool has_title) {
    const PlotRect& r = c.r;
    const float fs = c.fs;
    fit::DrawText(c.dl, ImVec2(std::clamp((r.x0 + r.x1 - l.xs.x) / 2, c.p0.x, std::max(c.p0.x, c.p0.x + c.size.x - l.xs.x)),
                               r.y1 + fs * 1.6f),
                  c.text, c.ax.label, c.lo, c.hi, l.label_wrap);
    const float yx = std::clamp(has_title ? r.x1 - l.ys.x : r.x0, c.p0.x, std::max(c.p0.x, c.p0.x + c.size.x - l.ys.x));
    fit::DrawText(c.dl, ImVec2(yx, c.p0.y + fs * 0.2f), IM_COL32(190, 190, 190, 255), l.yl, c.lo, c.hi, l.label_wrap);
}

// The markers of the shown series, as boxes labels keep off.
std::vector<ScreenBox> marker_boxes(const Canvas& c, const std::vector<Series>& series) {
    std::vector<ScreenBox> boxes;
    for (const Series& s : series) {
        const size_t n = std::min(s.x.size(), s.y.size());
        for (size_t i = 0; i < n && s.markers && !s.hidden; ++i) {
            const Point2 a = to_screen(c.ax, c.ay, c.r, s.x[i], s.y[i]);
            if (std::isfinite(a.y)) boxes.push_back(marker_box(a.x, a.y, c.marker_r * 1.6f));
        }
    }
    return boxes;
}

// The shown series' lines and the reference lines as drawn, for labels to keep off.
std::vector<ScreenSegment> curve_segments(const Canvas& c, const std::vector<Series>& series,
                                          const std::vector<RefLine>* refs) {
    std::vector<ScreenSegment> out;
    for (const Series& s : series) {
        if (s.hidden || !s.line) continue;
        const size_t n = std::min(s.x.size(), s.y.size());
        for (size_t i = 0; i + 1 < n; ++i) {
            const Point2 a = to_screen(c.ax, c.ay, c.r, s.x[i], s.y[i]);
            const Point2 b = to_screen(c.ax, c.ay, c.r, s.x[i + 1], s.y[i + 1]);
            if (std::isfinite(a.y) && std::isfinite(b.y)) out.push_back({a.x, a.y, b.x, b.y});
        }
    }
    for (size_t i = 0; refs && i < refs->size(); ++i) {
        const RefLine& l = (*refs)[i];
        const Point2 p = to_screen(c.ax, c.ay, c.r, l.horizontal ? c.ax.lo : l.value, l.horizontal ? l.value : c.ay.lo);
        out.push_back(l.horizontal ? ScreenSegment{c.r.x0, p.y, c.r.x1, p.y} : ScreenSegment{p.x, c.r.y0, p.x, c.r.y1});
    }
    return out;
}

// The lines, each label beside its own line at the first spot along it (from the left end, or a
// vertical line's top, in eighths; above the line then below, right of it then left) that covers
// no other label, no marker and no other line. Returns the labels' boxes (point labels keep off
// them); *overlaps counts the labels no spot kept clear.
std::vector<ScreenBox> draw_ref_lines(const Canvas& c, const std::vector<RefLine>& refs, const std::vector<ScreenBox>& markers,
                                      const std::vector<ScreenSegment>& curves, int* overlaps) {
    std::vector<ScreenBox> boxes;
    const PlotRect& r = c.r;
    const float fs = c.fs, pad = fs * 0.3f;
    for (const RefLine& l : refs) {
        const Point2 p = to_screen(c.ax, c.ay, r, l.horizontal ? c.ax.lo : l.value, l.horizontal ? l.value : c.ay.lo);
        const ImVec2 ts = ImGui::CalcTextSize(l.label.c_str());
        std::vector<ScreenBox> spots;
        if (l.horizontal) {
            dashed_line(c.dl, ImVec2(r.x0, p.y), ImVec2(r.x1, p.y), l.colour, 1.5f, fs * 0.4f);
            for (const float y : {p.y - ts.y - 2, p.y + 2})
                for (int k = 0; k <= 8; ++k) {
                    const float x = r.x0 + pad + (r.x1 - r.x0 - 2 * pad - ts.x) * k / 8;
                    spots.push_back({x, y, x + ts.x, y + ts.y});
                }
        } else {
            dashed_line(c.dl, ImVec2(p.x, r.y0), ImVec2(p.x, r.y1), l.colour, 1.5f, fs * 0.4f);
            for (int k = 0; k <= 8; ++k)
                for (const float x : {p.x + 4, p.x - 4 - ts.x}) {
                    const float y = r.y0 + 2 + (r.y1 - r.y0 - 4 - ts.y) * k / 8;
                    spots.push_back({x, y, x + ts.x, y + ts.y});
                }
        }
        // The other lines, as thin bands a label must not lie on.
        std::vector<ScreenBox> lines;
        for (const RefLine& o : refs) {
            if (&o == &l) continue;
            const Point2 q = to_screen(c.ax, c.ay, r, o.horizontal ? c.ax.lo : o.value, o.horizontal ? o.value : c.ay.lo);
            lines.push_back(o.horizontal ? ScreenBox{r.x0, q.y - 1, r.x1, q.y + 1} : ScreenBox{q.x - 1, r.y0, q.x + 1, r.y1});
        }
        const ScreenBox inner{r.x0 + 1, r.y0 + 1, r.x1 - 1, r.y1 - 1};
        const ScreenBox* chosen = nullptr;
        for (const ScreenBox& b : spots) {
            if (!inside(b, inner)) continue;
            bool clear = true;
            for (const ScreenBox& o : boxes) clear = clear && !overlap(b, o);
            for (const ScreenBox& o : markers) clear = clear && !overlap(b, o);
            for (const ScreenBox& o : lines) clear = clear && !overlap(b, o);
            for (const ScreenSegment& s : curves) clear = clear && crossing_length(s, b) <= 0;
            if (clear) {
                chosen = &b;
                break;
            }
        }
        if (!chosen) {
            ++*overlaps;
            for (const ScreenBox& b : spots)
                if (inside(b, inner)) {
                    chosen = &b;
                    break;
                }
            if (!chosen) chosen = &spots.front();
        }
        const ScreenBox b = *chosen;
        c.dl->AddRectFilled(ImVec2(b.x0, b.y0), ImVec2(b.x1, b.y1), IM_COL32(20, 22, 28, 200));
        boxes.push_back(b);
        fit::DrawText(c.dl, ImVec2(b.x0, b.y0), l.colour, l.label, ImVec2(r.x0, r.y0), ImVec2(r.x1, r.y1));
    }
    return boxes;
}

void draw_series(const Canvas& c, const std::vector<Series>& series) {
    for (const Series& s : series) {
        if (s.hidden) continue;
        const ImU32 col = s.greyed ? IM_COL32(110, 110, 110, 160) : s.colour;
        const int n = (int)std::min(s.x.size(), s.y.size());
        for (int i = 0; i + 1 < n && s.line; ++i) {
            const Point2 a = to_screen(c.ax, c.ay, c.r, s.x[i], s.y[i]);
            const Point2 b = to_screen(c.ax, c.ay, c.r, s.x[i + 1], s.y[i + 1]);
            if (!std::isfinite(a.y) || !std::isfinite(b.y)) continue;
            if (s.dashed) dashed_line(c.dl, ImVec2(a.x, a.y), ImVec2(b.x, b.y), col, c.thick, c.fs * 0.5f);
            else c.dl->AddLine(ImVec2(a.x, a.y), ImVec2(b.x, b.y), col, c.thick);
        }
        for (int i = 0; i < n && s.markers; ++i) {
            const Point2 a = to_screen(c.ax, c.ay, c.r, s.x[i], s.y[i]);
            if (!std::isfinite(a.y)) continue;
            marker(c.dl, s.marker, ImVec2(a.x, a.y), s.marker == MarkerShape::circle ? c.marker_r : c.marker_r * 1.1f,
                   col, 2.5f);
        }
    }
}

// Reference points (a ring) and the texts of labelled series points: every label placed by
// place_labels clear of every marker, ring, reference-line label and other label.
std::vector<ScreenBox> draw_point_labels(const Canvas& c, const std::vector<RefPoint>* points,
                                         const std::vector<Series>& series, const std::vector<ScreenBox>& reserved,
                                         const std::vector<ScreenSegment>& curves, int* overlaps) {
    const PlotRect& r = c.r;
    const float marker = c.marker_r;
    std::vector<ScreenBox> obstacles = reserved;
    for (const ScreenBox& b : marker_boxes(c, series)) obstacles.push_back(b);
    struct Text {
        std::string text;
        ImU32 colour;
    };
    std::vector<Text> texts;
    std::vector<LabelRequest> want;
    const float wrap = r.x1 - r.x0 - 4;
    auto ask = [&](const Point2& a, const std::string& t, ImU32 col, float gap) {
        const ImVec2 ts = fit::TextSize(t, wrap);
        want.push_back({a.x, a.y, ts.x + 4, ts.y, gap});
        texts.push_back({t, col});
    };
    if (points)
        for (const RefPoint& q : *points) {
            const Point2 a = to_screen(c.ax, c.ay, r, q.x, q.y);
            c.dl->AddCircle(ImVec2(a.x, a.y), marker * 2.2f, q.colour, 0, 2.5f);
            obstacles.push_back(marker_box(a.x, a.y, marker * 2.4f));
            if (!q.label.empty()) ask(a, q.label, q.colour, marker * 2.8f);
        }
    for (const Series& s : series)
        for (size_t i = 0; i < s.labels.size() && i < s.x.size() && i < s.y.size(); ++i)
            if (!s.labels[i].empty() && !s.greyed && !s.hidden)
                ask(to_screen(c.ax, c.ay, r, s.x[i], s.y[i]), s.labels[i], s.colour, marker * 2.0f);
    const LabelPlacement p = place_labels(want, obstacles, ScreenBox{r.x0 + 2, r.y0 + 2, r.x1 - 2, r.y1 - 2}, curves);
    for (size_t i = 0; i < texts.size(); ++i) {
        const ScreenBox& b = p.boxes[i];
        const LabelRequest& q = want[i];
        if (distance_to(b, q.x, q.y) > q.gap * 1.5f) {  // set apart in a cluster: a leader line
            const ImVec2 to(std::clamp(q.x, b.x0, b.x1), std::clamp(q.y, b.y0, b.y1));
            c.dl->AddLine(ImVec2(q.x, q.y), to, (texts[i].colour & 0x00ffffffu) | 0x90000000u, 1.0f);
        }
        c.dl->AddRectFilled(ImVec2(b.x0, b.y0), ImVec2(b.x1, b.y1), IM_COL32(20, 22, 28, 200));
        fit::DrawText(c.dl, ImVec2(b.x0 + 2, b.y0), texts[i].colour, texts[i].text, ImVec2(r.x0, r.y0),
                      ImVec2(r.x1, r.y1), wrap);
    }
    *overlaps += p.overlapping;
    return p.boxes;
}

// The legend: right of the plot, or in rows below the x label. A hidden series' entry is dimmed;
// a click on an entry of a series with a group returns that series (else -1).
int draw_legend(const Canvas& c, const PlotLayout& l, const std::vector<Series>& series, bool hovered) {
    int clicked = -1;
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const float fs = c.fs, lh = l.lh;
    const float lx = l.legend_outside ? c.r.x1 + fs * 0.6f : c.p0.x + fs * 0.5f;
    const float ly = l.legend_outside ? c.r.y0 + fs * 0.3f : c.r.y1 + fs * 1.6f + l.x_label_h;
    const size_t listed = std::count_if(series.begin(), series.end(), [](const Series& s) { return s.in_legend; });
    if (l.legend_outside)
        c.dl->AddRectFilled(ImVec2(lx - 4, ly - 2), ImVec2(lx + l.legend_w, ly + listed * lh + 2),
                            IM_COL32(12, 14, 18, 220));
    for (size_t i = 0, row = 0; i < series.size(); ++i) {
        const Series& s = series[i];
        if (!s.in_legend) continue;
        const float x = l.legend_outside ? lx : lx + l.below_at[i].x;
        const float y = l.legend_outside ? ly + row++ * lh : ly + l.below_at[i].y;
        const ImU32 col = s.greyed || s.hidden ? IM_COL32(110, 110, 110, s.hidden ? 150 : 255) : s.colour;
        const float entry_w = l.entry_w[i] > 0 ? l.entry_w[i] : fs * 2;
        if (hovered && !s.group.empty() && mouse.x >= x && mouse.x < x + entry_w && mouse.y >= y && mouse.y < y + lh) {
            c.dl->AddRect(ImVec2(x - 2, y), ImVec2(x + entry_w, y + lh), IM_COL32(255, 255, 255, 90));
            ImGui::SetTooltip("%s: click to %s it", s.group.c_str(), s.hidden ? "show" : "hide");
            if (ImGui::IsMouseClicked(0)) clicked = (int)i;
        }
        if (s.line) {
            if (s.dashed)
                dashed_line(c.dl, ImVec2(x, y + fs * 0.55f), ImVec2(x + fs * 1.4f, y + fs * 0.55f), col, c.thick, fs * 0.3f);
            else c.dl->AddLine(ImVec2(x, y + fs * 0.55f), ImVec2(x + fs * 1.4f, y + fs * 0.55f), col, c.thick);
        }
        if (s.markers)
            marker(c.dl, s.marker, ImVec2(x + fs * 0.7f, y + fs * 0.55f),
                   s.marker == MarkerShape::circle ? c.marker_r : c.marker_r * 1.1f, col, 2.0f);
        fit::DrawText(c.dl, ImVec2(x + fs * 1.8f, y),
                      s.hidden ? IM_COL32(120, 120, 120, 255) : s.greyed ? IM_COL32(140, 140, 140, 255) : c.text, s.name,
                      c.lo, c.hi);
    }
    return clicked;
}

// The hovered point: a ring and a tooltip with its values.
void show_hover(const Canvas& c, const PlotSpec& spec) {
    const auto& series = *spec.series;
    const ImVec2 m = ImGui::GetIO().MousePos;
    const Hover h = nearest_point(series, c.ax, c.ay, c.r, {m.x, m.y}, c.fs * 0.9f);
    if (h.series < 0) return;
    const Series& s = series[h.series];
    const Point2 a = to_screen(c.ax, c.ay, c.r, s.x[h.index], s.y[h.index]);
    c.dl->AddCircle(ImVec2(a.x, a.y), c.marker_r * 2.0f, IM_COL32(255, 255, 255, 255), 0, 2.0f);
    const std::string t = spec.hover_text ? spec.hover_text(h.series, h.index)
                                          : fmt::format("{}\n{} = {:.4g}\n{} = {:.4g}", s.name, c.ax.label,
                                                        s.x[h.index], c.ay.label, s.y[h.index]);
    ImGui::SetTooltip("%s", t.c_str());
}

}  // namespace

float PlotLeastHeight(const PlotSpec& spec) {
    PlotSpec least = spec;
    least.size.y = 1;  // as small as the layout allows
    return plot_layout(least, ImGui::GetFontSize()).size.y;
}

PlotDrawn Plot(const PlotSpec& spec) {
    PlotDrawn drawn;
    const auto& series = *spec.series;
    ImGui::PushID(spec.id);
    const float fs = ImGui::GetFontSize();
    const PlotLayout l = plot_layout(spec, fs);
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("##canvas", l.size);
    const bool hovered = ImGui::IsItemHovered();
    const ImVec2 size = l.size;
    const PlotRect r{p0.x + l.left, p0.y + l.top, p0.x + size.x - l.right, p0.y + size.y - l.bottom};
    // every text stays in the canvas (lo, hi)
    const Canvas c{ImGui::GetWindowDrawList(), *spec.x, *spec.y, r, p0, size, p0, ImVec2(p0.x + size.x, p0.y + size.y),
                   fs, ImGui::GetColorU32(ImGuiCol_Text), std::max(2.0f, fs * 0.12f), std::max(3.0f, fs * 0.22f)};
    c.dl->AddRectFilled(ImVec2(r.x0, r.y0), ImVec2(r.x1, r.y1), IM_COL32(20, 22, 28, 255));
    if (spec.title) fit::DrawText(c.dl, ImVec2(r.x0, p0.y + fs * 0.2f), c.text, spec.title, c.lo, c.hi);
    draw_ticks_and_grid(c);
    draw_axis_labels(c, l, spec.title != nullptr);
    c.dl->PushClipRect(ImVec2(r.x0, r.y0), ImVec2(r.x1, r.y1), true);
    // Reference-line labels keep off the series' markers and the reference points' rings.
    std::vector<ScreenBox> keep_off = marker_boxes(c, series);
    if (spec.points)
        for (const RefPoint& q : *spec.points) {
            const Point2 a = to_screen(c.ax, c.ay, r, q.x, q.y);
            keep_off.push_back(marker_box(a.x, a.y, c.marker_r * 2.4f));
        }
    // Labels keep off the series' lines too (a label across a curve hides where it goes), and the
    // point labels off the reference lines; the reference lines' own labels sit beside their line.
    const std::vector<ScreenSegment> series_lines = curve_segments(c, series, nullptr);
    const std::vector<ScreenSegment> all_lines = curve_segments(c, series, spec.refs);
    int overlaps = 0;
    const std::vector<ScreenBox> line_labels = spec.refs ? draw_ref_lines(c, *spec.refs, keep_off, series_lines, &overlaps)
                                                   : std::vector<ScreenBox>{};
    draw_series(c, series);
    std::vector<ScreenBox> labels = draw_point_labels(c, spec.points, series, line_labels, all_lines, &overlaps);
    drawn.label_overlaps = overlaps;
    // Measured again from what was drawn (not from what placement believed): every label's box
    // against the markers and the curves.
    labels.insert(labels.end(), line_labels.begin(), line_labels.end());
    drawn.labels = (int)labels.size();
    drawn.hits = label_hits(labels, marker_boxes(c, series), all_lines);
    c.dl->PopClipRect();
    if (spec.legend && !series.empty()) drawn.legend_clicked = draw_legend(c, l, series, hovered);
    if (hovered) show_hover(c, spec);
    ImGui::PopID();
    return drawn;
}

}  // namespace stencil::viewer
