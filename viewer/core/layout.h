// The viewer's geometry without ImGui: the window and font limits of the projector, where the open
// panels go for a window and a font, and how a table too wide for its panel wraps into bands of
// columns. viewer/frame.cpp and viewer/fit.cpp draw what these return; tests/viewer checks them.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace stencil::viewer {

// What a projector needs, and what the screenshot tests sweep: 1024x768 up to 4K, 14 to 40 px.
inline constexpr int kMinWindowW = 1024, kMinWindowH = 768, kMaxWindowW = 3840, kMaxWindowH = 2160;
inline constexpr int kMinFontPx = 14, kMaxFontPx = 40;
inline constexpr int kDefaultFontPx = 20;  // a desk's screen, when --font is not given

// Lecture mode's font when --font is not given: it follows the window, so that the last row reads
// the code as the first row does on a laptop: a 24th of the height (32 px at 1024x768), no wider
// than a 32nd of the width (a 4:3 and a 16:9 window hold the same columns), within the limits
// above (40 px at 1920x1080 and past it).
int lecture_font_px(float window_w, float window_h);

// Charts take their short labels (the lecture's) when the window holds fewer than kCompactRows
// lines of the font: 32 px in 1024x768 left the long ones no place clear of the data.
inline constexpr float kCompactRows = 30;
inline bool compact_charts(bool lecture, float font_px, float window_h) {
    return lecture || window_h < font_px * kCompactRows;
}

struct WindowSize {
    int w = 0, h = 0;
};
// "WxH" within the limits above; nullopt (and *why, one line) otherwise.
std::optional<WindowSize> parse_window_size(const std::string& text, std::string* why);

struct Rect {
    float x = 0, y = 0, w = 0, h = 0;
};
// Where the open panels go. A panel gets at least kMinPanelCols x kMinPanelRows font heights, the
// room its whole figure needs (five panels sharing a 1920x1080 window showed none whole).
// `grid`: one window per panel, the stepper (panel 0, when open) in a left column when that leaves
// every panel its minimum, else all panels in one grid; `split`: the stepper in the left half and
// the other panels as tabs in the right half, when no grid fits but half the window does; `tabs`:
// one window holding the panels as tabs; `solo`: one panel fills the area (--present, lecture mode).
enum class LayoutMode { solo, grid, split, tabs };
const char* to_string(LayoutMode m);  // "solo", "grid", "split", "tabs" (the sidecar's `layout`)
inline constexpr float kMinPanelCols = 44, kMinPanelRows = 24;  // in font heights
struct PanelLayout {
    LayoutMode mode = LayoutMode::grid;
    std::vector<int> panels;  // the open panels, in order
    // One per panel (grid); the stepper's and the tabs' (split); one for the whole area (solo, tabs).
    std::vector<Rect> rects;
};
// open: which panels are open (index = panel id; 0 is the stepper); area: the work area below the
// menu bar; font_px: the font's height in pixels.
PanelLayout panel_layout(const std::vector<bool>& open, Rect area, float font_px);

// A table wider than its panel wraps: its columns are split into bands drawn one under the other,
// each band repeating the first `key_columns` (the row's name) so a row can be read across bands.
// widths: each column's width as its contents need (header and cells, padding included). Returns
// the columns of each band; a single column wider than `avail` gets a band of its own (the
// caller wraps that column's text).
std::vector<std::vector<int>> table_bands(const std::vector<float>& widths, float avail, int key_columns);

// A panel's figure as the screenshot sidecar reports it: `share`, the part of the window it
// covers on screen (0 to 1), and `visible`, whether all of it is on screen (not scrolled away, not
// cut by its window). figure: its rectangle; shown: what its window shows of the screen; window:
// the whole window.
struct FigureFacts {
    double share = 0;
    bool visible = false;
};
FigureFacts figure_facts(const Rect& figure, const Rect& shown, const Rect& window);
Rect bounding(const Rect& a, const Rect& b);  // the smallest rectangle holding both

// Planes of nx x ny cells, each under a label line, laid out in a grid filling w x h: the number
// of columns that gives the largest cells (clamped to [min_cell, max_cell]), and those cells. A
// column is at least min_col_w wide (its label's width): no more columns than that allows.
struct PlaneGrid {
    int cols = 1, rows = 1;
    float cell = 0;
};
PlaneGrid fit_planes(int planes, int nx, int ny, float w, float h, float label_h, float gap, float min_cell,
                     float max_cell, float min_col_w = 0);

}  // namespace stencil::viewer
