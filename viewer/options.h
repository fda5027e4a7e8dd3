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
    int font_px = 20;
    bool headless = false;
    // The state the panels start in.
    std::string kernel, precision, block, load;
    int tile = 0, radius = 0, grid = 0;
    std::optional<int> step;
    std::string zoom;                // stepper: instruction, line or interval per step
    std::string block_shape;         // stepper: naive's block shape BXxBYxBZ (8x8x8, 32x4x2)
    std::string kernel_file;         // stepper: a student's kernel (with --exercise)
    int thread = -1;                 // stepper: the thread whose loads and stores are listed
    bool halo_2d = false;
    bool roofline = false;           // the OP/B panel opens on its roofline tab
    int halo_slice = -1;
    std::string check_path, check_exercise, check_backend = "auto";  // exercise "": the one the file suggests
};

// Parses argv. Returns the exit code when the viewer must exit now (--help: 0, bad usage: 2, with
// the one line printed), nullopt to go on.
std::optional<int> parse_options(int argc, char** argv, ViewerOptions& o);

}  // namespace stencil::viewer
