#include "viewer/frame_times.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace stencil::viewer {

double quantile(std::vector<double> v, double q) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const double at = std::clamp(q, 0.0, 1.0) * (double)(v.size() - 1);
    const auto lo = (size_t)std::floor(at);
    const size_t hi = std::min(lo + 1, v.size() - 1);
    return v[lo] + (at - (double)lo) * (v[hi] - v[lo]);
}

FrameTimeStats frame_time_stats(const std::vector<double>& ms) {
    FrameTimeStats s;
    s.frames = (int)ms.size();
    if (ms.empty()) return s;
    s.mean_ms = std::accumulate(ms.begin(), ms.end(), 0.0) / (double)ms.size();
    s.p50_ms = quantile(ms, 0.50);
    s.p95_ms = quantile(ms, 0.95);
    const auto [lo, hi] = std::minmax_element(ms.begin(), ms.end());
    s.min_ms = *lo;
    s.max_ms = *hi;
    s.fps = s.mean_ms > 0 ? 1000.0 / s.mean_ms : 0;
    s.meets_target = s.p95_ms <= 1000.0 / kTargetFps;
    return s;
}

int warmup_frames(int total) { return total > 4 ? 2 : 0; }

nlohmann::json frame_times_json(const std::vector<double>& all_ms, const FrameTimeContext& c) {
    const int warm = std::min(warmup_frames((int)all_ms.size()), (int)all_ms.size());
    const std::vector<double> ms(all_ms.begin() + warm, all_ms.end());
    const FrameTimeStats s = frame_time_stats(ms);
    return {{"frames", s.frames},
            {"warmup_frames", warm},
            {"mean_ms", s.mean_ms},
            {"p50_ms", s.p50_ms},
            {"p95_ms", s.p95_ms},
            {"max_ms", s.max_ms},
            {"min_ms", s.min_ms},
            {"fps", s.fps},
            {"target_fps", kTargetFps},
            {"meets_target", s.meets_target},
            {"target_rule", "p95 frame <= 1000 / target_fps ms, each frame ended by glFinish"},
            {"cpu_work_ms", c.cpu_work_ms},
            {"gl_renderer", c.gl_renderer},
            {"gl_version", c.gl_version},
            {"egl", c.egl},
            {"offscreen", c.offscreen},
            {"window", {c.width, c.height}},
            {"font_px", c.font_px},
            {"panels_open", c.panels_open},
            {"layout", c.layout},
            {"frame_ms", ms}};
}

}  // namespace stencil::viewer
