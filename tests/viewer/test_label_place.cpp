// The chart labels' placement (viewer/core/label_place.h): labels keep off markers, other labels,
// the reserved boxes (legend) and the plot's edges, and say when a plot is too crowded.
#include <catch2/catch.hpp>

#include <algorithm>

#include "viewer/core/label_place.h"

using namespace stencil::viewer;

namespace {
int overlaps_among(const LabelPlacement& p, const std::vector<ScreenBox>& obstacles) {
    int n = 0;
    for (size_t i = 0; i < p.boxes.size(); ++i) {
        for (const ScreenBox& o : obstacles) n += overlap(p.boxes[i], o);
        for (size_t j = i + 1; j < p.boxes.size(); ++j) n += overlap(p.boxes[i], p.boxes[j]);
    }
    return n;
}
}  // namespace

TEST_CASE("label boxes: overlap is strict, area and inside", "[viewer][labels]") {
    const ScreenBox a{0, 0, 10, 10}, b{10, 0, 20, 10}, c{5, 5, 15, 15};
    REQUIRE((!overlap(a, b) && overlap(a, c) && overlap_area(a, c) == 25 && overlap_area(a, b) == 0));
    REQUIRE((inside(ScreenBox{1, 1, 9, 9}, a) && !inside(c, a)));
}

TEST_CASE("labels of a cluster of points avoid every marker, each other and the legend", "[viewer][labels]") {
    // Points along a rising curve, close together (a sweep's T = 4..16 on a 600 px plot), with a
    // legend reserved in the top-right corner and one at the far right edge.
    const int n = GENERATE(3, 6, 10);
    CAPTURE(n);
    const ScreenBox bounds{0, 0, 600, 400};
    std::vector<ScreenBox> obstacles{{450, 0, 600, 80}};  // the legend
    std::vector<LabelRequest> q;
    for (int i = 0; i < n; ++i) {
        const float x = 100 + 45.0f * i, y = 350 - 28.0f * i;
        obstacles.push_back(marker_box(x, y, 5));
        q.push_back({x, y, 90, 18, 8});
    }
    q.push_back({598, 200, 120, 18, 8});  // at the right edge: must go left, inside
    obstacles.push_back(marker_box(598, 200, 5));
    const LabelPlacement p = place_labels(q, obstacles, bounds);
    REQUIRE((p.boxes.size() == q.size() && p.overlapping == 0 && overlaps_among(p, obstacles) == 0 &&
             inside(p.boxes.back(), bounds) && p.boxes.back().x1 <= 598));
}

TEST_CASE("a label is placed next to its anchor when the place is free", "[viewer][labels]") {
    const LabelPlacement p = place_labels({{100, 100, 50, 10, 6}}, {marker_box(100, 100, 4)}, {0, 0, 400, 400});
    // right of the anchor, centred on its height
    REQUIRE((p.overlapping == 0 && p.boxes[0].x0 == 106 && p.boxes[0].y0 == 95));
}

TEST_CASE("a plot too small for its labels says so (overlapping > 0) and keeps them inside", "[viewer][labels]") {
    std::vector<LabelRequest> q;
    for (int i = 0; i < 12; ++i) q.push_back({50, 50, 80, 20, 4});
    const ScreenBox bounds{0, 0, 100, 100};
    const LabelPlacement p = place_labels(q, {}, bounds);
    REQUIRE((p.overlapping > 0 &&
             std::all_of(p.boxes.begin(), p.boxes.end(), [&](const ScreenBox& b) { return inside(b, bounds); })));
}
