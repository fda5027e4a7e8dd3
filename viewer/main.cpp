// stencil-lab-viewer: Dear ImGui + GLFW + OpenGL3. A numbered walk-through in the manner of imgui's
// examples/example_glfw_opengl3/main.cpp.
//
//   stencil-lab-viewer                                  the window (all panels)
//   stencil-lab-viewer --panel stepper                  one panel filling the window
//   stencil-lab-viewer --screenshot f.png [--panel P] [--frames N] [--size WxH]
//   stencil-lab-viewer --headless-report                no display needed: the model table
//   stencil-lab-viewer --check-image f.png --size WxH   the screenshot test's checker
//
// [SECTION] index: 1 options, 2 headless, 3 GLFW window, 4 ImGui and fonts, 5 state, 6 main
// loop (layout, panels, screenshot), 7 cleanup. Panels: panel_stepper.cpp, panel_opb.cpp,
// panel_halos.cpp, panel_coalescing.cpp, panel_runs.cpp.
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <GL/gl.h>

#include <CLI/CLI.hpp>

#include <cstdio>
#include <filesystem>
#include <string>

#include "viewer/app.h"
#include "viewer/core/measure.h"
#include "viewer/core/report.h"
#include "viewer/panels.h"
#include "viewer/screenshot.h"

using namespace stencil::viewer;

namespace {

void glfw_error(int code, const char* text) { std::fprintf(stderr, "GLFW error %d: %s\n", code, text); }

bool parse_size(const std::string& s, int* w, int* h) { return std::sscanf(s.c_str(), "%dx%d", w, h) == 2 && *w > 0 && *h > 0; }

// The fonts: DejaVu Sans (crisp at projector sizes) when installed, else ImGui's own font scaled.
void build_fonts(UiOptions& ui) {
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts->Clear();
    const float px = ui.font_px * ui.content_scale;
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
    style.ScaleAllSizes(px / 13.0f * 0.8f);
    style.WindowRounding = 0;
    ImGui::GetStyle() = style;
    ui.font_dirty = false;
}

void main_menu(App& app, bool* quit) {
    if (!ImGui::BeginMainMenuBar()) return;
    if (ImGui::BeginMenu("View")) {
        for (int p = 0; p < kPanels; ++p)
            if (ImGui::MenuItem(panel_title((PanelId)p), nullptr, &app.ui.open[p])) app.ui.relayout = true;
        ImGui::Separator();
        if (ImGui::MenuItem("Arrange windows")) app.ui.relayout = true;
        if (ImGui::MenuItem("Quit", "Ctrl+Q")) *quit = true;
        ImGui::EndMenu();
    }
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
    if (ImGui::SliderFloat("font px", &app.ui.font_px, 12, 48, "%.0f")) app.ui.font_dirty = true;
    ImGui::TextDisabled("  stencil-lab viewer    %.0f fps", ImGui::GetIO().Framerate);
    ImGui::EndMainMenuBar();
}

// Window rectangles for the open panels: the stepper takes the left half, the others share the
// right half in a grid; a single panel fills the viewport.
void place(App& app, int p, ImVec2 origin, ImVec2 size) {
    std::vector<int> open;
    for (int i = 0; i < kPanels; ++i)
        if (app.ui.open[i]) open.push_back(i);
    if (open.size() == 1) {
        ImGui::SetNextWindowPos(origin);
        ImGui::SetNextWindowSize(size);
        return;
    }
    const bool stepper = app.ui.open[0];
    std::vector<int> rest;
    for (int i : open)
        if (i != 0 || !stepper) rest.push_back(i);
    const float left = stepper ? size.x * 0.5f : 0;
    if (p == 0 && stepper) {
        ImGui::SetNextWindowPos(origin);
        ImGui::SetNextWindowSize(ImVec2(left, size.y));
        return;
    }
    const int idx = (int)(std::find(rest.begin(), rest.end(), p) - rest.begin());
    const int cols = rest.size() > 2 ? 2 : 1, rows = ((int)rest.size() + cols - 1) / cols;
    const float w = (size.x - left) / cols, h = size.y / rows;
    ImGui::SetNextWindowPos(ImVec2(origin.x + left + (idx % cols) * w, origin.y + (idx / cols) * h));
    ImGui::SetNextWindowSize(ImVec2(w, h));
}

}  // namespace

int main(int argc, char** argv) {
    // 1. Options ---------------------------------------------------------------------------------
    CLI::App cli{"stencil-lab-viewer: step through the four stencil kernels; OP/B, halos, coalescing, runs"};
    std::string screenshot, panel, size_text = "1600x1000", check_image;
    int frames = 4;
    bool headless = false;
    cli.add_option("--screenshot", screenshot, "render, write the window to this PNG and exit");
    cli.add_option("--panel", panel, "show only this panel: stepper, opb, halos, coalescing, runs");
    cli.add_option("--frames", frames, "frames to render before the screenshot")->check(CLI::Range(1, 10000));
    cli.add_option("--size", size_text, "window size WxH");
    cli.add_flag("--headless-report", headless, "print the model of the four kernels and exit (no display needed)");
    cli.add_option("--check-image", check_image, "check that a PNG has --size and is not blank (for ctest)");
    CLI11_PARSE(cli, argc, argv);
    int width = 0, height = 0;
    if (!parse_size(size_text, &width, &height)) {
        std::fprintf(stderr, "stencil-lab-viewer: --size %s is not WxH\n", size_text.c_str());
        return 2;
    }
    int solo = -1;
    if (!panel.empty()) {
        for (int p = 0; p < kPanels; ++p)
            if (panel == panel_name((PanelId)p)) solo = p;
        if (solo < 0) {
            std::fprintf(stderr, "stencil-lab-viewer: unknown panel '%s' (stepper, opb, halos, coalescing, runs)\n",
                         panel.c_str());
            return 2;
        }
    }

    // 2. Without a window: the image check and the headless report --------------------------------
    if (!check_image.empty()) {
        const ImageStats s = image_stats(check_image);
        const bool ok = s.error.empty() && s.width == width && s.height == height && s.variance > 100;
        std::printf("%s: %dx%d, luminance mean %.1f variance %.1f%s%s\n", check_image.c_str(), s.width, s.height, s.mean,
                    s.variance, s.error.empty() ? "" : ", ", s.error.c_str());
        return ok ? 0 : 1;
    }
    if (headless) {
        std::fputs(headless_report().c_str(), stdout);
        return 0;
    }

    // 3. GLFW window with an OpenGL 3.3 core context -----------------------------------------------
    if (!glfwInit()) {
        std::fprintf(stderr, "stencil-lab-viewer: no display (glfwInit failed); run with --headless-report for the "
                             "text report\n");
        return 1;
    }
    glfwSetErrorCallback(glfw_error);  // after init: without a display the message above is the one line
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);  // high-DPI monitors get a larger window
    if (!screenshot.empty()) glfwWindowHint(GLFW_RESIZABLE, GLFW_FALSE);
    GLFWwindow* window = glfwCreateWindow(width, height, "stencil-lab viewer", nullptr, nullptr);
    if (!window) {
        std::fprintf(stderr, "stencil-lab-viewer: cannot create an OpenGL 3.3 window\n");
        glfwTerminate();
        return 1;
    }
    glfwMakeContextCurrent(window);
    glfwSwapInterval(screenshot.empty() ? 1 : 0);  // vsync: 60 fps, no busy loop

    // 4. Dear ImGui: context, backends, fonts at the monitor's scale --------------------------------
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
    io.IniFilename = nullptr;  // the layout is computed; nothing to remember between runs
    ImGui_ImplGlfw_InitForOpenGL(window, true);
    ImGui_ImplOpenGL3_Init("#version 330");

    // 5. State: the stepper's first trace, the model's curves (computed once, here) ---------------
    App app;
    std::error_code ec;
    app.init(std::filesystem::canonical("/proc/self/exe", ec).parent_path().string());
    float sx = 1, sy = 1;
    glfwGetWindowContentScale(window, &sx, &sy);
    app.ui.content_scale = std::max(1.0f, sx);
    if (solo >= 0)
        for (int p = 0; p < kPanels; ++p) app.ui.open[p] = p == solo;
    app.ui.solo = solo;

    // 6. Main loop ----------------------------------------------------------------------------------
    bool quit = false;
    int frame = 0, rc = 0;
    while (!glfwWindowShouldClose(window) && !quit) {
        if (glfwGetWindowAttrib(window, GLFW_ICONIFIED)) {  // sleep while iconified
            glfwWaitEvents();
            continue;
        }
        glfwPollEvents();
        app.poll();  // finished background work only
        if (app.ui.font_dirty) build_fonts(app.ui);

        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplGlfw_NewFrame();
        ImGui::NewFrame();
        if (ImGui::GetIO().KeyCtrl && glfwGetKey(window, GLFW_KEY_Q) == GLFW_PRESS) quit = true;

        main_menu(app, &quit);
        const ImGuiViewport* vp = ImGui::GetMainViewport();
        using DrawFn = void (*)(App&);
        const DrawFn draw[kPanels] = {draw_stepper_panel, draw_opb_panel, draw_halos_panel, draw_coalescing_panel,
                                      draw_runs_panel};
        for (int p = 0; p < kPanels; ++p) {
            if (!app.ui.open[p]) continue;
            if (app.ui.relayout) place(app, p, vp->WorkPos, vp->WorkSize);
            if (app.ui.solo == p && p == 0) ImGui::SetNextWindowFocus();
            if (ImGui::Begin(panel_title((PanelId)p), &app.ui.open[p], ImGuiWindowFlags_NoCollapse)) draw[p](app);
            ImGui::End();
        }
        app.ui.relayout = false;

        ImGui::Render();
        int fw, fh;
        glfwGetFramebufferSize(window, &fw, &fh);
        glViewport(0, 0, fw, fh);
        glClearColor(0.08f, 0.09f, 0.11f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());

        if (!screenshot.empty() && ++frame >= frames) {
            std::string why;
            if (!save_framebuffer_png(screenshot, fw, fh, &why)) {
                std::fprintf(stderr, "stencil-lab-viewer: %s\n", why.c_str());
                rc = 1;
            } else {
                std::printf("wrote %s (%dx%d)\n", screenshot.c_str(), fw, fh);
            }
            break;
        }
        glfwSwapBuffers(window);
    }

    // 7. Cleanup ------------------------------------------------------------------------------------
    app.runs.runner.cancel();
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    glfwDestroyWindow(window);
    glfwTerminate();
    return rc;
}
