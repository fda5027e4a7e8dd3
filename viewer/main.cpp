// stencil-lab-viewer: Dear ImGui + GLFW + OpenGL3. A numbered walk-through in the manner of imgui's
// examples/example_glfw_opengl3/main.cpp.
//
//   stencil-lab-viewer                                  the window (all panels)
//   stencil-lab-viewer --present stepper                one panel fills the window (Page Down / Up:
//                                                       next / previous panel)
//   stencil-lab-viewer --font 32 --window 1024x768      projector sizes (14..40 px, 1024x768..4K)
//   stencil-lab-viewer --check FILE.cu --exercise E     grade a submission in the check panel
//   stencil-lab-viewer --screenshot f.png [--frames N]  write the window and f.png.json (what each
//                                                       panel drew, and clipped_items) and exit
//   stencil-lab-viewer --headless-report                no display needed
//   state: --kernel K --tile T --radius R --precision f32|f64 --grid N --block X,Y,Z --step K
//          (negative: from the last step) --halo-2d --load results.json
//
// The options are parsed in options.cpp, the frame (menu, layout, panels) drawn by frame.cpp, the
// panels in panel_*.cpp. The screenshot tests' checker is its own tool (tests/viewer/image_check.cpp).
//
// [SECTION] index: 1 options, 2 headless, 3 GLFW window, 4 ImGui, 5 state, 6 main loop, 7 cleanup.
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <GL/gl.h>

#include <time.h>

#include <cfloat>
#include <cmath>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "checker/exercises.h"
#include "viewer/app.h"
#include "viewer/core/exercise_guess.h"
#include "viewer/core/student_trace.h"
#include "viewer/fit.h"
#include "viewer/frame.h"
#include "viewer/headless.h"
#include "viewer/options.h"
#include "viewer/screenshot.h"

using namespace stencil;
using namespace stencil::viewer;

namespace {

void glfw_error(int code, const char* text) { std::fprintf(stderr, "GLFW error %d: %s\n", code, text); }

// The main thread's CPU time (ms): the viewer's own work per frame, apart from the GPU (or, under
// Xvfb, llvmpipe's threads) rasterising.
double thread_cpu_ms() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

// The command line's state flags into the App: the stepper's experiment, OP/B, halos, a check, a
// results file. Returns an exit code on bad input, else nullopt.
std::optional<int> apply_state(App& app, const ViewerOptions& o) {
    StepperConfig c = app.exp.cfg;
    if (!o.kernel.empty()) {
        const auto* v = find_version(o.kernel);
        if (!v) {
            std::fprintf(stderr, "stencil-lab-viewer: unknown kernel '%s'\n", o.kernel.c_str());
            return 2;
        }
        c.kernel = v->id;
    }
    if (o.tile) c.tile = app.halo.tile = o.tile;
    if (o.radius) c.radius = app.opb.radius = app.halo.radius = o.radius;
    if (!o.precision.empty())
        c.precision = app.opb.precision = o.precision == "f64" ? Precision::f64 : Precision::f32;
    if (o.grid) c.dims = {o.grid, o.grid, o.grid};
    if (!o.block.empty() && std::sscanf(o.block.c_str(), "%d,%d,%d", &c.block.x, &c.block.y, &c.block.z) != 3) {
        std::fprintf(stderr, "stencil-lab-viewer: --block %s is not X,Y,Z\n", o.block.c_str());
        return 2;
    }
    if (!o.block_shape.empty()) {
        c.block_shape = parse_block(o.block_shape);
        if (!c.block_shape || !version(c.kernel).takes_block) {
            std::fprintf(stderr, "stencil-lab-viewer: --block-shape %s: %s\n", o.block_shape.c_str(),
                         c.block_shape ? "only naive takes a block shape" : "not BXxBYxBZ");
            return 2;
        }
    }
    if (auto z = parse_zoom(o.zoom)) app.exp.zoom = *z;
    app.exp.thread = o.thread;
    if (!o.kernel_file.empty()) {  // a student's kernel in the stepper, for --exercise or the one it suggests
        c.kernel_file = o.kernel_file;
        c.exercise = o.check_exercise;
        if (c.exercise.empty()) {
            std::vector<std::string> names;
            for (const auto& e : checker::exercises()) names.push_back(e.name);
            const auto g = guess_exercise(o.kernel_file, read_header(o.kernel_file), names);
            if (!g) {
                std::fprintf(stderr, "stencil-lab-viewer: --kernel-file %s: say which exercise it is for (--exercise)\n",
                             o.kernel_file.c_str());
                return 2;
            }
            c.exercise = g->name;
        }
        if (auto why = resolve_student_config(c); !why.empty()) {
            std::fprintf(stderr, "stencil-lab-viewer: --kernel-file: %s\n", why.c_str());
            return 2;
        }
    }
    if (o.halo_2d) app.halo.dims = 2;
    app.opb.show_roofline = o.roofline;
    if (o.halo_slice >= 0) app.halo.slice = o.halo_slice;
    app.halo.tile = std::max(app.halo.tile, 2 * app.halo.radius + 1);
    if (o.step) app.exp.step_after_trace = *o.step;  // applied when the trace arrives
    if (!(c == app.exp.cfg)) app.set_config(c);
    // --screenshot shows real content: wait for the trace (the window is not up for anyone yet).
    if (!o.screenshot.empty()) app.finish_trace();
    app.rebuild_opb();
    app.rebuild_halos();
    if (!o.check_path.empty()) {  // --check: open the check panel and grade the file
        std::snprintf(app.check.path, sizeof app.check.path, "%s", o.check_path.c_str());
        app.set_check_path(o.check_exercise.empty());  // no --exercise: the one the file suggests
        const auto exs = checker::exercises();
        for (int i = 0; i < (int)exs.size(); ++i)
            if (o.check_exercise == exs[i].name) app.check.exercise = i;
        app.check.backend = o.check_backend == "cuda" ? 1 : o.check_backend == "cpu" ? 2 : 0;
        if (o.present < 0) app.ui.open[(int)PanelId::check] = true;
        app.start_check();
        if (!o.screenshot.empty()) app.finish_check();
    }
    if (!o.load.empty()) {
        std::snprintf(app.runs.path, sizeof app.runs.path, "%s", o.load.c_str());
        if (!app.load_results_file()) {
            std::fprintf(stderr, "stencil-lab-viewer: %s\n", app.runs.message.c_str());
            return 2;
        }
    }
    return std::nullopt;
}

// 3. A GLFW window with an OpenGL 3.3 core context; nullptr (the reason printed) when there is none.
GLFWwindow* open_window(const ViewerOptions& opt, bool shot) {
    if (!glfwInit()) {
        std::fprintf(stderr, "stencil-lab-viewer: no display (glfwInit failed); run with --headless-report for the "
                             "text report\n");
        return nullptr;
    }
    glfwSetErrorCallback(glfw_error);  // after init: without a display the message above is the one line
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);    // high-DPI monitors get a larger window
    if (shot) glfwWindowHint(GLFW_RESIZABLE, GLFW_FALSE);
    GLFWwindow* window = glfwCreateWindow(opt.window_w, opt.window_h, "stencil-lab viewer", nullptr, nullptr);
    if (!window) {
        std::fprintf(stderr, "stencil-lab-viewer: cannot create an OpenGL 3.3 window\n");
        glfwTerminate();
        return nullptr;
    }
    glfwMakeContextCurrent(window);
    glfwSwapInterval(shot ? 0 : 1);                      // vsync: 60 fps, no busy loop
    return window;
}

// 4. Dear ImGui: context and backends.
void start_imgui(GLFWwindow* window) {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
    io.IniFilename = nullptr;                            // the layout is computed; nothing to remember
    ImGui_ImplGlfw_InitForOpenGL(window, true);
    ImGui_ImplOpenGL3_Init("#version 330");
}

// 5. The App's view of the window: its content scale, the font, a presented panel, and the
// callbacks that keep fonts and layout following the window.
void attach_app(App& app, GLFWwindow* window, const ViewerOptions& opt) {
    float sx = 1, sy = 1;
    glfwGetWindowContentScale(window, &sx, &sy);
    app.ui.content_scale = std::max(1.0f, sx);
    app.ui.font_px = (float)opt.font_px;
    if (opt.present >= 0) {
        for (int p = 0; p < kPanels; ++p) app.ui.open[p] = p == opt.present;
        app.ui.solo = opt.present;
    }
    glfwSetWindowUserPointer(window, &app);
    // High-DPI: a window moved to a monitor of another scale gets fonts of that scale.
    glfwSetWindowContentScaleCallback(window, [](GLFWwindow* w, float x, float) {
        auto* a = static_cast<App*>(glfwGetWindowUserPointer(w));
        a->ui.content_scale = std::max(1.0f, x);
        a->ui.font_dirty = true;
    });
    glfwSetWindowSizeCallback(window, [](GLFWwindow* w, int, int) {  // the layout follows the window
        static_cast<App*>(glfwGetWindowUserPointer(w))->ui.relayout = true;
    });
}

// Idle: wait for an event instead of redrawing at 60 fps (a run or trace in flight keeps polling
// for its progress; a screenshot renders its frames back to back). `settle`: frames to draw after
// an event before waiting again (ImGui settles in 1-2).
void wait_for_events(const App& app, bool shot, int& settle) {
    if (shot || app.busy() || settle > 0) {
        glfwPollEvents();
        if (settle > 0) --settle;
    } else {
        const double t0 = glfwGetTime();
        glfwWaitEventsTimeout(1.0);
        if (glfwGetTime() - t0 < 0.99) settle = 3;  // woken by an event: let ImGui settle
    }
}

struct FrameTimes {
    double frame_ms_sum = 0, work_ms_sum = 0;
};

// One frame: the panels into ImGui's draw lists, then onto the framebuffer (its size in fw, fh).
void draw_one_frame(GLFWwindow* window, App& app, bool shot, int frame, bool& quit, FrameTimes& times, int& fw,
                    int& fh) {
    const auto wall0 = std::chrono::steady_clock::now();
    const double cpu0 = thread_cpu_ms();
    if (app.recording) app.drawn = nlohmann::json::object();
    fit::begin_frame();

    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    // --screenshot: no pointer (Xvfb parks it mid-screen, where it raised tooltips in the PNGs).
    if (shot) ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
    ImGui::NewFrame();
    if (ImGui::GetIO().KeyCtrl && glfwGetKey(window, GLFW_KEY_Q) == GLFW_PRESS) quit = true;
    draw_frame(app, frame == 0, &quit);
    ImGui::Render();

    const double work_ms = thread_cpu_ms() - cpu0;
    glfwGetFramebufferSize(window, &fw, &fh);
    glViewport(0, 0, fw, fh);
    glClearColor(0.08f, 0.09f, 0.11f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    if (shot) glFinish();  // --screenshot: count the rasterising in the frame time
    times.frame_ms_sum += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - wall0).count();
    times.work_ms_sum += work_ms;
}

// --screenshot's end: the frame times, the sidecar JSON and the PNG. Returns the exit code.
int finish_screenshot(App& app, const ViewerOptions& opt, int frame, const FrameTimes& times, int fw, int fh) {
    std::printf("frames %d, mean frame ms %.2f (CPU time of the viewer's own work %.2f ms: NewFrame to Render)\n",
                frame, times.frame_ms_sum / frame, times.work_ms_sum / frame);
    // The last frame's facts: what each panel drew, and the text items that did not fit.
    app.drawn["clipped_items"] = fit::clipped_count();
    nlohmann::json clips = nlohmann::json::array();
    for (const auto& c : fit::clipped())
        clips.push_back({{"text", c.text}, {"where", c.where}, {"overflow_px", c.overflow_px}});
    app.drawn["clipped"] = clips;
    app.drawn["font_px"] = (int)std::lround(ImGui::GetFontSize());
    app.drawn["window"] = {fw, fh};
    std::ofstream side(opt.screenshot + ".json");
    side << app.drawn.dump(1) << "\n";
    std::string why;
    if (!save_framebuffer_png(opt.screenshot, fw, fh, &why)) {
        std::fprintf(stderr, "stencil-lab-viewer: %s\n", why.c_str());
        return 1;
    }
    std::printf("wrote %s (%dx%d), %d clipped text items\n", opt.screenshot.c_str(), fw, fh, fit::clipped_count());
    return 0;
}

// 7. Cleanup. Returns the exit code, or leaves at once when a check is still running: its future
// would block here until the child's time limit. The checker's child dies with this process
// (PR_SET_PDEATHSIG); its temporary folder in /tmp stays.
int clean_up(App& app, GLFWwindow* window, int rc) {
    app.runs.runner.cancel();
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    glfwDestroyWindow(window);
    glfwTerminate();
    if (app.check.checking.valid() &&
        app.check.checking.wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
        std::fprintf(stderr, "stencil-lab-viewer: quit while a check was running; it was stopped\n");
        std::fflush(nullptr);
        std::_Exit(rc);
    }
    return rc;
}

}  // namespace

int main(int argc, char** argv) {
    // 1. Options ---------------------------------------------------------------------------------
    ViewerOptions opt;
    if (auto rc = parse_options(argc, argv, opt)) return *rc;
    const bool shot = !opt.screenshot.empty();

    // 2. Without a window: the headless report ------------------------------------------------------
    if (opt.headless) return run_headless_report();

    // 3. GLFW window with an OpenGL 3.3 core context -----------------------------------------------
    GLFWwindow* window = open_window(opt, shot);
    if (!window) return 1;

    // 4. Dear ImGui: context and backends -----------------------------------------------------------
    start_imgui(window);

    // 5. State: the stepper's first trace, the model's curves (computed once, here) ---------------
    App app;
    std::error_code ec;
    app.init(std::filesystem::canonical("/proc/self/exe", ec).parent_path().string());
    attach_app(app, window, opt);
    if (auto rc = apply_state(app, opt)) return *rc;
    app.recording = shot;
    FrameTimes times;
    int settle = 3;  // frames to draw after an event before waiting again

    // 6. Main loop ----------------------------------------------------------------------------------
    bool quit = false;
    int frame = 0, rc = 0;
    while (!glfwWindowShouldClose(window) && !quit) {
        if (glfwGetWindowAttrib(window, GLFW_ICONIFIED)) {  // sleep while iconified
            glfwWaitEvents();
            continue;
        }
        wait_for_events(app, shot, settle);
        app.poll();  // finished background work only
        if (app.ui.font_dirty) {
            build_fonts(app.ui);
            app.ui.relayout = true;  // window sizes and the menu bar's height follow the font
            settle = 3;
        }
        if (frame == 1) app.ui.relayout = true;  // frame 0 ran before the menu bar set WorkPos
        int fw = 0, fh = 0;
        draw_one_frame(window, app, shot, frame, quit, times, fw, fh);
        if (shot && ++frame >= opt.frames) {
            rc = finish_screenshot(app, opt, frame, times, fw, fh);
            break;
        }
        if (!shot) ++frame;
        glfwSwapBuffers(window);
    }

    // 7. Cleanup ------------------------------------------------------------------------------------
    return clean_up(app, window, rc);
}
