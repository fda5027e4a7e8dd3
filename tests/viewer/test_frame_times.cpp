// --frame-times' statistics (viewer/frame_times.h): quantiles between ranks (the even-count median
// is the classic off-by-one), the warm-up frames left out, the 60 fps rule, and the JSON's fields.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <vector>

#include "viewer/frame_times.h"

using namespace stencil::viewer;

TEST_CASE("frame times: quantiles interpolate between the nearest ranks", "[viewer][frame_times]") {
    REQUIRE(quantile({4, 1, 3, 2}, 0.5) == 2.5);  // even count: between the two middle values
    REQUIRE(quantile({5, 1, 3}, 0.5) == 3);       // odd count: the middle one
    REQUIRE(quantile({7}, 0.95) == 7);
    REQUIRE(quantile({}, 0.5) == 0);
    std::vector<double> v;
    for (int i = 1; i <= 100; ++i) v.push_back(i);
    REQUIRE(std::abs(quantile(v, 0.95) - 95.05) < 1e-9);  // rank 94.05 of 0..99
    REQUIRE((quantile(v, 0) == 1 && quantile(v, 1) == 100));
}

TEST_CASE("frame times: mean, max, fps and the 60 fps target on the p95 frame", "[viewer][frame_times]") {
    // 19 frames of 10 ms and one of 40 ms: mean 11.5 ms; the p95 frame interpolates to 11.5 ms.
    std::vector<double> ms(19, 10.0);
    ms.push_back(40.0);
    const FrameTimeStats s = frame_time_stats(ms);
    REQUIRE((s.frames == 20 && s.mean_ms == 11.5 && s.max_ms == 40 && s.min_ms == 10 && s.p50_ms == 10));
    REQUIRE(std::abs(s.p95_ms - 11.5) < 1e-9);
    REQUIRE(std::abs(s.fps - 1000 / 11.5) < 1e-9);
    REQUIRE(s.meets_target);
    // Every frame at 17 ms: 58.8 fps, not 60.
    REQUIRE_FALSE(frame_time_stats(std::vector<double>(10, 17.0)).meets_target);
}

TEST_CASE("frame times: the JSON leaves out the warm-up frames and says where it was measured",
          "[viewer][frame_times]") {
    // The first two frames build the font atlas and place the windows: slow, and not counted.
    std::vector<double> ms{200, 90, 5, 6, 7, 8};
    FrameTimeContext c;
    c.gl_renderer = "llvmpipe";
    c.width = 1920;
    c.height = 1080;
    c.font_px = 20;
    c.panels_open = {"stepper", "opb"};
    const auto j = frame_times_json(ms, c);
    CAPTURE(j.dump());
    REQUIRE((j["frames"] == 4 && j["warmup_frames"] == 2 && j["max_ms"] == 8.0 && j["mean_ms"] == 6.5 &&
             j["frame_ms"].size() == 4 && j["gl_renderer"] == "llvmpipe" && j["window"][0] == 1920 &&
             j["panels_open"].size() == 2 && j["target_fps"] == 60.0));
    REQUIRE(warmup_frames(3) == 0);  // too few frames to leave any out
}
