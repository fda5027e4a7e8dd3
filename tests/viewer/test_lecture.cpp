// Made for the lecture hall (issue 29), the parts without a window: a figure's share of the window
// and whether it is whole on screen, planes laid out to fill a room, text wrapped without splitting
// a number, and a stepping's stops (the slides --export-slides writes).
#include <catch2/catch.hpp>

#include <string_view>

#include "viewer/core/layout.h"
#include "viewer/core/stepper.h"
#include "viewer/core/text_wrap.h"

using namespace stencil;
using namespace stencil::viewer;

TEST_CASE("figure facts: its share of the window, and whole only when nothing is scrolled or cut away",
          "[viewer][lecture]") {
    const Rect window{0, 0, 1000, 800};
    const FigureFacts all = figure_facts({0, 0, 1000, 800}, window, window);
    CHECK((all.share == Approx(1.0) && all.visible));
    const FigureFacts most = figure_facts({10, 100, 900, 600}, window, window);
    CHECK((most.share == Approx(900.0 * 600 / 800000) && most.visible));
    // Past the bottom of what its (scrolled) window shows: not whole; only the shown part counts.
    const FigureFacts cut = figure_facts({0, 500, 1000, 500}, {0, 0, 1000, 700}, window);
    CHECK((!cut.visible && cut.share == Approx(1000.0 * 200 / 800000)));
    // Sub-pixel rounding of item rectangles is not a cut.
    CHECK(figure_facts({-0.5f, 0, 1000.5f, 800}, window, window).visible);
    CHECK(!figure_facts({0, 0, 0, 0}, window, window).visible);
    const Rect b = bounding({0, 0, 10, 10}, {20, 5, 10, 30});
    CHECK((b.x == 0 && b.y == 0 && b.w == 30 && b.h == 35));
}

TEST_CASE("planes fill the room: the columns that give the largest cells, at least a label wide",
          "[viewer][lecture]") {
    // tiled T = 8: eight planes of 8 x 8 in a projector's 1000 x 560.
    const PlaneGrid g = fit_planes(8, 8, 8, 1000, 560, 38, 10, 4, 96);
    CHECK((g.cols == 4 && g.rows == 2));
    CHECK(g.cols * (8 * g.cell + 2) + (g.cols - 1) * 10 <= 1000 + 0.5f);
    CHECK(g.rows * (8 * g.cell + 2 + 38) + (g.rows - 1) * 10 <= 560 + 0.5f);
    CHECK(g.cell > 25);
    // A label wider than a plane limits the columns; the cells never fall below their minimum.
    const PlaneGrid narrow = fit_planes(8, 8, 8, 1000, 560, 38, 10, 4, 96, 300);
    CHECK(narrow.cols <= 3);
    CHECK(fit_planes(64, 64, 64, 200, 200, 20, 4, 3, 20).cell == 3);
}

TEST_CASE("wrapping breaks at spaces: a number is never split, a long expression after an operator",
          "[viewer][lecture]") {
    const auto measure = [](std::string_view s) { return 10.0f * (float)s.size(); };  // 10 px a letter
    const auto lines = wrap_lines("time 8.00 ms, 12.345 GB/s and 3.25 FLOP/B", 90, measure);
    for (const auto& l : lines) CHECK(measure(l) <= 90);
    std::string joined;
    for (const auto& l : lines) joined += "|" + l;
    CAPTURE(joined);
    for (const char* number : {"8.00", "12.345", "3.25"}) CHECK(joined.find(number) != std::string::npos);
    // ImGui broke "8.00" after its point; a word longer than a line breaks after an operator.
    const auto code = wrap_lines("out[c]=c0*in_s[tz][ty][tx]+c1*in_s[tz][ty][tx-1];", 120, measure);
    CHECK(code.size() > 1);
    for (const auto& l : code) CHECK(measure(l) <= 120);
    CHECK(wrap_text("a\nb c", 1000, measure) == "a\nb c");
    CHECK(wrap_lines("    indented code", 1000, measure).front() == "    indented code");
}

TEST_CASE("a stepping's stops: one slide before the launch and one per interval", "[viewer][lecture]") {
    StepperConfig c;
    c.kernel = KernelId::tiled;
    c.tile = 8;
    c.dims = {20, 20, 20};
    c.block = {1, 1, 1};
    const StepperTrace t = trace_block(c);
    REQUIRE(t.ok());
    const auto by_interval = zoom_stops(t, StepZoom::interval);
    CHECK(by_interval.size() == (size_t)t.intervals + 1);
    CHECK((by_interval.front() == 0 && by_interval.back() == t.last_step()));
    const auto by_instruction = zoom_stops(t, StepZoom::instruction);
    CHECK(by_instruction.size() == (size_t)t.last_step() + 1);
    const auto by_line = zoom_stops(t, StepZoom::line);
    CHECK((by_line.size() > by_interval.size() && by_line.size() <= by_instruction.size()));
    CHECK(std::is_sorted(by_line.begin(), by_line.end()));
}
