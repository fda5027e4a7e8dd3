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
    L.mode = LayoutMode::tabs;
    L.rects = {area};
    return L;
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

}  // namespace stencil::viewer
