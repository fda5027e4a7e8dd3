#include "viewer/frame.h"

#include <imgui.h>
#include <backends/imgui_impl_opengl3.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "viewer/core/layout.h"
#include "viewer/fit.h"
#include "viewer/panels.h"

namespace stencil::viewer {

namespace {

ImFont* g_small_font = nullptr;  // the status line's (lecture mode), built with the font

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
        if (ImGui::MenuItem("Lecture mode", "L")) set_lecture(app, true);
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
    if (ImGui::IsItemDeactivatedAfterEdit()) {
        app.ui.font_dirty = true;
        app.ui.font_follows_window = false;  // the user's choice from now on, as --font's
    }
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

// The figure facts of the panel just drawn (fit::TakeFigure), into the sidecar's "figures".
void record_figure(App& app, int p) {
    const fit::Figure f = fit::TakeFigure();
    if (app.recording)
        (*app.drawn)["figures"][panel_name((PanelId)p)] = {{"figure_share", f.share}, {"figure_visible", f.visible},
                                                        {"figure_drawn", f.drawn}};
}

// One panel in its own window (grid or solo).
void panel_window(App& app, int p, const Rect* place, bool focus) {
    if (place) {
        ImGui::SetNextWindowPos(ImVec2(place->x, place->y));
        ImGui::SetNextWindowSize(ImVec2(place->w, place->h));
    }
    if (focus) ImGui::SetNextWindowFocus();
    // Lecture mode: the window is the panel, with no title bar to take a line.
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoCollapse |
                                   (app.ui.lecture ? ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize |
                                                         ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoBringToFrontOnFocus
                                                   : 0);
    if (ImGui::Begin(panel_title((PanelId)p), &app.ui.open[p], flags)) {
        kDraw[p](app);
        fit::CheckWindow(panel_title((PanelId)p));
    }
    record_figure(app, p);
    ImGui::End();
}

// Lecture mode's one small line under the panel: which panel, what it shows (the panel's status),
// and the keys, each part only when it fits (nothing is ever cut).
void status_line(App& app, const Rect& r) {
    ImGui::SetNextWindowPos(ImVec2(r.x, r.y));
    ImGui::SetNextWindowSize(ImVec2(r.w, r.h));
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                   ImGuiWindowFlags_NoNav;
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(ImGui::GetStyle().WindowPadding.x, 2));
    if (ImGui::Begin("##status", nullptr, flags)) {
        if (g_small_font) ImGui::PushFont(g_small_font);
        const int p = app.ui.solo;
        std::vector<std::string> parts = {p >= 0 ? panel_name((PanelId)p) : ""};
        parts.insert(parts.end(), app.ui.status.begin(), app.ui.status.end());
        parts.push_back("L: leave lecture mode");
        parts.push_back("Page Down / Up: next / previous panel");
        const float avail = ImGui::GetContentRegionAvail().x;
        float used = 0;
        for (const auto& t : parts) {
            if (t.empty()) continue;
            const std::string text = used > 0 ? "  |  " + t : t;  // a part that does not fit is left out
            const float w = fit::TextWidth(text);
            if (used + w > avail) continue;
            if (used > 0) ImGui::SameLine(0, 0);
            fit::Disabled(text);
            used += w;
        }
        if (g_small_font) ImGui::PopFont();
        fit::CheckWindow("status");
    }
    ImGui::End();
    ImGui::PopStyleVar();
    if (app.recording) (*app.drawn)["status_line"] = app.ui.status;
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
    g_small_font = nullptr;
    const float small_px = std::round(px * 0.72f);  // lecture mode's status line
    for (const char* f : candidates)
        if (std::filesystem::exists(f) && (font = io.Fonts->AddFontFromFileTTF(f, px))) {
            g_small_font = io.Fonts->AddFontFromFileTTF(f, small_px);
            break;
        }
    if (!font) {
        ImFontConfig cfg;
        cfg.SizePixels = px;
        io.Fonts->AddFontDefault(&cfg);
        cfg.SizePixels = small_px;
        g_small_font = io.Fonts->AddFontDefault(&cfg);
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

void set_lecture(App& app, bool on) {
    UiOptions& ui = app.ui;
    if (on == ui.lecture) return;
    if (on) {
        std::copy(std::begin(ui.open), std::end(ui.open), std::begin(ui.saved_open));
        ui.saved_solo = ui.solo;
        if (ui.solo < 0) {  // the first open panel, else the stepper
            ui.solo = 0;
            for (int p = kPanels - 1; p >= 0; --p)
                if (ui.open[p]) ui.solo = p;
        }
        for (int p = 0; p < kPanels; ++p) ui.open[p] = p == ui.solo;
    } else {
        std::copy(std::begin(ui.saved_open), std::end(ui.saved_open), std::begin(ui.open));
        ui.solo = ui.saved_solo;
    }
    ui.lecture = on;
    ui.relayout = true;
    ui.focus_pending = true;
    app.rebuild_opb();  // the chart's labels and legend follow the mode (opb_view's compact)
}

void present_next(App& app, int direction) {
    const int from = app.ui.solo >= 0 ? app.ui.solo : 0;
    app.ui.solo = ((from + direction) % kPanels + kPanels) % kPanels;
    for (int p = 0; p < kPanels; ++p) app.ui.open[p] = p == app.ui.solo;
    app.ui.relayout = true;
    app.ui.focus_pending = true;
}

// The panels of `L` as tabs of one window at `r`.
void tab_window(App& app, const char* id, const std::vector<int>& panels, const Rect& r, bool place) {
    if (place) {
        ImGui::SetNextWindowPos(ImVec2(r.x, r.y));
        ImGui::SetNextWindowSize(ImVec2(r.w, r.h));
    }
    if (ImGui::Begin(id, nullptr, ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoTitleBar)) {
        if (ImGui::BeginTabBar("panels", ImGuiTabBarFlags_FittingPolicyScroll)) {
            for (int p : panels)
                if (ImGui::BeginTabItem(panel_title((PanelId)p))) {
                    ImGui::BeginChild("##tab");
                    kDraw[p](app);
                    fit::CheckWindow(panel_title((PanelId)p));
                    record_figure(app, p);
                    ImGui::EndChild();
                    ImGui::EndTabItem();
                }
            ImGui::EndTabBar();
        }
    }
    ImGui::End();
}

// Without --font the font follows the window in lecture mode and is the desk's default outside it;
// a change is applied before the next frame (the atlas is rebuilt between frames).
void follow_window_with_font(UiOptions& ui) {
    if (!ui.font_follows_window) return;
    // The window in pixels (the framebuffer), the font in the points build_fonts scales by the monitor.
    const ImGuiIO& io = ImGui::GetIO();
    const float fb_w = io.DisplaySize.x * io.DisplayFramebufferScale.x;
    const float fb_h = io.DisplaySize.y * io.DisplayFramebufferScale.y;
    const float scale = std::max(1.0f, ui.content_scale);
    // Clamped as build_fonts clamps it, or a monitor's large scale would ask for a rebuild every frame.
    const float want = std::clamp(ui.lecture ? (float)lecture_font_px(fb_w, fb_h) / scale : (float)kDefaultFontPx,
                                  (float)kMinFontPx, (float)kMaxFontPx);
    if (std::fabs(want - ui.font_px) < 0.5f) return;
    ui.font_px = want;
    ui.font_dirty = true;
}

void draw_frame(App& app, bool first_frame, bool* quit) {
    app.ui.status.clear();
    follow_window_with_font(app.ui);
    const bool compact = compact_charts(app.ui.lecture, ImGui::GetFontSize(), ImGui::GetIO().DisplaySize.y);
    if (compact != app.ui.compact_charts) {
        app.ui.compact_charts = compact;
        app.rebuild_opb();  // the chart's labels follow (opb_view's compact)
    }
    if (!app.ui.lecture) main_menu(app, quit);
    open_dialog(app, first_frame);  // a modal: on top whatever the order; first, so what it opens is laid out now
    if (!ImGui::GetIO().WantTextInput) {
        if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_PageDown))) present_next(app, +1);
        if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_PageUp))) present_next(app, -1);
        if (LetterPressed('L')) set_lecture(app, !app.ui.lecture);
    }
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    Rect area{vp->WorkPos.x, vp->WorkPos.y, vp->WorkSize.x, vp->WorkSize.y};
    Rect status{};
    if (app.ui.lecture) {  // the status line's small font, one line, at the bottom
        const float h = std::round((g_small_font ? g_small_font->FontSize : ImGui::GetFontSize()) + 6);
        status = {area.x, area.y + area.h - h, area.w, h};
        area.h -= h;
    }
    const PanelLayout L = panel_layout(std::vector<bool>(app.ui.open, app.ui.open + kPanels), area, ImGui::GetFontSize());
    const bool place = app.ui.relayout || app.ui.lecture;
    const char* mode = to_string(L.mode);
    if (L.mode == LayoutMode::split) {  // the stepper beside the others' tabs
        panel_window(app, L.panels[0], place ? &L.rects[0] : nullptr, false);
        tab_window(app, "stencil-lab##others", std::vector<int>(L.panels.begin() + 1, L.panels.end()), L.rects[1], place);
    } else if (L.mode == LayoutMode::tabs) {
        // One window, the panels as tabs: a grid would leave each panel too small at this font.
        tab_window(app, "stencil-lab", L.panels, area, place);
    } else {
        for (size_t i = 0; i < L.panels.size(); ++i) {
            const int p = L.panels[i];
            const Rect* r = place ? (L.mode == LayoutMode::solo ? &L.rects[0] : &L.rects[i]) : nullptr;
            panel_window(app, p, r, (first_frame || app.ui.focus_pending) && app.ui.solo == p);
        }
    }
    if (app.ui.lecture) status_line(app, status);
    app.ui.focus_pending = false;
    app.ui.relayout = false;
    if (app.recording) {
        (*app.drawn)["layout"] = mode;
        (*app.drawn)["lecture"] = app.ui.lecture;
        const auto& d = app.open_dialog;
        (*app.drawn)["file_open"] = {{"kind", to_string(d.kind)}, {"shown", ImGui::IsPopupOpen(kOpenPopup)},
                                  {"folder", d.listing.folder}, {"entries", d.listing.entries.size()},
                                  {"path", d.path}, {"opened", d.opened}, {"message", d.message}};
    }
}

}  // namespace stencil::viewer
