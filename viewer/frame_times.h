// --frame-times: the statistics of a run of frames (each ended by glFinish, so a frame's time
// holds the viewer's CPU work and the GPU's rasterising) and the JSON they are written as. Plain
// C++, no ImGui or OpenGL: tested directly (tests/viewer/test_frame_times.cpp).
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace stencil::viewer {

// The target: 60 fps with every panel open. Held when the p95 frame fits 1/60 s.
inline constexpr double kTargetFps = 60.0;

struct FrameTimeStats {
    int frames = 0;  // frames measured (after the warm-up)
    double mean_ms = 0, p50_ms = 0, p95_ms = 0, max_ms = 0, min_ms = 0;
    double fps = 0;  // 1000 / mean_ms
    bool meets_target = false;  // p95_ms <= 1000 / kTargetFps
};

// The q-quantile (0..1) of `v`, interpolated between the two nearest ranks (numpy's default):
// the median of {1, 2, 3, 4} is 2.5. 0 for an empty `v`.
double quantile(std::vector<double> v, double q);
FrameTimeStats frame_time_stats(const std::vector<double>& ms);

// Frames left out of the statistics at the start: the first builds the font atlas and the
// second places the windows (frame.cpp's relayout), neither a steady frame. 0 when too few.
int warmup_frames(int total);

// Where the frames were drawn, for the JSON beside the numbers.
struct FrameTimeContext {
    std::string gl_renderer, gl_version, egl;  // egl: "1.5 (NVIDIA, device platform)", "" for a window
    bool offscreen = false;
    int width = 0, height = 0, font_px = 0;
    std::vector<std::string> panels_open;
    std::string layout;                         // grid, tabs or solo (frame.cpp)
    double cpu_work_ms = 0;                     // mean CPU time of NewFrame..Render (the viewer's own work)
};

// {"frames", "warmup_frames", "mean_ms", "p50_ms", "p95_ms", "max_ms", "min_ms", "fps", "target_fps",
//  "meets_target", "gl_renderer", ..., "frame_ms": [every measured frame]}.
nlohmann::json frame_times_json(const std::vector<double>& all_ms, const FrameTimeContext& c);

}  // namespace stencil::viewer
