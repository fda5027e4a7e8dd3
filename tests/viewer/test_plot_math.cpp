// The plot widget's maths: ticks, log scale, ranges, the nearest-point hover.
#include <catch2/catch.hpp>

#include <cmath>

#include "viewer/core/colormap.h"
#include "viewer/core/plot_math.h"

using namespace stencil::viewer;

TEST_CASE("nice steps are 1, 2 or 5 times a power of ten", "[viewer][plot]") {
    const auto [span, target, step] = GENERATE(table<double, int, double>(
        {{10, 5, 2}, {1, 5, 0.2}, {3.25, 6, 0.5}, {100, 4, 20}, {7, 7, 1}, {0.05, 5, 0.01}, {1000, 3, 500}}));
    CAPTURE(span, target);
    REQUIRE(nice_step(span, target) == Approx(step));
}

TEST_CASE("linear ticks cover the range at multiples of the step, labelled minimally", "[viewer][plot]") {
    const auto t = linear_ticks(0.0, 3.4, 6);
    std::string labels;
    for (const auto& k : t) labels += k.label + " ";
    CAPTURE(labels);
    REQUIRE((t.size() == 7 && t.front().value == 0 && t.back().value == Approx(3.0) && labels == "0 0.5 1.0 1.5 2.0 2.5 3.0 "));
}

TEST_CASE("ticks of a range not starting at a multiple start at the first multiple inside", "[viewer][plot]") {
    const auto t = linear_ticks(3.2, 31.7, 6);
    REQUIRE((t.front().value == Approx(5) && t.back().value == Approx(30) && t[1].label == "10"));
}

TEST_CASE("quarter steps get two decimals", "[viewer][plot]") {
    REQUIRE((format_tick(0.25, 0.25) == "0.25" && format_tick(1.5, 0.5) == "1.5" && format_tick(2e6, 1e6) == "2e+06"));
}

TEST_CASE("log ticks: decades labelled, 2..9 minor", "[viewer][plot]") {
    const auto t = log_ticks(0.3, 200);
    int major = 0, labelled = 0;
    for (const auto& k : t) major += k.major, labelled += !k.label.empty();
    CAPTURE(t.size(), major, labelled);
    // 0.3..0.9 (7), 1..9 (9), 10..90 (9), 100, 200 = 27 ticks; majors 1, 10, 100
    REQUIRE((t.size() == 27 && major == 3 && labelled == 3 && t.front().value == Approx(0.3)));
}

TEST_CASE("log ticks inside one decade label the minor ticks", "[viewer][plot]") {
    const auto t = log_ticks(1.5, 9.5);
    bool all = !t.empty();
    for (const auto& k : t) all = all && !k.label.empty();
    REQUIRE((all && t.size() == 8));
}

TEST_CASE("a log axis maps decades evenly and round-trips", "[viewer][plot]") {
    Axis a{0.1, 1000, AxisScale::log10, ""};
    const double u1 = axis_to_unit(a, 1), u10 = axis_to_unit(a, 10), back = axis_from_unit(a, 0.5);
    CAPTURE(u1, u10, back);
    REQUIRE((u1 == Approx(0.25) && u10 == Approx(0.5) && back == Approx(10) && std::isinf(axis_to_unit(a, 0))));
}

TEST_CASE("a linear axis round-trips screen coordinates", "[viewer][plot]") {
    Axis ax{2, 12, AxisScale::linear, ""}, ay{0, 4, AxisScale::linear, ""};
    PlotRect r{100, 50, 600, 450};
    const Point2 p = to_screen(ax, ay, r, 7, 1);
    double x = 0, y = 0;
    from_screen(ax, ay, r, p, &x, &y);
    REQUIRE((p.x == Approx(350) && p.y == Approx(350) && x == Approx(7) && y == Approx(1)));
}

TEST_CASE("fit_range pads, ignores non-positive values on log axes and widens points", "[viewer][plot]") {
    const Range lin = fit_range({1, 3}, AxisScale::linear, 0.5);
    const Range lg = fit_range({-1, 0, 10, 1000}, AxisScale::log10, 0);
    const Range one = fit_range({2}, AxisScale::linear, 0);
    REQUIRE((lin.lo == Approx(0) && lin.hi == Approx(4) && lg.lo == Approx(10) && lg.hi == Approx(1000) &&
             one.lo < 2 && one.hi > 2));
}

TEST_CASE("hover finds the nearest point within reach and skips greyed series", "[viewer][plot]") {
    Axis ax{0, 10, AxisScale::linear, ""}, ay{0, 10, AxisScale::linear, ""};
    PlotRect r{0, 0, 100, 100};
    Series a{"a", {1, 5, 9}, {1, 5, 9}};
    Series b{"b", {5}, {6}};
    Series grey{"g", {5}, {5}};
    grey.greyed = true;
    const std::vector<Series> s{grey, a, b};
    const Hover h = nearest_point(s, ax, ay, r, {51, 49});  // (5, 5) is at (50, 50)
    const Hover far = nearest_point(s, ax, ay, r, {30, 10});
    CAPTURE(h.series, h.index, far.series);
    REQUIRE((h.series == 1 && h.index == 1 && far.series == -1));
}

TEST_CASE("colours pack like IM_COL32 and viridis runs dark to bright", "[viewer][colour]") {
    const std::uint32_t red = pack({1, 0, 0});
    const Rgb lo = viridis(0), hi = viridis(1);
    REQUIRE((red == 0xff0000ffu && lo.r + lo.g + lo.b < hi.r + hi.g + hi.b && warp_colour(0).r != warp_colour(1).r));
}
