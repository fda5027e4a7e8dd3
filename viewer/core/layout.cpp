#include "viewer/core/layout.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace stencil::viewer {

std::optional<WindowSize> parse_window_size(const std::string& text, std::string* why) {
    WindowSize s;
    char rest = 0;
    if (std::sscanf(text.c_str(), "%dx%d%c", &s.w, &s.h, &rest) != 2) {
        if (why) *why = "--window " + text + " is not WxH (e.g. 1920x1080)";
        return std::nullopt;
    }
    if (s.w < kMinWindowW || s.h < kMinWindowH || s.w > kMaxWindowW || s.h > kMaxWindowH) {
        if (why)
            *why = "--window " + text + " is outside " + std::to_string(kMinWindowW) + "x" +
                   std::to_string(kMinWindowH) + " .. " + std::to_string(kMaxWindowW) + "x" + std::to_string(kMaxWindowH);
        return std::nullopt;
    }
    return s;
}

const char* to_string(LayoutMode m) {
    switch (m) {
        case LayoutMode::solo: return "solo";
        case LayoutMode::grid: return "grid";
        case LayoutMode::split: return "split";
        case LayoutMode::tabs: return "tabs";
    }
    return "?";
}

PanelLayout panel_layout(const std::vector<bool>& open, Rect area, float font_px) {
    PanelLayout L;
    for (int i = 0; i < (int)open.size(); ++i)
        if (open[i]) L.panels.push_back(i);
    if (L.panels.size() <= 1) {
        L.mode = LayoutMode::solo;
        L.rects = {area};
        return L;
    }
    const float min_w = kMinPanelCols * font_px, min_h = kMinPanelRows * font_px;
    const bool stepper = open[0];
    std::vector<int> rest;
    for (int p : L.panels)
        if (p != 0 || !stepper) rest.push_back(p);
    // First the stepper in a left column (half the window) and the others in a grid beside it,
    // then every panel in one grid; tabs when neither gives each panel min_w x min_h.
    for (const bool stepper_column : {true, false}) {
        if (stepper_column && (!stepper || area.w * 0.5f < min_w)) continue;
        const float left = stepper_column ? area.w * 0.5f : 0;
        const std::vector<int>& gridded = stepper_column ? rest : L.panels;
        const int n = (int)gridded.size();
        const int max_cols = std::max(1, (int)std::floor((area.w - left) / min_w));
        const int cols = std::max(1, std::min({n, max_cols, 2}));
        const int rows = (n + cols - 1) / cols;
        const float w = (area.w - left) / cols, h = area.h / rows;
        if (w < min_w || h < min_h) continue;
        L.mode = LayoutMode::grid;
        for (int p : L.panels) {
            if (p == 0 && stepper_column) {
                L.rects.push_back({area.x, area.y, left, area.h});
                continue;
            }
            const int idx = (int)(std::find(gridded.begin(), gridded.end(), p) - gridded.begin());
            L.rects.push_back({area.x + left + (idx % cols) * w, area.y + (idx / cols) * h, w, h});
        }
        return L;
    }
    // The stepper beside the others' tabs: each half still a whole panel.
    if (stepper && rest.size() >= 2 && area.w * 0.5f >= min_w && area.h >= min_h) {
        L.mode = LayoutMode::split;
        const float half = area.w * 0.5f;
        L.rects = {{area.x, area.y, half, area.h}, {area.x + half, area.y, area.w - half, area.h}};
        return L;
    }
    L.mode = LayoutMode::tabs;
    L.rects = {area};
    return L;
}

Rect bounding(const Rect& a, const Rect& b) {
    const float x0 = std::min(a.x, b.x), y0 = std::min(a.y, b.y);
    const float x1 = std::max(a.x + a.w, b.x + b.w), y1 = std::max(a.y + a.h, b.y + b.h);
    return {x0, y0, x1 - x0, y1 - y0};
}

FigureFacts figure_facts(const Rect& figure, const Rect& shown, const Rect& window) {
    FigureFacts f;
    if (figure.w <= 0 || figure.h <= 0 || window.w <= 0 || window.h <= 0) return f;
    constexpr float kSlack = 1.0f;  // sub-pixel rounding of item rectangles
    f.visible = figure.x >= shown.x - kSlack && figure.y >= shown.y - kSlack &&
                figure.x + figure.w <= shown.x + shown.w + kSlack && figure.y + figure.h <= shown.y + shown.h + kSlack;
    // What of the figure lies on screen: inside what its window shows and inside the window.
    const float x0 = std::max({figure.x, shown.x, window.x}), y0 = std::max({figure.y, shown.y, window.y});
    const float x1 = std::min({figure.x + figure.w, shown.x + shown.w, window.x + window.w});
    const float y1 = std::min({figure.y + figure.h, shown.y + shown.h, window.y + window.h});
    if (x1 > x0 && y1 > y0) f.share = double(x1 - x0) * double(y1 - y0) / (double(window.w) * double(window.h));
    return f;
}

PlaneGrid fit_planes(int planes, int nx, int ny, float w, float h, float label_h, float gap, float min_cell,
                     float max_cell, float min_col_w) {
    PlaneGrid best;
    if (planes <= 0 || nx <= 0 || ny <= 0) return best;
    best.cell = -1;
    for (int cols = 1; cols <= planes; ++cols) {
        if (cols > 1 && cols * min_col_w + (cols - 1) * gap > w) break;
        const int rows = (planes + cols - 1) / cols;
        // A plane's squares and its 2 px border, a gap between planes, a label over each.
        const float by_w = ((w + gap) / cols - gap - 2) / nx;
        const float by_h = ((h + gap) / rows - gap - label_h - 2) / ny;
        const float cell = std::min(by_w, by_h);
        if (cell > best.cell + 1e-3f) best = {cols, rows, cell};
    }
    best.cell = std::clamp(best.cell, min_cell, std::max(min_cell, max_cell));
    return best;
}

std::vector<std::vector<int>> table_bands(const std::vector<float>& widths, float avail, int key_columns) {
    std::vector<std::vector<int>> bands;
    const int n = (int)widths.size();
    key_columns = std::clamp(key_columns, 0, n);
    float key_w = 0;
    for (int c = 0; c < key_columns; ++c) key_w += widths[c];
    std::vector<int> band;
    float used = 0;
    auto start_band = [&] {
        band.clear();
        used = 0;
        for (int c = 0; c < key_columns; ++c) band.push_back(c);
        used = key_w;
    };
    start_band();
    for (int c = key_columns; c < n; ++c) {
        if (used + widths[c] > avail && (int)band.size() > key_columns) {
            bands.push_back(band);
            start_band();
        }
        band.push_back(c);
        used += widths[c];
    }
    if ((int)band.size() > key_columns || bands.empty()) bands.push_back(band);
    return bands;
}

int lecture_font_px(float window_w, float window_h) {
    const float px = std::min(window_h / 24.0f, window_w / 32.0f);
    return std::clamp(static_cast<int>(std::lround(px)), kMinFontPx, kMaxFontPx);
}

}  // namespace stencil::viewer
