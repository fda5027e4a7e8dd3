// The chart labels' placement (viewer/core/label_place.h): labels keep off markers, other labels,
// the reserved boxes (legend) and the plot's edges, and say when a plot is too crowded.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

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

TEST_CASE("crossing_length: the part of a curve inside a label's box", "[viewer][labels]") {
    const ScreenBox b{10, 10, 30, 20};
    CHECK(crossing_length({0, 15, 40, 15}, b) == Approx(20));      // straight through
    CHECK(crossing_length({0, 5, 40, 5}, b) == 0);                 // above it
    CHECK(crossing_length({20, 0, 20, 40}, b) == Approx(10));      // vertical, through
    CHECK(crossing_length({0, 0, 40, 40}, b) > 0);                 // diagonal through the box
    CHECK(crossing_length({0, 40, 8, 32}, b) == 0);                // ends before it
    CHECK(crossing_length({15, 12, 20, 14}, b) == Approx(std::sqrt(29.0f)));  // wholly inside
}

TEST_CASE("label_hits measures labels on curves and markers, and each other", "[viewer][labels]") {
    const std::vector<ScreenBox> labels{{10, 10, 30, 20}, {100, 100, 140, 110}};
    const std::vector<ScreenBox> markers{{95, 95, 101, 101}};  // on the second label's corner
    const std::vector<ScreenSegment> curves{{0, 15, 40, 15}};  // across the first
    const LabelHits h = label_hits(labels, markers, curves);
    CHECK(h.curves == 1);
    CHECK(h.markers == 1);
    CHECK(h.labels == 0);
    CHECK(h.total() == 2);
    // A curve grazing a corner by less than the tolerance is beside the text, not across it.
    CHECK(label_hits({{10, 10, 30, 20}}, {}, {{29.5f, 0, 29.5f, 10.5f}}).curves == 0);
    CHECK(label_hits({{10, 10, 30, 20}, {25, 15, 50, 25}}, {}, {}).labels == 1);
}

TEST_CASE("place_labels keeps a label off a curve through its anchor", "[viewer][labels]") {
    // A point on a steep curve (the halo share against T near T = 8): the first spot (right of the
    // point, centred on its height) lies across the curve; the placement must find one that does not.
    const std::vector<ScreenSegment> curve{{50, -20, 250, 220}, {250, 220, 350, 260}};
    const LabelRequest q{150, 100, 120, 30, 8};
    const ScreenBox bounds{0, 0, 400, 300};
    const LabelPlacement p = place_labels({q}, {}, bounds, curve);
    REQUIRE(p.boxes.size() == 1);
    CAPTURE(p.boxes[0].x0, p.boxes[0].y0, p.boxes[0].x1, p.boxes[0].y1);
    CHECK(p.overlapping == 0);
    CHECK(label_hits(p.boxes, {}, curve).curves == 0);
    // Without the curve the first spot is taken: the curve is what moved it.
    const LabelPlacement free = place_labels({q}, {}, bounds);
    CHECK(label_hits(free.boxes, {}, curve).curves == 1);
}
