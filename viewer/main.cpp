// stencil-lab-viewer: Dear ImGui + GLFW + OpenGL3. A numbered walk-through in the manner of imgui's
// examples/example_glfw_opengl3/main.cpp.
//
//   stencil-lab-viewer                                  the window (all panels)
//   stencil-lab-viewer --panel stepper                  one panel filling the window
//   stencil-lab-viewer --check FILE.cu --exercise E     grade a submission in the check panel
//   stencil-lab-viewer --screenshot f.png [--panel P] [--frames N] [--size WxH]
//   stencil-lab-viewer --headless-report                no display needed: the model table and
//                                                       a checked run of each kernel
//   stencil-lab-viewer --check-image f.png --size WxH [--expect '/opb/radius=1' ...]
//                                                       the screenshot test's checker (image + sidecar)
//   state: --kernel K --tile T --radius R --precision f32|f64 --grid N --block X,Y,Z --step K
//          (negative: from the last step) --halo-2d --load results.json
//
// With --screenshot, the viewer also writes f.png.json: what each panel drew (series and point
// counts, the step, counts), so a test can tell a real figure from a blank or error window.
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

#include <time.h>

#include <cfloat>
#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/error.h"
#include "checker/exercises.h"
#include "viewer/app.h"
#include "viewer/core/measure.h"
#include "viewer/core/report.h"
#include "viewer/panels.h"
#include "viewer/screenshot.h"

using namespace stencil;
using namespace stencil::viewer;

namespace {

void glfw_error(int code, const char* text) { std::fprintf(stderr, "GLFW error %d: %s\n", code, text); }

// A window of at most 8192 pixels a side (an X server refuses larger ones with a raw BadValue).
bool parse_size(const std::string& s, int* w, int* h) {
    char rest = 0;
    return std::sscanf(s.c_str(), "%dx%d%c", w, h, &rest) == 2 && *w >= 200 && *h >= 150 && *w <= 8192 && *h <= 8192;
}

// The main thread's CPU time (ms): the viewer's own work per frame, apart from the GPU (or, under
// Xvfb, llvmpipe's threads) rasterising.
double thread_cpu_ms() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

// One --expect of the screenshot test: "/json/pointer=value" (the value's JSON text, or the
// string itself), "/pointer>=number", or "/pointer~text" (the value's JSON text contains text).
bool check_expect(const nlohmann::json& j, const std::string& e, std::string* why) {
    size_t at = e.find('~');
    std::string op = "~";
    for (const char* o : {">=", "="}) {
        const size_t p = e.find(o);
        if (p != std::string::npos && (at == std::string::npos || p < at)) at = p, op = o;
    }
    if (at == std::string::npos) return *why = "bad --expect '" + e + "' (POINTER=V, POINTER>=N, POINTER~TEXT)", false;
    const std::string ptr = e.substr(0, at), want = e.substr(at + op.size());
    nlohmann::json v;
    try {
        v = j.at(nlohmann::json::json_pointer(ptr));
    } catch (const std::exception&) {
        return *why = ptr + ": not in the sidecar (the panel did not draw it)", false;
    }
    const std::string text = v.is_string() ? v.get<std::string>() : v.dump();
    bool ok = false;
    if (op == "=") ok = text == want;
    else if (op == "~") ok = text.find(want) != std::string::npos;
    else ok = v.is_number() && v.get<double>() >= std::atof(want.c_str());
    if (!ok) *why = ptr + " is " + text.substr(0, 300) + ", expected " + op + " " + want;
    return ok;
}

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
    // Applied on release: each rebuild of the atlas re-lays the windows out.
    ImGui::SliderFloat("font px", &app.ui.font_px, 12, 48, "%.0f");
    if (ImGui::IsItemDeactivatedAfterEdit()) app.ui.font_dirty = true;
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
    bool headless = false, halo_2d = false;
    std::string kernel_name, precision_name, block_text, load_path;
    std::vector<std::string> expects;
    int tile = 0, radius = 0, grid = 0, step = 0;
    bool step_given = false;
    cli.add_option("--screenshot", screenshot, "render, write the window to this PNG and exit");
    cli.add_option("--panel", panel, "show only this panel: stepper, opb, halos, coalescing, runs, check");
    auto* frames_opt =
        cli.add_option("--frames", frames, "frames to render before the screenshot (needs --screenshot)")
            ->check(CLI::Range(1, 10000));
    cli.add_option("--size", size_text, "window size WxH");
    cli.add_flag("--headless-report", headless, "print the model of the four kernels and a checked run of each on the best backend, then exit (no display needed)");
    cli.add_option("--check-image", check_image, "check that a PNG has --size and is not blank (for ctest)");
    cli.add_option("--expect", expects,
                   "with --check-image: a fact of the PNG's sidecar f.png.json: /pointer=value, /pointer>=n, /pointer~text");
    cli.add_option("--kernel", kernel_name, "stepper kernel: naive, tiled, coarsened, register-tiled");
    cli.add_option("--tile", tile, "stepper and halos tile edge T")->check(CLI::Range(1, 64));
    cli.add_option("--radius", radius, "stencil radius r (stepper, OP/B, halos)")->check(CLI::Range(1, kMaxRadius));
    cli.add_option("--precision", precision_name, "f32 or f64 (stepper and OP/B)")->check(CLI::IsMember({"f32", "f64"}));
    cli.add_option("--grid", grid, "stepper grid N (N^3 cells)")->check(CLI::Range(3, 256));
    cli.add_option("--block", block_text, "stepper block X,Y,Z (blockIdx)");
    auto* step_opt = cli.add_option("--step", step, "stepper step (negative: counted back from the last, -1 = last)");
    cli.add_flag("--halo-2d", halo_2d, "halos panel in 2D");
    cli.add_option("--load", load_path, "load a results.json (stencil-lab sweep) into the runs table");
    std::string check_path, check_exercise = "find-the-race", check_backend = "auto";
    cli.add_option("--check", check_path, "check this .cu submission in the check panel (opens it)");
    cli.add_option("--exercise", check_exercise, "the exercise --check grades against")
        ->check([](const std::string& e) {
            return checker::find_exercise(e) ? std::string() : "one of: " + checker::exercise_names();
        });
    cli.add_option("--check-backend", check_backend, "auto, cuda or cpu (--check)")
        ->check(CLI::IsMember({"auto", "cuda", "cpu"}));
    CLI11_PARSE(cli, argc, argv);
    step_given = step_opt->count() > 0;
    if (frames_opt->count() && screenshot.empty()) {
        std::fprintf(stderr, "stencil-lab-viewer: --frames needs --screenshot\n");
        return 2;
    }
    int width = 0, height = 0;
    if (!parse_size(size_text, &width, &height)) {
        std::fprintf(stderr, "stencil-lab-viewer: --size %s is not WxH with 200..8192 x 150..8192\n", size_text.c_str());
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
        bool ok = s.error.empty() && s.width == width && s.height == height && s.variance > 100;
        std::printf("%s: %dx%d, luminance mean %.1f variance %.1f%s%s\n", check_image.c_str(), s.width, s.height, s.mean,
                    s.variance, s.error.empty() ? "" : ", ", s.error.c_str());
        // The sidecar: what the panels drew. A blank or error window has not drawn these facts.
        if (!expects.empty()) {
            nlohmann::json side;
            std::ifstream in(check_image + ".json");
            try {
                in >> side;
            } catch (const std::exception& e) {
                std::printf("%s.json: %s\n", check_image.c_str(), e.what());
                return 1;
            }
            for (const auto& e : expects) {
                std::string why;
                const bool good = check_expect(side, e, &why);
                std::printf("  %s %s%s%s\n", good ? "ok  " : "FAIL", e.c_str(), good ? "" : ": ", why.c_str());
                ok = ok && good;
            }
        }
        return ok ? 0 : 1;
    }
    if (headless) {
        std::fputs(headless_report().c_str(), stdout);
        std::string why;
        auto backend = make_backend("auto", &why);
        if (!backend) return 0;
        bool ok = true;
        try {
            std::fputs(headless_runs(*backend, 0, ok).c_str(), stdout);
        } catch (const UserError& e) {
            std::fprintf(stderr, "stencil-lab-viewer: %s\n", e.what());
            return 2;
        }
        return ok ? 0 : 1;
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
    glfwSetWindowUserPointer(window, &app);
    // High-DPI: a window moved to a monitor of another scale gets fonts of that scale.
    glfwSetWindowContentScaleCallback(window, [](GLFWwindow* w, float x, float) {
        auto* a = static_cast<App*>(glfwGetWindowUserPointer(w));
        a->ui.content_scale = std::max(1.0f, x);
        a->ui.font_dirty = true;
    });
    // The state flags: the stepper's experiment, the OP/B chart, the halos panel, a results file.
    {
        StepperConfig c = app.exp.cfg;
        if (!kernel_name.empty()) {
            const auto* v = find_version(kernel_name);
            if (!v) {
                std::fprintf(stderr, "stencil-lab-viewer: unknown kernel '%s'\n", kernel_name.c_str());
                return 2;
            }
            c.kernel = v->id;
        }
        if (tile) c.tile = app.halo.tile = tile;
        if (radius) c.radius = app.opb.radius = app.halo.radius = radius;
        if (!precision_name.empty())
            c.precision = app.opb.precision = precision_name == "f64" ? Precision::f64 : Precision::f32;
        if (grid) c.dims = {grid, grid, grid};
        if (!block_text.empty() && std::sscanf(block_text.c_str(), "%d,%d,%d", &c.block.x, &c.block.y, &c.block.z) != 3) {
            std::fprintf(stderr, "stencil-lab-viewer: --block %s is not X,Y,Z\n", block_text.c_str());
            return 2;
        }
        if (halo_2d) app.halo.dims = 2;
        app.halo.tile = std::max(app.halo.tile, 2 * app.halo.radius + 1);
        if (step_given) app.exp.step_after_trace = step;  // applied when the trace arrives
        if (!(c == app.exp.cfg)) app.set_config(c);
        // --screenshot shows real content: wait for the trace (the window is not up for anyone yet).
        if (!screenshot.empty()) app.finish_trace();
        app.rebuild_opb();
        app.rebuild_halos();
        if (!check_path.empty()) {  // --check: open the check panel and grade the file
            std::snprintf(app.check.path, sizeof app.check.path, "%s", check_path.c_str());
            const auto exs = checker::exercises();
            for (int i = 0; i < (int)exs.size(); ++i)
                if (check_exercise == exs[i].name) app.check.exercise = i;
            app.check.backend = check_backend == "cuda" ? 1 : check_backend == "cpu" ? 2 : 0;
            app.ui.open[(int)PanelId::check] = true;
            app.start_check();
            if (!screenshot.empty()) app.finish_check();
        }
        if (!load_path.empty()) {
            std::snprintf(app.runs.path, sizeof app.runs.path, "%s", load_path.c_str());
            if (!app.load_results_file()) {
                std::fprintf(stderr, "stencil-lab-viewer: %s\n", app.runs.message.c_str());
                return 2;
            }
        }
    }
    app.recording = !screenshot.empty();
    double frame_ms_sum = 0, work_ms_sum = 0;
    int settle = 3;  // frames to draw after an event before waiting again (ImGui settles in 1-2)

    // 6. Main loop ----------------------------------------------------------------------------------
    bool quit = false;
    int frame = 0, rc = 0;
    while (!glfwWindowShouldClose(window) && !quit) {
        if (glfwGetWindowAttrib(window, GLFW_ICONIFIED)) {  // sleep while iconified
            glfwWaitEvents();
            continue;
        }
        // Idle: wait for an event instead of redrawing at 60 fps (a run or trace in flight keeps
        // polling for its progress; a screenshot renders its frames back to back).
        if (!screenshot.empty() || app.busy() || settle > 0) {
            glfwPollEvents();
            if (settle > 0) --settle;
        } else {
            const double t0 = glfwGetTime();
            glfwWaitEventsTimeout(1.0);
            if (glfwGetTime() - t0 < 0.99) settle = 3;  // woken by an event: let ImGui settle
        }
        app.poll();  // finished background work only
        if (app.ui.font_dirty) {
            build_fonts(app.ui);
            app.ui.relayout = true;  // window sizes and the menu bar's height follow the font
            settle = 3;
        }
        if (frame == 1) app.ui.relayout = true;  // frame 0 ran before the menu bar set WorkPos
        const auto wall0 = std::chrono::steady_clock::now();
        const double cpu0 = thread_cpu_ms();
        if (app.recording) app.drawn = nlohmann::json::object();

        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplGlfw_NewFrame();
        // --screenshot: no pointer (Xvfb parks it mid-screen, where it raised tooltips in the PNGs).
        if (!screenshot.empty()) ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
        ImGui::NewFrame();
        if (ImGui::GetIO().KeyCtrl && glfwGetKey(window, GLFW_KEY_Q) == GLFW_PRESS) quit = true;

        main_menu(app, &quit);
        const ImGuiViewport* vp = ImGui::GetMainViewport();
        using DrawFn = void (*)(App&);
        const DrawFn draw[kPanels] = {draw_stepper_panel, draw_opb_panel,     draw_halos_panel,
                                      draw_coalescing_panel, draw_runs_panel, draw_check_panel};
        for (int p = 0; p < kPanels; ++p) {
            if (!app.ui.open[p]) continue;
            if (app.ui.relayout) place(app, p, vp->WorkPos, vp->WorkSize);
            // Focus the solo panel once: focusing it every frame closes its combos' popups.
            if (app.ui.solo == p && frame == 0) ImGui::SetNextWindowFocus();
            if (ImGui::Begin(panel_title((PanelId)p), &app.ui.open[p], ImGuiWindowFlags_NoCollapse)) draw[p](app);
            ImGui::End();
        }
        app.ui.relayout = false;

        ImGui::Render();
        const double work_ms = thread_cpu_ms() - cpu0;
        int fw, fh;
        glfwGetFramebufferSize(window, &fw, &fh);
        glViewport(0, 0, fw, fh);
        glClearColor(0.08f, 0.09f, 0.11f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
        if (!screenshot.empty()) glFinish();  // --screenshot: count the rasterising in the frame time
        frame_ms_sum += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - wall0).count();
        work_ms_sum += work_ms;

        if (!screenshot.empty() && ++frame >= frames) {
            std::printf("frames %d, mean frame ms %.2f (CPU time of the viewer's own work %.2f ms: NewFrame to Render)\n",
                        frame, frame_ms_sum / frame, work_ms_sum / frame);
            std::ofstream side(screenshot + ".json");
            side << app.drawn.dump(1) << "\n";
            std::string why;
            if (!save_framebuffer_png(screenshot, fw, fh, &why)) {
                std::fprintf(stderr, "stencil-lab-viewer: %s\n", why.c_str());
                rc = 1;
            } else {
                std::printf("wrote %s (%dx%d)\n", screenshot.c_str(), fw, fh);
            }
            break;
        }
        if (screenshot.empty()) ++frame;
        glfwSwapBuffers(window);
    }

    // 7. Cleanup ------------------------------------------------------------------------------------
    app.runs.runner.cancel();
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    glfwDestroyWindow(window);
    glfwTerminate();
    // A check still running (the check panel): its future would block here until the child's time
    // limit. Leave at once instead: the checker's child dies with this process (PR_SET_PDEATHSIG);
    // its temporary folder in /tmp stays.
    if (app.check.checking.valid() &&
        app.check.checking.wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
        std::fprintf(stderr, "stencil-lab-viewer: quit while a check was running; it was stopped\n");
        std::fflush(nullptr);
        std::_Exit(rc);
    }
    return rc;
}
