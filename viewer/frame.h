// One frame of the viewer's windows: the menu bar, the fonts, and the open panels placed by
// panel_layout (viewer/core/layout.h): a grid, tabs when the window is too small for a grid at
// this font, or one panel filling the window (presentation, with Page Down / Page Up).
#pragma once
#include "viewer/app.h"

namespace stencil::viewer {

// Loads the font at ui.font_px (times the monitor's scale) and scales the style to it.
void build_fonts(UiOptions& ui);
// The menu bar and the panels; *quit when the user quits. `first_frame`: focus the presented panel.
void draw_frame(App& app, bool first_frame, bool* quit);
// Presentation: the next (+1) or previous (-1) panel fills the window.
void present_next(App& app, int direction);
// Lecture mode on or off (the L key, --lecture): on, one panel (the presented one, else the first
// open) fills the window below a small status line, with no menu bar; off, the layout before it.
void set_lecture(App& app, bool on);

}  // namespace stencil::viewer
