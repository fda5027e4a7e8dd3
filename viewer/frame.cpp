#include "viewer/frame.h"

#include <imgui.h>
#include <backends/imgui_impl_opengl3.h>

#include <filesystem>
#include <fmt/format.h>

#include "viewer/core/layout.h"
#include "viewer/fit.h"
#include "viewer/panels.h"

namespace stencil::viewer {

namespace {

using DrawFn = void (*)(App&);
const DrawFn kDraw[kPanels] = {draw_stepper_panel, draw_opb_panel,  draw_halos_panel,
                               draw_coalescing_panel, draw_runs_panel, draw_check_panel,
                               draw_cardiac_panel, draw_timeline_panel};

void main_menu(App& app, bool* quit) {
    if (!ImGui::BeginMainMenuBar()) return;
    if (ImGui::BeginMenu("View")) {
        for (int p = 0; p < kPanels; ++p)
            if (ImGui::MenuItem(panel_title((PanelId)p), nullptr, &app.ui.open[p])) {
                app.ui.solo = -1;
                app.ui.relayout = true;
            }
        ImGui::Separator();
        if (ImGui::MenuItem("Next panel (presentation)", "Page Down")) present_next(app, +1);
        if (ImGui::MenuItem("Previous panel", "Page Up")) present_next(app, -1);
        if (ImGui::MenuItem("All panels")) {
            app.ui.solo = -1;
            for (int p = 0; p < kPanels; ++p) app.ui.open[p] = p != (int)PanelId::check;
            app.ui.relayout = true;
        }
        if (ImGui::MenuItem("Quit", "Ctrl+Q")) *quit = true;
        ImGui::EndMenu();
    }
    const float fs = ImGui::GetFontSize();
    ImGui::SetNextItemWidth(fs * 6);
    // Applied on release: each rebuild of the atlas re-lays the windows out.
    ImGui::SliderFloat("font px", &app.ui.font_px, kMinFontPx, kMaxFontPx, "%.0f");
    if (ImGui::IsItemDeactivatedAfterEdit()) app.ui.font_dirty = true;
    // Optional texts: shown only when they fit the bar (a menu bar cannot wrap).
    const std::string where = app.ui.solo >= 0 ? fmt::format("  {} of {} (Page Down / Up)", app.ui.solo + 1, kPanels)
                                               : std::string();
    const std::string fps = fmt::format("  {:.0f} fps", ImGui::GetIO().Framerate);
    for (const std::string* s : {&where, &fps}) {
        if (s->empty()) continue;
        const float w = fit::TextWidth(*s);
        if (ImGui::GetContentRegionAvail().x >= w) ImGui::TextDisabled("%s", s->c_str());
    }
    ImGui::EndMainMenuBar();
}

// One panel in its own window (grid or solo).
void panel_window(App& app, int p, const Rect* place, bool focus) {
    if (place) {
        ImGui::SetNextWindowPos(ImVec2(place->x, place->y));
        ImGui::SetNextWindowSize(ImVec2(place->w, place->h));
    }
    if (focus) ImGui::SetNextWindowFocus();
    if (ImGui::Begin(panel_title((PanelId)p), &app.ui.open[p], ImGuiWindowFlags_NoCollapse)) {
        kDraw[p](app);
        fit::CheckWindow(panel_title((PanelId)p));
    }
    ImGui::End();
}

}  // namespace

void build_fonts(UiOptions& ui) {
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts->Clear();
    ui.font_px = std::clamp(ui.font_px, (float)kMinFontPx, (float)kMaxFontPx);
    const float px = std::round(ui.font_px * ui.content_scale);
    // DejaVu Sans (crisp at projector sizes) when installed, else ImGui's own font scaled.
    const char* candidates[] = {"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
                                "/usr/share/fonts/TTF/DejaVuSans.ttf",
                                "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf"};
    ImFont* font = nullptr;
    for (const char* f : candidates)
        if (std::filesystem::exists(f) && (font = io.Fonts->AddFontFromFileTTF(f, px))) break;
    if (!font) {
        ImFontConfig cfg;
        cfg.SizePixels = px;
        io.Fonts->AddFontDefault(&cfg);
    }
    io.Fonts->Build();
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    ImGui_ImplOpenGL3_CreateFontsTexture();
    ImGuiStyle style;
    ImGui::StyleColorsDark(&style);
    style.ScaleAllSizes(px / 13.0f * 0.8f);  // padding, spacing, scrollbars follow the font
    style.WindowRounding = 0;
    ImGui::GetStyle() = style;
    ui.font_dirty = false;
}

void present_next(App& app, int direction) {
    const int from = app.ui.solo >= 0 ? app.ui.solo : 0;
    app.ui.solo = ((from + direction) % kPanels + kPanels) % kPanels;
    for (int p = 0; p < kPanels; ++p) app.ui.open[p] = p == app.ui.solo;
    app.ui.relayout = true;
    app.ui.focus_pending = true;
}

void draw_frame(App& app, bool first_frame, bool* quit) {
    main_menu(app, quit);
    if (!ImGui::GetIO().WantTextInput) {
        if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_PageDown))) present_next(app, +1);
        if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_PageUp))) present_next(app, -1);
    }
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    const Rect area{vp->WorkPos.x, vp->WorkPos.y, vp->WorkSize.x, vp->WorkSize.y};
    const PanelLayout L = panel_layout(std::vector<bool>(app.ui.open, app.ui.open + kPanels), area, ImGui::GetFontSize());
    const bool place = app.ui.relayout;
    const char* mode = L.mode == LayoutMode::solo ? "solo" : L.mode == LayoutMode::grid ? "grid" : "tabs";
    if (L.mode == LayoutMode::tabs) {
        // One window, the panels as tabs: a grid would leave each panel too small at this font.
        if (place) {
            ImGui::SetNextWindowPos(ImVec2(area.x, area.y));
            ImGui::SetNextWindowSize(ImVec2(area.w, area.h));
        }
        if (ImGui::Begin("stencil-lab", nullptr, ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoTitleBar)) {
            if (ImGui::BeginTabBar("panels", ImGuiTabBarFlags_FittingPolicyScroll)) {
                for (int p : L.panels)
                    if (ImGui::BeginTabItem(panel_title((PanelId)p))) {
                        ImGui::BeginChild("##tab");
                        kDraw[p](app);
                        fit::CheckWindow(panel_title((PanelId)p));
                        ImGui::EndChild();
                        ImGui::EndTabItem();
                    }
                ImGui::EndTabBar();
            }
        }
        ImGui::End();
    } else {
        for (size_t i = 0; i < L.panels.size(); ++i) {
            const int p = L.panels[i];
            const Rect* r = place ? (L.mode == LayoutMode::solo ? &L.rects[0] : &L.rects[i]) : nullptr;
            panel_window(app, p, r, (first_frame || app.ui.focus_pending) && app.ui.solo == p);
        }
    }
    app.ui.focus_pending = false;
    app.ui.relayout = false;
    if (app.recording) app.drawn["layout"] = mode;
}

}  // namespace stencil::viewer
