#include "viewer/frame.h"

#include <imgui.h>
#include <backends/imgui_impl_opengl3.h>

#include <cstdio>
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

// File > Open: a student's kernel (the stepper) or a results file (the runs panel).
void file_menu(App& app) {
    if (!ImGui::BeginMenu("File")) return;
    if (ImGui::MenuItem("Open kernel...")) app.show_open_dialog(OpenKind::kernel);
    if (ImGui::MenuItem("Open results...")) app.show_open_dialog(OpenKind::results);
    ImGui::EndMenu();
}

void main_menu(App& app, bool* quit) {
    if (!ImGui::BeginMainMenuBar()) return;
    file_menu(app);
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

// File > Open's modal: the folder's sub-folders and files of the kind (click: into a folder, or the
// file's path into the box; double-click or Enter: open), and the path box for anything else.
constexpr const char* kOpenPopup = "Open a file";

void open_dialog(App& app, bool first_frame) {
    auto& d = app.open_dialog;
    // Not while a panel is being focused (the first frame, Page Down): focusing it closes popups.
    if (d.pending && !first_frame && !app.ui.focus_pending) {
        ImGui::OpenPopup(kOpenPopup);
        d.pending = false;
    }
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    const float fs = ImGui::GetFontSize();
    ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + vp->WorkSize.x / 2, vp->WorkPos.y + vp->WorkSize.y / 2),
                            ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSize(ImVec2(std::min(vp->WorkSize.x * 0.9f, fs * 40), std::min(vp->WorkSize.y * 0.85f, fs * 24)),
                             ImGuiCond_Appearing);
    bool keep = true;
    if (!ImGui::BeginPopupModal(kOpenPopup, &keep)) return;
    std::string exts;
    for (const auto& e : open_extensions(d.kind)) exts += (exts.empty() ? "" : " ") + e;
    fit::Wrapped(d.kind == OpenKind::kernel ? "A student's kernel (" + exts + ") for the stepper, in " + d.listing.folder
                                            : "Results (" + exts + ") for the runs panel, in " + d.listing.folder);
    bool confirm = false;
    ImGui::BeginChild("##entries", ImVec2(0, -(ImGui::GetFrameHeightWithSpacing() * 2 + fs * 1.5f)), true);
    for (const auto& e : d.listing.entries) {
        const std::string path = entry_path(d.listing.folder, e);
        const std::string label = e.folder ? e.name + "/" : e.name;
        if (ImGui::Selectable(label.c_str(), !e.folder && path == d.path, ImGuiSelectableFlags_AllowDoubleClick)) {
            if (e.folder) {
                app.list_open_folder(path);
                break;  // the listing changed under the loop
            }
            std::snprintf(d.path, sizeof d.path, "%s", path.c_str());
            confirm = ImGui::IsMouseDoubleClicked(0);
        }
    }
    if (d.listing.entries.empty()) fit::Disabled("(nothing of this kind here)");
    ImGui::EndChild();
    const float buttons = fit::ButtonWidth("Open") + fit::ButtonWidth("Cancel") + fs;
    ImGui::SetNextItemWidth(std::max(fs * 6, ImGui::GetContentRegionAvail().x - buttons));
    confirm |= ImGui::InputText("##open_path", d.path, sizeof d.path, ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::SameLine();
    confirm |= ImGui::Button("Open");
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) ImGui::CloseCurrentPopup();
    if (confirm && app.open_file(d.kind, d.path).empty()) ImGui::CloseCurrentPopup();
    if (!d.message.empty()) fit::Colored(ImVec4(1, 0.5f, 0.4f, 1), d.message);
    ImGui::EndPopup();
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
    open_dialog(app, first_frame);  // a modal: on top whatever the order; first, so what it opens is laid out now
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
    if (app.recording) {
        app.drawn["layout"] = mode;
        const auto& d = app.open_dialog;
        app.drawn["file_open"] = {{"kind", to_string(d.kind)}, {"shown", ImGui::IsPopupOpen(kOpenPopup)},
                                  {"folder", d.listing.folder}, {"entries", d.listing.entries.size()},
                                  {"path", d.path}, {"opened", d.opened}, {"message", d.message}};
    }
}

}  // namespace stencil::viewer
