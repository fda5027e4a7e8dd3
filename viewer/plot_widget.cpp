#include "viewer/plot_widget.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <unordered_map>

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

}  // namespace

void Plot(const PlotSpec& spec) {
    const Axis& ax = *spec.x;
    const Axis& ay = *spec.y;
    const auto& series = *spec.series;
    ImGui::PushID(spec.id);
    const float fs = ImGui::GetFontSize();
    ImVec2 size = spec.size;
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    if (size.x <= 0) size.x = avail.x;
    if (size.y <= 0) size.y = std::max(8 * fs, std::min(avail.y, size.x * 0.6f));
    // Margins: room for tick labels on the left, the x label below, the title above.
    // The legend goes right of the plot when that leaves the plot 22 font heights of width, so it
    // covers no data; else below the x label, its entries flowing in rows (never over the data).
    const float lh = fs * 1.25f;
    std::vector<float> entry_w;
    float legend_w = 0;
    if (spec.legend)
        for (const Series& s : series) {
            entry_w.push_back(ImGui::CalcTextSize(s.name.c_str()).x + fs * 2.4f);
            legend_w = std::max(legend_w, entry_w.back());
        }
    const bool legend_outside = spec.legend && size.x - legend_w - fs * 5 > fs * 22;
    // Below: rows of entries as wide as the canvas allows.
    std::vector<ImVec2> below_at;  // offsets of each entry from the legend's top-left
    float legend_h = 0;
    if (spec.legend && !legend_outside && !series.empty()) {
        float x = 0, y = 0;
        for (float w : entry_w) {
            if (x > 0 && x + w > size.x - fs) x = 0, y += lh;
            below_at.push_back(ImVec2(x, y));
            x += w + fs;
        }
        legend_h = y + lh + fs * 0.3f;
        size.y = std::max(size.y, fs * 12.6f + legend_h);
    }
    // Axis labels wrap to the canvas when it is narrower than they are (margins grow to hold them).
    const float label_wrap = std::max(fs * 4, size.x - fs * 0.4f);
    const std::string yl = ay.label + (ay.scale == AxisScale::log10 ? "  [log scale]" : "");
    const ImVec2 xs = ImGui::CalcTextSize(ax.label.c_str(), nullptr, false, label_wrap);
    const ImVec2 ys = ImGui::CalcTextSize(yl.c_str(), nullptr, false, label_wrap);
    const float x_label_h = xs.y + fs * 0.4f;
    const float left = fs * 4.2f, bottom = fs * 1.6f + x_label_h + legend_h, top = ys.y + fs * 0.6f,
                right = legend_outside ? legend_w + fs * 0.8f : fs * 0.8f;
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("##canvas", size);
    const bool hovered = ImGui::IsItemHovered();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
    const ImU32 grid = IM_COL32(255, 255, 255, 28), axis = IM_COL32(200, 200, 200, 255);
    const ImVec2 lo = p0, hi(p0.x + size.x, p0.y + size.y);  // every text stays in the canvas
    PlotRect r{p0.x + left, p0.y + top, p0.x + size.x - right, p0.y + size.y - bottom};
    dl->AddRectFilled(ImVec2(r.x0, r.y0), ImVec2(r.x1, r.y1), IM_COL32(20, 22, 28, 255));
    if (spec.title) fit::DrawText(dl, ImVec2(r.x0, p0.y + fs * 0.2f), text, spec.title, lo, hi);

    // Ticks and grid.
    const int xt = std::max(2, (int)((r.x1 - r.x0) / (fs * 5))), yt = std::max(2, (int)((r.y1 - r.y0) / (fs * 2.5f)));
    const TickCache& xc = ticks_of(ImGui::GetID("x"), ax, xt);
    const TickCache& yc = ticks_of(ImGui::GetID("y"), ay, yt);
    for (size_t i = 0; i < xc.ticks.size(); ++i) {
        const Tick& t = xc.ticks[i];
        const Point2 p = to_screen(ax, ay, r, t.value, ay.scale == AxisScale::log10 ? ay.lo : ay.lo);
        if (p.x < r.x0 - 0.5f || p.x > r.x1 + 0.5f) continue;
        dl->AddLine(ImVec2(p.x, r.y0), ImVec2(p.x, r.y1), t.major ? grid : IM_COL32(255, 255, 255, 12));
        dl->AddLine(ImVec2(p.x, r.y1), ImVec2(p.x, r.y1 + fs * (t.major ? 0.35f : 0.2f)), axis, 1.5f);
        if (!t.label.empty()) fit::DrawText(dl, ImVec2(p.x - xc.widths[i] / 2, r.y1 + fs * 0.4f), text, t.label, lo, hi);
    }
    for (size_t i = 0; i < yc.ticks.size(); ++i) {
        const Tick& t = yc.ticks[i];
        const Point2 p = to_screen(ax, ay, r, ax.lo, t.value);
        if (p.y < r.y0 - 0.5f || p.y > r.y1 + 0.5f) continue;
        dl->AddLine(ImVec2(r.x0, p.y), ImVec2(r.x1, p.y), t.major ? grid : IM_COL32(255, 255, 255, 12));
        dl->AddLine(ImVec2(r.x0 - fs * (t.major ? 0.35f : 0.2f), p.y), ImVec2(r.x0, p.y), axis, 1.5f);
        if (!t.label.empty())
            fit::DrawText(dl, ImVec2(r.x0 - fs * 0.5f - yc.widths[i], p.y - fs / 2), text, t.label, lo, hi);
    }
    dl->AddRect(ImVec2(r.x0, r.y0), ImVec2(r.x1, r.y1), axis, 0, 0, 1.5f);
    {  // axis labels: x centred below, y written above the axis (ImGui draws no rotated text)
        fit::DrawText(dl, ImVec2(std::clamp((r.x0 + r.x1 - xs.x) / 2, p0.x, std::max(p0.x, p0.x + size.x - xs.x)),
                                 r.y1 + fs * 1.6f),
                      text, ax.label, lo, hi, label_wrap);
        const float yx = std::clamp(spec.title ? r.x1 - ys.x : r.x0, p0.x, std::max(p0.x, p0.x + size.x - ys.x));
        fit::DrawText(dl, ImVec2(yx, p0.y + fs * 0.2f), IM_COL32(190, 190, 190, 255), yl, lo, hi, label_wrap);
    }

    dl->PushClipRect(ImVec2(r.x0, r.y0), ImVec2(r.x1, r.y1), true);
    // Reference lines.
    if (spec.refs)
        for (const RefLine& l : *spec.refs) {
            const Point2 p = to_screen(ax, ay, r, l.horizontal ? ax.lo : l.value, l.horizontal ? l.value : ay.lo);
            if (l.horizontal) {
                dashed_line(dl, ImVec2(r.x0, p.y), ImVec2(r.x1, p.y), l.colour, 1.5f, fs * 0.4f);
                const ImVec2 ts = ImGui::CalcTextSize(l.label.c_str());
                // At the left end, above the line (below it when the line is at the top).
                const float ly = p.y - ts.y - 2 >= r.y0 ? p.y - ts.y - 2 : p.y + 2;
                dl->AddRectFilled(ImVec2(r.x0 + fs * 0.3f, ly), ImVec2(r.x0 + fs * 0.3f + ts.x, ly + ts.y),
                                  IM_COL32(20, 22, 28, 200));
                fit::DrawText(dl, ImVec2(r.x0 + fs * 0.3f, ly), l.colour, l.label, ImVec2(r.x0, r.y0), ImVec2(r.x1, r.y1));
            } else {
                dashed_line(dl, ImVec2(p.x, r.y0), ImVec2(p.x, r.y1), l.colour, 1.5f, fs * 0.4f);
                fit::DrawText(dl, ImVec2(p.x + 3, r.y0 + 2), l.colour, l.label, ImVec2(r.x0, r.y0), ImVec2(r.x1, r.y1));
            }
        }
    // Series.
    const float thick = std::max(2.0f, fs * 0.12f), marker = std::max(3.0f, fs * 0.22f);
    for (const Series& s : series) {
        const ImU32 c = s.greyed ? IM_COL32(110, 110, 110, 160) : s.colour;
        const int n = (int)std::min(s.x.size(), s.y.size());
        for (int i = 0; i + 1 < n && s.line; ++i) {
            const Point2 a = to_screen(ax, ay, r, s.x[i], s.y[i]), b = to_screen(ax, ay, r, s.x[i + 1], s.y[i + 1]);
            if (!std::isfinite(a.y) || !std::isfinite(b.y)) continue;
            if (s.dashed) dashed_line(dl, ImVec2(a.x, a.y), ImVec2(b.x, b.y), c, thick, fs * 0.5f);
            else dl->AddLine(ImVec2(a.x, a.y), ImVec2(b.x, b.y), c, thick);
        }
        for (int i = 0; i < n && s.markers; ++i) {
            const Point2 a = to_screen(ax, ay, r, s.x[i], s.y[i]);
            if (!std::isfinite(a.y)) continue;
            stencil::viewer::marker(dl, s.marker, ImVec2(a.x, a.y), s.marker == MarkerShape::circle ? marker : marker * 1.1f,
                                    c, 2.5f);
        }
    }
    // Reference points: a ring and the label.
    if (spec.points)
        for (const RefPoint& q : *spec.points) {
            const Point2 a = to_screen(ax, ay, r, q.x, q.y);
            dl->AddCircle(ImVec2(a.x, a.y), marker * 2.2f, q.colour, 0, 2.5f);
            // Wrapped to the plot's width when wider; right of the ring, else left of it, else
            // shifted inside the plot.
            const float wrap = r.x1 - r.x0 - 4;
            const ImVec2 ts = ImGui::CalcTextSize(q.label.c_str(), nullptr, false, wrap);
            float lx = a.x + marker * 2.8f, ly = a.y + marker * 1.5f;
            if (lx + ts.x > r.x1) lx = a.x - marker * 2.8f - ts.x;
            lx = std::clamp(lx, r.x0 + 2, std::max(r.x0 + 2, r.x1 - ts.x - 2));
            if (ly + ts.y > r.y1) ly = a.y - marker * 2.5f - ts.y;
            ly = std::max(ly, r.y0);
            dl->AddRectFilled(ImVec2(lx - 2, ly), ImVec2(lx + ts.x + 2, ly + ts.y), IM_COL32(20, 22, 28, 200));
            fit::DrawText(dl, ImVec2(lx, ly), q.colour, q.label, ImVec2(r.x0, r.y0), ImVec2(r.x1, r.y1), wrap);
        }
    dl->PopClipRect();

    // Legend: right of the plot, or in rows below the x label.
    if (spec.legend && !series.empty()) {
        const float lx = legend_outside ? r.x1 + fs * 0.6f : p0.x + fs * 0.5f;
        const float ly = legend_outside ? r.y0 + fs * 0.3f : r.y1 + fs * 1.6f + x_label_h;
        if (legend_outside)
            dl->AddRectFilled(ImVec2(lx - 4, ly - 2), ImVec2(lx + legend_w, ly + series.size() * lh + 2),
                              IM_COL32(12, 14, 18, 220));
        for (size_t i = 0; i < series.size(); ++i) {
            const Series& s = series[i];
            const float x = legend_outside ? lx : lx + below_at[i].x;
            const float y = legend_outside ? ly + i * lh : ly + below_at[i].y;
            const ImU32 c = s.greyed ? IM_COL32(110, 110, 110, 255) : s.colour;
            if (s.line) {
                if (s.dashed) dashed_line(dl, ImVec2(x, y + fs * 0.55f), ImVec2(x + fs * 1.4f, y + fs * 0.55f), c, thick, fs * 0.3f);
                else dl->AddLine(ImVec2(x, y + fs * 0.55f), ImVec2(x + fs * 1.4f, y + fs * 0.55f), c, thick);
            }
            if (s.markers)
                stencil::viewer::marker(dl, s.marker, ImVec2(x + fs * 0.7f, y + fs * 0.55f),
                                        s.marker == MarkerShape::circle ? marker : marker * 1.1f, c, 2.0f);
            fit::DrawText(dl, ImVec2(x + fs * 1.8f, y), s.greyed ? IM_COL32(140, 140, 140, 255) : text, s.name, lo, hi);
        }
    }

    // Hover read-out.
    if (hovered) {
        const ImVec2 m = ImGui::GetIO().MousePos;
        const Hover h = nearest_point(series, ax, ay, r, {m.x, m.y}, fs * 0.9f);
        if (h.series >= 0) {
            const Series& s = series[h.series];
            const Point2 a = to_screen(ax, ay, r, s.x[h.index], s.y[h.index]);
            dl->AddCircle(ImVec2(a.x, a.y), marker * 2.0f, IM_COL32(255, 255, 255, 255), 0, 2.0f);
            const std::string t = spec.hover_text ? spec.hover_text(h.series, h.index)
                                                  : fmt::format("{}\n{} = {:.4g}\n{} = {:.4g}", s.name, ax.label,
                                                                s.x[h.index], ay.label, s.y[h.index]);
            ImGui::SetTooltip("%s", t.c_str());
        }
    }
    ImGui::PopID();
}

}  // namespace stencil::viewer
