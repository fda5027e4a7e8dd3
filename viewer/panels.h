// One function per panel, each in its own file (panel_<name>.cpp). A panel draws from the App's
// state and calls App::set_*() on input; it computes no model itself.
#pragma once
#include "viewer/app.h"

namespace stencil::viewer {

void draw_stepper_panel(App& app);
void draw_opb_panel(App& app);
void draw_halos_panel(App& app);
void draw_coalescing_panel(App& app);
void draw_runs_panel(App& app);
void draw_check_panel(App& app);
void draw_cardiac_panel(App& app);
void draw_timeline_panel(App& app);
// The stepper's trace in flight (stepper and coalescing panels): a "tracing..." line while the
// worker traces the new config (the previous trace stays drawn). True when there is no trace yet to
// draw (the first one is still running).
bool trace_status(App& app);

// Shared by the stepper and coalescing panels: one z-slice of cells drawn as a grid of squares.
// colour_of(x, y) returns the packed colour of cell (x, y); returns the hovered cell or (-1, -1).
struct CellGridResult {
    int hx = -1, hy = -1;
};
template <class F>
CellGridResult DrawCellGrid(const char* id, int nx, int ny, float cell, F colour_of, std::uint32_t border = 0);

}  // namespace stencil::viewer

#include "viewer/widgets.h"

namespace stencil::viewer {

template <class F>
CellGridResult DrawCellGrid(const char* id, int nx, int ny, float cell, F colour_of, std::uint32_t border) {
    CellGridResult res;
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton(id, ImVec2(nx * cell + 2, ny * cell + 2));
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float gap = cell >= 6 ? 1.0f : 0.0f;
    // y grows upwards in the grid, downwards on screen: draw row y at the bottom for y = 0.
    for (int y = 0; y < ny; ++y)
        for (int x = 0; x < nx; ++x) {
            const ImVec2 a(p.x + 1 + x * cell, p.y + 1 + (ny - 1 - y) * cell);
            dl->AddRectFilled(a, ImVec2(a.x + cell - gap, a.y + cell - gap), (ImU32)colour_of(x, y));
        }
    if (border) dl->AddRect(p, ImVec2(p.x + nx * cell + 2, p.y + ny * cell + 2), (ImU32)border, 0, 0, 2.0f);
    if (ImGui::IsItemHovered()) {
        const ImVec2 m = ImGui::GetIO().MousePos;
        res.hx = (int)((m.x - p.x - 1) / cell);
        res.hy = ny - 1 - (int)((m.y - p.y - 1) / cell);
        if (res.hx < 0 || res.hx >= nx || res.hy < 0 || res.hy >= ny) res.hx = res.hy = -1;
    }
    return res;
}

}  // namespace stencil::viewer
