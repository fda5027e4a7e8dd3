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

struct WindowSize {
    int w = 0, h = 0;
};
// "WxH" within the limits above; nullopt (and *why, one line) otherwise.
std::optional<WindowSize> parse_window_size(const std::string& text, std::string* why);

struct Rect {
    float x = 0, y = 0, w = 0, h = 0;
};
// Where the open panels go. `grid`: one window per panel, the stepper (panel 0, when open) in a
// left column when that leaves every panel its minimum, else all panels in one grid; `tabs`: one window
// holding the panels as tabs, when a grid would give a panel less than kMinPanelCols x
// kMinPanelRows font heights (a 1024x768 window at 32 px); `solo`: one panel fills the area.
enum class LayoutMode { solo, grid, tabs };
inline constexpr float kMinPanelCols = 30, kMinPanelRows = 14;  // in font heights
struct PanelLayout {
    LayoutMode mode = LayoutMode::grid;
    std::vector<int> panels;  // the open panels, in order
    std::vector<Rect> rects;  // one per panel (grid), or one for the whole area (solo, tabs)
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

}  // namespace stencil::viewer
