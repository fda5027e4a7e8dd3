// The viewer's command line, parsed into one struct (main.cpp stays the window's walk-through).
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace stencil::viewer {

struct ViewerOptions {
    std::string screenshot;          // --screenshot f.png: render, write f.png and f.png.json, exit
    int frames = 4;
    int present = -1;                // --present PANEL: that panel fills the window (-1: all panels)
    int window_w = 1600, window_h = 1000;
    int font_px = 0;                 // --font; 0: not given (20, or in lecture mode sized to the window)
    bool headless = false;
    // --offscreen: no window and no GLFW; EGL draws into a framebuffer (viewer/offscreen_egl.h).
    bool offscreen = false;
    std::string frame_times;         // --frame-times FILE.json: per-frame times of --frames frames
    bool open_all = false;           // every panel open (the grid), not the default five
    bool lecture = false;            // --lecture: one panel, its figure filling the window (L toggles)
    std::string opb_preset;          // --opb-preset: the OP/B chart's story (viewer/core/opb_view.h)
    // --export-slides DIR: the stepper's stepping, each stop of --zoom a numbered PNG and SVG of the
    // lecture view at --window's size, listed in DIR/slides.json; then exit.
    std::string export_slides;
    // The state the panels start in.
    std::string kernel, precision, block, load;
    int tile = 0, radius = 0, grid = 0;
    std::optional<int> step;
    std::string zoom;                // stepper: instruction, line or interval per step
    std::string block_shape;         // stepper: naive's block shape BXxBYxBZ (8x8x8, 32x4x2)
    std::string kernel_file;         // stepper: a student's kernel (with --exercise)
    std::string open;                // File > Open: kernel | results (its dialog), kernel:FILE | results:FILE
    int thread = -1;                 // stepper: the thread whose loads and stores are listed
    bool ptx = false;                // stepper: the PTX beside the source (else the textbook's listing)
    bool halo_2d = false;
    bool roofline = false;           // the OP/B panel opens on its roofline tab
    int halo_slice = -1;
    std::string check_path, check_exercise, check_backend = "auto";  // exercise "": the one the file suggests
    std::string check_report;        // --check-report FILE.json: a saved check shown without running it
    std::string check_cell;          // --check-cell X,Y,Z: that cell of the slice map clicked when the check ends
    int check_hints = 0;             // --check-hints N: "Show hint" pressed N times when the check ends
    bool beside_lab = false;         // --beside-lab: the stepper's student kernel compared with the lab's
    // Work done before the first frame, as a user would with the panels' buttons.
    std::string runs_backend;        // the runs panel's backend (auto, cuda, cpu; "": the panel's default)
    int run_size = 0;                // --run N: the stepper's kernel at N^3 in the runs panel
    bool run_sweep = false;          // --run-sweep: every T of that kernel
    bool measure_ceilings = false;   // the roofline's copy / FMA ceilings, measured here
    bool gpu_timeline = false;       // the timeline panel's "record on the GPU"

    // A run of a fixed number of frames that exits: a screenshot or a frame-time measurement.
    bool bounded() const { return !screenshot.empty() || !frame_times.empty() || !export_slides.empty(); }
};

// Parses argv. Returns the exit code when the viewer must exit now (--help: 0, bad usage: 2, with
// the one line printed), nullopt to go on.
std::optional<int> parse_options(int argc, char** argv, ViewerOptions& o);

}  // namespace stencil::viewer
