// stencil-lab-viewer: Dear ImGui + GLFW + OpenGL3 (or, --offscreen, EGL and no window). A numbered
// walk-through in the manner of imgui's examples/example_glfw_opengl3/main.cpp.
//
//   stencil-lab-viewer                                  the window (all panels)
//   stencil-lab-viewer --present stepper                one panel fills the window (Page Down / Up:
//                                                       next / previous panel)
//   stencil-lab-viewer --font 32 --window 1024x768      projector sizes (14..40 px, 1024x768..4K)
//   stencil-lab-viewer --check FILE.cu --exercise E     grade a submission in the check panel
//                      [--check-cell X,Y,Z --check-hints N]   (a bad cell clicked, N hints shown)
//   stencil-lab-viewer --kernel-file F.cu --exercise E --beside-lab
//                                                       step a student's kernel beside the lab's
//   stencil-lab-viewer --screenshot f.png [--frames N]  write the window and f.png.json (what each
//                                                       panel drew, and clipped_items) and exit
//   stencil-lab-viewer --offscreen --screenshot f.png   the same without a window or GLFW: EGL
//                                                       draws into a framebuffer (a GPU machine)
//   stencil-lab-viewer --offscreen --open-all --frames 300 --frame-times t.json
//                                                       frame times (mean, p50, p95, max, fps)
//   stencil-lab-viewer --headless-report                no display needed
//   state: --kernel K --tile T --radius R --precision f32|f64 --grid N --block X,Y,Z --step K
//          (negative: from the last step) --halo-2d --load results.json
//   work first: --run N [--run-sweep] --runs-backend B, --measure-ceilings, --gpu-timeline
//
// The options are parsed in options.cpp, the frame (menu, layout, panels) drawn by frame.cpp, the
// panels in panel_*.cpp. The screenshot tests' checker is its own tool (tests/viewer/image_check.cpp).
//
// [SECTION] index: 1 options, 2 headless, 3 surface (GLFW window or EGL framebuffer), 4 ImGui,
// 5 state, 6 main loop, 7 cleanup. Both surfaces share every step from 4 on: only the frame's
// input (a window's events, or none) and its end (a swap, or the pixels stay in the FBO) differ.
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <GL/gl.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <time.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "checker/exercises.h"
#include "checker/report_read.h"
#include "core/error.h"
#include "viewer/app.h"
#include "checker/exercise_guess.h"
#include "viewer/core/layout.h"
#include "viewer/core/student_trace.h"
#include "viewer/fit.h"
#include "viewer/frame.h"
#include "viewer/frame_times.h"
#include "viewer/headless.h"
#include "viewer/offscreen_egl.h"
#include "viewer/options.h"
#include "viewer/screenshot.h"
#include "viewer/svg_export.h"

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
// Long because it is one flag after another, in the order they depend on each other, a few lines
// each.
// --kernel-file for an exercise written as data: the stepper draws the star3d versions' tiles, so
// the file opens in the check panel instead (its verdict, evidence, loads against its budget).
void route_data_exercise(ViewerOptions& o) {
    if (o.kernel_file.empty() || o.check_exercise.empty() || !o.check_path.empty()) return;
    const checker::Exercise* ex = checker::find_exercise(o.check_exercise);
    if (!ex || !ex->is_data()) return;
    std::fprintf(stderr,
                 "stencil-lab-viewer: --kernel-file: %s is written as data (%s); the stepper steps the star3d "
                 "exercises, so the check panel grades the file\n",
                 ex->name.c_str(), ex->spec_file.c_str());
    o.check_path = o.kernel_file;
    o.kernel_file.clear();
    if (o.present < 0) o.present = (int)PanelId::check;
}

// --kernel-file: a student's kernel in the stepper, for --exercise or the one it suggests.
std::optional<int> apply_kernel_file(StepperConfig& c, const ViewerOptions& o) {
    if (o.kernel_file.empty()) return std::nullopt;
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
    return std::nullopt;
}

// --check, --check-report, --check-cell, --check-hints: the check panel's state.
std::optional<int> apply_check_state(App& app, const ViewerOptions& o) {
    if (!o.check_cell.empty()) {  // --check or --check-report (options.cpp)
        std::array<int, 3> cell{};
        if (std::sscanf(o.check_cell.c_str(), "%d,%d,%d", &cell[0], &cell[1], &cell[2]) != 3) {
            std::fprintf(stderr, "stencil-lab-viewer: --check-cell %s is not X,Y,Z\n", o.check_cell.c_str());
            return 2;
        }
        app.check.click_on_arrival = cell;
    }
    app.check.hints_on_arrival = o.check_hints;
    if (!o.check_path.empty()) {  // --check: open the check panel and grade the file
        std::snprintf(app.check.path, sizeof app.check.path, "%s", o.check_path.c_str());
        app.set_check_path(o.check_exercise.empty());  // no --exercise: the one the file suggests
        app.choose_check_exercise(o.check_exercise);
        app.check.backend = o.check_backend == "cuda" ? 1 : o.check_backend == "cpu" ? 2 : 0;
        if (o.present < 0) app.ui.open[(int)PanelId::check] = true;
        app.start_check();
        if (o.bounded()) app.finish_check();
    }
    if (!o.check_report.empty()) {  // --check-report: the check panel shows a saved check
        try {
            app.show_check_report(checker::read_check_report(o.check_report), o.check_report);
        } catch (const UserError& e) {
            std::fprintf(stderr, "stencil-lab-viewer: --check-report %s\n", e.what());
            return 2;
        }
        if (o.present < 0) app.ui.open[(int)PanelId::check] = true;
    }
    return std::nullopt;
}

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
    app.exp.beside_ptx = o.ptx;
    if (auto rc = apply_kernel_file(c, o)) return rc;
    if (o.halo_2d) app.halo.dims = 2;
    app.opb.show_roofline = o.roofline;
    if (o.halo_slice >= 0) app.halo.slice = o.halo_slice;
    app.halo.tile = std::max(app.halo.tile, 2 * app.halo.radius + 1);
    if (o.step) app.exp.step_after_trace = *o.step;  // applied when the trace arrives
    app.beside.start_on_trace = o.beside_lab;
    if (!(c == app.exp.cfg)) app.set_config(c);
    // A T the kernel cannot run is replaced by the nearest that can: said here and in the stepper.
    if (o.tile && !app.exp.tile_note.empty()) std::fprintf(stderr, "stencil-lab-viewer: --tile: %s\n", app.exp.tile_note.c_str());
    if (!o.opb_preset.empty())
        for (int i = 0; i < (int)opb_presets().size(); ++i)
            if (o.opb_preset == opb_presets()[i].key) app.opb.selection = selection_of(i);
    // --screenshot and --frame-times show real content: wait for the trace (no one sees the window yet).
    if (o.bounded() || o.gpu_timeline) app.finish_trace();
    if (o.bounded()) app.finish_beside_lab();
    app.rebuild_opb();
    app.rebuild_halos();
    if (auto rc = apply_check_state(app, o)) return rc;
    if (!o.load.empty()) {
        std::snprintf(app.runs.path, sizeof app.runs.path, "%s", o.load.c_str());
        if (!app.load_results_file()) {
            std::fprintf(stderr, "stencil-lab-viewer: %s\n", app.runs.message.c_str());
            return 2;
        }
    }
    if (!o.open.empty()) {  // File > Open, as if the file were chosen in its dialog
        if (auto why = app.open_from_flag(o.open, o.check_exercise); !why.empty()) {
            std::fprintf(stderr, "stencil-lab-viewer: --open %s: %s\n", o.open.c_str(), why.c_str());
            return 2;
        }
        if (o.bounded()) app.finish_trace();
    }
    return std::nullopt;
}

// The work a user starts with a panel's button, done before the first frame (the device's
// screenshots): a run or T sweep in the runs panel, the roofline's ceilings, the GPU's timeline of
// the stepper's block. A fixed-frame run waits for it. Returns an exit code when it cannot be done.
std::optional<int> start_work(App& app, const ViewerOptions& o) {
    if (!o.runs_backend.empty()) app.runs.backend = o.runs_backend == "cuda" ? 1 : o.runs_backend == "cpu" ? 2 : 0;
    if (o.run_size) {
        const StepperConfig& c = app.exp.cfg;  // --kernel, --tile, --radius, --precision
        app.runs.kernel = c.kernel;
        app.runs.tile = c.tile;
        app.runs.radius = c.radius;
        app.runs.precision = c.precision;
        for (int& n : app.runs.n) n = o.run_size;
        app.start_runs(o.run_sweep);
        if (!app.runs.message.empty()) {
            std::fprintf(stderr, "stencil-lab-viewer: --run: %s\n", app.runs.message.c_str());
            return 1;
        }
        if (o.bounded()) app.runs.runner.wait();
    }
    if (o.measure_ceilings) {
        app.start_ceiling_measurement();
        if (o.bounded()) app.opb.measuring_ceilings.wait();
    }
    if (o.bounded()) app.poll();  // collect what finished
    if (o.gpu_timeline) {
        auto& e = app.exp;
        std::string why;
        const auto stamps = record_gpu_stamps(e.trace.cfg, &why);
        if (!stamps) {
            std::fprintf(stderr, "stencil-lab-viewer: --gpu-timeline: %s\n", why.c_str());
            return 1;
        }
        e.timeline = timeline_from_stamps(*stamps);
        e.window = {0, std::max(1.0, e.timeline.end)};
        if (o.present < 0) app.ui.open[(int)PanelId::timeline] = true;
    }
    return std::nullopt;
}

// 3. Where frames are drawn: a GLFW window with an OpenGL 3.3 core context, or (--offscreen) an EGL
// context and a framebuffer of the window's size, with no window and no GLFW call at all.
struct Surface {
    GLFWwindow* window = nullptr;
    std::unique_ptr<OffscreenGl> offscreen;
};

// The window; nullptr (the reason printed) when there is none.
GLFWwindow* open_window(const ViewerOptions& opt, bool bounded) {
    if (!glfwInit()) {
        // GLFW's own reason (which display, refused or absent) in the one line, not a callback's.
        const char* reason = nullptr;
        glfwGetError(&reason);
        std::fprintf(stderr, "stencil-lab-viewer: no display (%s); run with --headless-report for the "
                             "text report, or --offscreen with --screenshot\n",
                     reason ? reason : "glfwInit failed");
        return nullptr;
    }
    glfwSetErrorCallback(glfw_error);  // after init: without a display the message above is the one line
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);    // high-DPI monitors get a larger window
    if (bounded) glfwWindowHint(GLFW_RESIZABLE, GLFW_FALSE);
    GLFWwindow* window = glfwCreateWindow(opt.window_w, opt.window_h, "stencil-lab viewer", nullptr, nullptr);
    if (!window) {
        std::fprintf(stderr, "stencil-lab-viewer: cannot create an OpenGL 3.3 window\n");
        glfwTerminate();
        return nullptr;
    }
    glfwMakeContextCurrent(window);
    glfwSwapInterval(bounded ? 0 : 1);                   // vsync: 60 fps, no busy loop
    return window;
}

// False (the one line printed) when neither can be had.
bool open_surface(Surface& s, const ViewerOptions& opt) {
    if (!opt.offscreen) {
        s.window = open_window(opt, opt.bounded());
        return s.window != nullptr;
    }
    std::string why;
    s.offscreen = OffscreenGl::create(opt.window_w, opt.window_h, &why);
    if (!s.offscreen) {
        std::fprintf(stderr, "stencil-lab-viewer: --offscreen: %s\n", why.c_str());
        return false;
    }
    std::printf("%s\n", describe(*s.offscreen).c_str());
    return true;
}

// 4. Dear ImGui: context and backends. Offscreen there is no platform backend: the display size
// and the time step are set each frame (new_platform_frame), and there is no input.
void start_imgui(const Surface& s) {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;                            // the layout is computed; nothing to remember
    if (s.window) {
        io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
        ImGui_ImplGlfw_InitForOpenGL(s.window, true);
    } else {
        io.BackendPlatformName = "stencil-lab offscreen (EGL)";  // no keys mapped: no keyboard navigation
    }
    ImGui_ImplOpenGL3_Init("#version 330");
}

// 5. The App's view of the surface: its content scale, the font, the open panels, and (a window)
// the callbacks that keep fonts and layout following the window.
void attach_app(App& app, const Surface& s, const ViewerOptions& opt) {
    app.ui.font_px = (float)(opt.font_px > 0 ? opt.font_px : kDefaultFontPx);
    app.ui.font_follows_window = opt.font_px == 0;
    if (opt.open_all) std::fill(std::begin(app.ui.open), std::end(app.ui.open), true);
    if (opt.present >= 0) {
        for (int p = 0; p < kPanels; ++p) app.ui.open[p] = p == opt.present;
        app.ui.solo = opt.present;
    }
    if (!opt.export_slides.empty()) {  // the stepper's lecture view, whatever --present says
        for (int p = 0; p < kPanels; ++p) app.ui.open[p] = p == (int)PanelId::stepper;
        app.ui.solo = (int)PanelId::stepper;
    }
    if (opt.lecture || !opt.export_slides.empty()) set_lecture(app, true);
    // The first frame already at the lecture font the window asks for (frame.cpp follows it after).
    if (app.ui.lecture && app.ui.font_follows_window)
        app.ui.font_px = (float)lecture_font_px((float)opt.window_w, (float)opt.window_h);
    if (!s.window) return;  // offscreen: 96 dpi, a fixed size
    float sx = 1, sy = 1;
    glfwGetWindowContentScale(s.window, &sx, &sy);
    app.ui.content_scale = std::max(1.0f, sx);
    glfwSetWindowUserPointer(s.window, &app);
    // High-DPI: a window moved to a monitor of another scale gets fonts of that scale.
    glfwSetWindowContentScaleCallback(s.window, [](GLFWwindow* w, float x, float) {
        auto* a = static_cast<App*>(glfwGetWindowUserPointer(w));
        a->ui.content_scale = std::max(1.0f, x);
        a->ui.font_dirty = true;
    });
    glfwSetWindowSizeCallback(s.window, [](GLFWwindow* w, int, int) {  // the layout follows the window
        static_cast<App*>(glfwGetWindowUserPointer(w))->ui.relayout = true;
    });
}

// Idle: wait for an event instead of redrawing at 60 fps (a run or trace in flight keeps polling
// for its progress; a screenshot renders its frames back to back). `settle`: frames to draw after
// an event before waiting again (ImGui settles in 1-2). Offscreen there are no events.
void wait_for_events(const Surface& s, const App& app, bool bounded, int& settle) {
    if (!s.window) return;
    if (bounded || app.busy() || settle > 0) {
        glfwPollEvents();
        if (settle > 0) --settle;
    } else {
        const double t0 = glfwGetTime();
        glfwWaitEventsTimeout(1.0);
        if (glfwGetTime() - t0 < 0.99) settle = 3;  // woken by an event: let ImGui settle
    }
}

// What the platform backend does for a window: the display's size, the time step, the input.
// Offscreen: the framebuffer's size, the time since the last frame as GLFW's backend measures it
// (the menu bar's fps is then the real one), no input.
void new_platform_frame(const Surface& s) {
    if (s.window) {
        ImGui_ImplGlfw_NewFrame();
        return;
    }
    static auto last = std::chrono::steady_clock::now();
    const auto now = std::chrono::steady_clock::now();
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2((float)s.offscreen->width(), (float)s.offscreen->height());
    io.DisplayFramebufferScale = ImVec2(1, 1);
    io.DeltaTime = std::max(1e-6f, std::chrono::duration<float>(now - last).count());  // ImGui needs > 0
    last = now;
}

void framebuffer_size(const Surface& s, int& fw, int& fh) {
    if (s.window) {
        glfwGetFramebufferSize(s.window, &fw, &fh);
    } else {
        fw = s.offscreen->width();
        fh = s.offscreen->height();
        s.offscreen->bind();
    }
}

struct FrameTimes {
    std::vector<double> frame_ms;  // each frame, NewFrame to the end of rasterising (glFinish)
    double work_ms_sum = 0;
};

// One frame: the panels into ImGui's draw lists, then onto the framebuffer (its size in fw, fh).
void draw_one_frame(const Surface& s, App& app, bool bounded, int frame, bool& quit, FrameTimes& times, int& fw,
                    int& fh) {
    const auto wall0 = std::chrono::steady_clock::now();
    const double cpu0 = thread_cpu_ms();
    if (app.recording) app.drawn = JsonValue::object();
    fit::begin_frame();

    ImGui_ImplOpenGL3_NewFrame();
    new_platform_frame(s);
    // A fixed-frame run: no pointer (Xvfb parks it mid-screen, where it raised tooltips in the PNGs).
    if (bounded) ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
    ImGui::NewFrame();
    if (s.window && ImGui::GetIO().KeyCtrl && glfwGetKey(s.window, GLFW_KEY_Q) == GLFW_PRESS) quit = true;
    draw_frame(app, frame == 0, &quit);
    ImGui::Render();

    const double work_ms = thread_cpu_ms() - cpu0;
    framebuffer_size(s, fw, fh);
    glViewport(0, 0, fw, fh);
    glClearColor(0.08f, 0.09f, 0.11f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    if (bounded) glFinish();  // count the rasterising in the frame time
    times.frame_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - wall0).count());
    times.work_ms_sum += work_ms;
}

std::string gl_string(GLenum name) {
    const auto* s = reinterpret_cast<const char*>(glGetString(name));
    return s ? s : "?";
}

// --screenshot's end: the sidecar JSON and the PNG. Returns the exit code.
int finish_screenshot(App& app, const ViewerOptions& opt, int fw, int fh) {
    // The last frame's facts: what each panel drew, and the text items that did not fit.
    (*app.drawn)["clipped_items"] = fit::clipped_count();
    nlohmann::json clips = nlohmann::json::array();
    for (const auto& c : fit::clipped())
        clips.push_back({{"text", c.text}, {"where", c.where}, {"overflow_px", c.overflow_px}});
    (*app.drawn)["clipped"] = clips;
    (*app.drawn)["font_px"] = (int)std::lround(ImGui::GetFontSize());
    (*app.drawn)["window"] = {fw, fh};
    (*app.drawn)["gl_renderer"] = gl_string(GL_RENDERER);  // which GPU (or llvmpipe) drew the picture
    (*app.drawn)["offscreen"] = opt.offscreen;
    std::ofstream side(opt.screenshot + ".json");
    side << app.drawn->dump(1) << "\n";
    std::string why;
    if (!save_framebuffer_png(opt.screenshot, fw, fh, &why)) {
        std::fprintf(stderr, "stencil-lab-viewer: %s\n", why.c_str());
        return 1;
    }
    std::printf("wrote %s (%dx%d), %d clipped text items\n", opt.screenshot.c_str(), fw, fh, fit::clipped_count());
    return 0;
}

// --frame-times' end: the statistics and where they were measured, as JSON. Returns the exit code.
int finish_frame_times(const App& app, const Surface& s, const ViewerOptions& opt, const FrameTimes& times, int fw,
                       int fh) {
    FrameTimeContext c;
    c.gl_renderer = gl_string(GL_RENDERER);
    c.gl_version = gl_string(GL_VERSION);
    c.offscreen = s.offscreen != nullptr;
    if (s.offscreen) {
        const auto& i = s.offscreen->info();
        c.egl = i.egl_version + " (" + i.egl_vendor + ", " + i.platform + " platform)";
    }
    c.width = fw;
    c.height = fh;
    c.font_px = (int)std::lround(ImGui::GetFontSize());
    for (int p = 0; p < kPanels; ++p)
        if (app.ui.open[p]) c.panels_open.push_back(panel_name((PanelId)p));
    c.layout = app.drawn->value("layout", "");
    c.cpu_work_ms = times.work_ms_sum / (double)times.frame_ms.size();
    const nlohmann::json j = frame_times_json(times.frame_ms, c);
    std::ofstream out(opt.frame_times);
    out << j.dump(1) << "\n";
    if (!out) {
        std::fprintf(stderr, "stencil-lab-viewer: cannot write %s\n", opt.frame_times.c_str());
        return 1;
    }
    std::printf("frame times (%d frames after %d warm-up, %dx%d, font %d px, %s): mean %.2f ms, p50 %.2f, p95 %.2f, "
                "max %.2f, %.1f fps; wrote %s\n",
                j["frames"].get<int>(), j["warmup_frames"].get<int>(), fw, fh, c.font_px, c.gl_renderer.c_str(),
                j["mean_ms"].get<double>(), j["p50_ms"].get<double>(), j["p95_ms"].get<double>(),
                j["max_ms"].get<double>(), j["fps"].get<double>(), opt.frame_times.c_str());
    return 0;
}

// --export-slides DIR: the stepper's stepping as slides, one per stop of the zoom: each the lecture
// view at the window's size, as DIR/slide-NNN.png (the pixels) and .svg (the same draw lists as
// vectors and text), listed in DIR/slides.json with what each shows. Returns the exit code.
int export_slides(App& app, const Surface& s, const ViewerOptions& opt) {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::create_directories(opt.export_slides, ec);
    if (!fs::is_directory(opt.export_slides)) {
        std::fprintf(stderr, "stencil-lab-viewer: --export-slides %s: cannot create the folder\n", opt.export_slides.c_str());
        return 2;
    }
    const auto& t = app.exp.trace;
    if (!t.ok()) {
        std::fprintf(stderr, "stencil-lab-viewer: --export-slides: no trace: %s\n", t.error.c_str());
        return 1;
    }
    const std::vector<int> stops = zoom_stops(t, app.exp.zoom);
    nlohmann::json list = nlohmann::json::array();
    FrameTimes times;
    bool quit = false;
    int clipped = 0;
    for (size_t i = 0; i < stops.size(); ++i) {
        app.set_step(stops[i]);
        int fw = 0, fh = 0;
        for (int f = 0; f < 2; ++f) {  // the second frame: the listing scrolled to the current line
            app.recording = f == 1;
            draw_one_frame(s, app, true, f + 1, quit, times, fw, fh);
        }
        const std::string stem = fmt::format("slide-{:03d}", i + 1);
        const std::string png = (fs::path(opt.export_slides) / (stem + ".png")).string();
        const std::string svg = (fs::path(opt.export_slides) / (stem + ".svg")).string();
        std::string why;
        SvgCounts counts;
        if (!save_framebuffer_png(png, fw, fh, &why) || !write_svg(svg, ImGui::GetDrawData(), fw, fh, &counts, &why)) {
            std::fprintf(stderr, "stencil-lab-viewer: --export-slides: %s\n", why.c_str());
            return 1;
        }
        clipped += fit::clipped_count();
        const auto& st = app.exp.state;
        list.push_back({{"slide", i + 1}, {"step", stops[i]}, {"png", stem + ".png"}, {"svg", stem + ".svg"},
                        {"interval", st.interval}, {"line", app.exp.where.line}, {"file", app.exp.where.file},
                        {"clipped_items", fit::clipped_count()}, {"figures", app.drawn->value("figures", nlohmann::json())},
                        {"svg_paths", counts.paths}, {"svg_texts", counts.texts}, {"svg_chars", counts.chars}});
    }
    const nlohmann::json j = {{"kernel", version(t.cfg.kernel).name}, {"tile", t.cfg.tile}, {"radius", t.cfg.radius},
                              {"zoom", to_string(app.exp.zoom)}, {"intervals", t.intervals},
                              {"last_step", t.last_step()}, {"stops", stops.size()}, {"size", {opt.window_w, opt.window_h}},
                              {"font_px", (int)std::lround(app.ui.font_px)}, {"clipped_items", clipped}, {"slides", list}};
    std::ofstream out(fs::path(opt.export_slides) / "slides.json");
    out << j.dump(1) << "\n";
    std::printf("wrote %zu slides (%s, %s zoom) to %s\n", stops.size(), version(t.cfg.kernel).name,
                to_string(app.exp.zoom), opt.export_slides.c_str());
    return out ? 0 : 1;
}

// The end of a fixed-frame run: the frames' times, then the screenshot and / or the frame-time JSON.
int finish_bounded(App& app, const Surface& s, const ViewerOptions& opt, const FrameTimes& times, int fw, int fh) {
    const int n = (int)times.frame_ms.size();
    double sum = 0;
    for (double ms : times.frame_ms) sum += ms;
    std::printf("frames %d, mean frame ms %.2f (CPU time of the viewer's own work %.2f ms: NewFrame to Render)\n", n,
                sum / n, times.work_ms_sum / n);
    int rc = 0;
    if (!opt.screenshot.empty()) rc = finish_screenshot(app, opt, fw, fh);
    if (!opt.frame_times.empty() && rc == 0) rc = finish_frame_times(app, s, opt, times, fw, fh);
    return rc;
}

// 7. Cleanup. Returns the exit code, or leaves at once when a check is still running: its future
// would block here until the child's time limit. The checker's child dies with this process
// (PR_SET_PDEATHSIG); its temporary folder in /tmp stays.
int clean_up(App& app, Surface& s, int rc) {
    app.runs.runner.cancel();
    ImGui_ImplOpenGL3_Shutdown();  // while the context is current (either surface)
    if (s.window) ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    if (s.window) {
        glfwDestroyWindow(s.window);
        glfwTerminate();
    }
    s.offscreen.reset();
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
    route_data_exercise(opt);
    const bool bounded = opt.bounded();  // a screenshot or frame times: a fixed number of frames, then exit

    // 2. Without a window: the headless report ------------------------------------------------------
    if (opt.headless) return run_headless_report();

    // 3. An OpenGL 3.3 core context: a GLFW window, or EGL and a framebuffer (--offscreen) ----------
    Surface surface;
    if (!open_surface(surface, opt)) return 1;

    // 4. Dear ImGui: context and backends -----------------------------------------------------------
    start_imgui(surface);

    // 5. State: the stepper's first trace, the model's curves (computed once, here) ---------------
    App app;
    std::error_code ec;
    app.init(std::filesystem::canonical("/proc/self/exe", ec).parent_path().string());
    attach_app(app, surface, opt);
    if (auto rc = apply_state(app, opt)) return *rc;
    if (auto rc = start_work(app, opt)) return *rc;
    if (!opt.export_slides.empty()) {
        build_fonts(app.ui);
        return clean_up(app, surface, export_slides(app, surface, opt));
    }
    app.recording = !opt.screenshot.empty();  // the panels note what they drew, for the sidecar
    FrameTimes times;
    int settle = 3;  // frames to draw after an event before waiting again

    // 6. Main loop ----------------------------------------------------------------------------------
    bool quit = false;
    int frame = 0, rc = 0;
    while (!(surface.window && glfwWindowShouldClose(surface.window)) && !quit) {
        if (surface.window && glfwGetWindowAttrib(surface.window, GLFW_ICONIFIED)) {  // sleep while iconified
            glfwWaitEvents();
            continue;
        }
        wait_for_events(surface, app, bounded, settle);
        app.poll();  // finished background work only
        if (app.ui.font_dirty) {
            build_fonts(app.ui);
            app.ui.relayout = true;  // window sizes and the menu bar's height follow the font
            settle = 3;
        }
        if (frame == 1) app.ui.relayout = true;  // frame 0 ran before the menu bar set WorkPos
        // Frame times alone: only the last frame notes what it drew (its layout, for the JSON), so
        // the measured frames do no bookkeeping a normal frame would not.
        if (bounded && opt.screenshot.empty()) app.recording = frame == opt.frames - 1;
        int fw = 0, fh = 0;
        draw_one_frame(surface, app, bounded, frame, quit, times, fw, fh);
        if (bounded && ++frame >= opt.frames) {
            rc = finish_bounded(app, surface, opt, times, fw, fh);
            break;
        }
        if (!bounded) ++frame;
        if (surface.window) glfwSwapBuffers(surface.window);
        if (!bounded) times.frame_ms.clear();  // an interactive session keeps no history
    }

    // 7. Cleanup ------------------------------------------------------------------------------------
    return clean_up(app, surface, rc);
}
