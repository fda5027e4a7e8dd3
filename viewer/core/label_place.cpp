#include "viewer/core/label_place.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace stencil::viewer {

bool overlap(const ScreenBox& a, const ScreenBox& b) { return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1; }

float overlap_area(const ScreenBox& a, const ScreenBox& b) {
    const float w = std::min(a.x1, b.x1) - std::max(a.x0, b.x0), h = std::min(a.y1, b.y1) - std::max(a.y0, b.y0);
    return w > 0 && h > 0 ? w * h : 0.0f;
}

bool inside(const ScreenBox& in, const ScreenBox& out) {
    return in.x0 >= out.x0 && in.y0 >= out.y0 && in.x1 <= out.x1 && in.y1 <= out.y1;
}

ScreenBox marker_box(float x, float y, float r) { return {x - r, y - r, x + r, y + r}; }

float distance_to(const ScreenBox& b, float x, float y) {
    const float dx = std::max({b.x0 - x, 0.0f, x - b.x1}), dy = std::max({b.y0 - y, 0.0f, y - b.y1});
    return std::sqrt(dx * dx + dy * dy);
}

float crossing_length(const ScreenSegment& s, const ScreenBox& b) {
    // Liang-Barsky: the part of the segment's parameter range [0, 1] inside all four half-planes.
    const float dx = s.x1 - s.x0, dy = s.y1 - s.y0;
    float t0 = 0, t1 = 1;
    const float p[4] = {-dx, dx, -dy, dy};
    const float q[4] = {s.x0 - b.x0, b.x1 - s.x0, s.y0 - b.y0, b.y1 - s.y0};
    for (int i = 0; i < 4; ++i) {
        if (p[i] == 0) {
            if (q[i] <= 0) return 0;  // parallel to this edge and outside (or on) it
            continue;
        }
        const float t = q[i] / p[i];
        if (p[i] < 0) t0 = std::max(t0, t);
        else t1 = std::min(t1, t);
        if (t0 >= t1) return 0;
    }
    return (t1 - t0) * std::sqrt(dx * dx + dy * dy);
}

LabelHits label_hits(const std::vector<ScreenBox>& labels, const std::vector<ScreenBox>& markers,
                     const std::vector<ScreenSegment>& curves, float tolerance) {
    LabelHits h;
    for (size_t i = 0; i < labels.size(); ++i) {
        const ScreenBox& b = labels[i];
        h.markers += std::any_of(markers.begin(), markers.end(), [&](const ScreenBox& m) { return overlap(b, m); });
        float across = 0;
        for (const ScreenSegment& s : curves) across += crossing_length(s, b);
        h.curves += across > tolerance;
        for (size_t j = i + 1; j < labels.size(); ++j) h.labels += overlap(b, labels[j]);
    }
    return h;
}

namespace {

// The spots tried for one label, nearest first. At distance d from the anchor: right and left
// (centred on the anchor's height, where a reader looks first), above and below, then the four
// corners; then right and left again one and two text heights up and down; then the same farther
// out, so that a label in a cluster still finds a free place nearby (a leader line joins it).
std::vector<ScreenBox> candidates(const LabelRequest& q) {
    std::vector<ScreenBox> out;
    for (int ring = 1; ring <= 9; ++ring) {
        const float d = q.gap * (float)ring + (ring > 1 ? q.h * 0.5f * (float)(ring - 1) : 0.0f);
        const float cx = q.x - q.w / 2, cy = q.y - q.h / 2;
        out.push_back({q.x + d, cy, q.x + d + q.w, cy + q.h});            // right
        out.push_back({q.x - d - q.w, cy, q.x - d, cy + q.h});            // left
        out.push_back({cx, q.y - d - q.h, cx + q.w, q.y - d});            // above
        out.push_back({cx, q.y + d, cx + q.w, q.y + d + q.h});            // below
        out.push_back({q.x + d, q.y - d - q.h, q.x + d + q.w, q.y - d});  // above right
        out.push_back({q.x + d, q.y + d, q.x + d + q.w, q.y + d + q.h});  // below right
        out.push_back({q.x - d - q.w, q.y - d - q.h, q.x - d, q.y - d});  // above left
        out.push_back({q.x - d - q.w, q.y + d, q.x - d, q.y + d + q.h});  // below left
        for (float k : {-1.0f, 1.0f, -2.0f, 2.0f}) {
            const float y0 = cy + k * q.h * 1.1f;
            out.push_back({q.x + d, y0, q.x + d + q.w, y0 + q.h});
            out.push_back({q.x - d - q.w, y0, q.x - d, y0 + q.h});
        }
    }
    // Then farther along the row, in steps of half the label's width (a long label beside a point in a
    // crowded corner finds the open part of the plot; a leader line joins it).
    for (int step = 1; step <= 8; ++step) {
        const float d = q.gap * 9 + q.h * 4 + q.w * 0.5f * (float)step;
        for (float k : {0.0f, -1.1f, 1.1f, -2.2f, 2.2f}) {
            const float y0 = q.y - q.h / 2 + k * q.h;
            out.push_back({q.x + d, y0, q.x + d + q.w, y0 + q.h});
            out.push_back({q.x - d - q.w, y0, q.x - d, y0 + q.h});
        }
    }
    return out;
}

// Moves b the least distance that puts it inside `bounds` (when it fits at all).
ScreenBox clamp_into(ScreenBox b, const ScreenBox& bounds) {
    const float dx = b.x0 < bounds.x0 ? bounds.x0 - b.x0 : b.x1 > bounds.x1 ? std::max(bounds.x1 - b.x1, bounds.x0 - b.x0) : 0;
    const float dy = b.y0 < bounds.y0 ? bounds.y0 - b.y0 : b.y1 > bounds.y1 ? std::max(bounds.y1 - b.y1, bounds.y0 - b.y0) : 0;
    return {b.x0 + dx, b.y0 + dy, b.x1 + dx, b.y1 + dy};
}

}  // namespace

LabelPlacement place_labels(const std::vector<LabelRequest>& labels, const std::vector<ScreenBox>& obstacles,
                            const ScreenBox& bounds, const std::vector<ScreenSegment>& curves) {
    // A curve across a label costs as a band as tall as the label along the length it crosses:
    // comparable with covering part of a marker, and never zero.
    auto cost_of = [&](const ScreenBox& c, const std::vector<ScreenBox>& taken) {
        float cost = 0;
        for (const ScreenBox& t : taken) cost += overlap_area(c, t);
        for (const ScreenSegment& s : curves) cost += crossing_length(s, c) * c.height();
        return cost;
    };
    LabelPlacement p;
    std::vector<ScreenBox> taken = obstacles;
    for (const LabelRequest& q : labels) {
        ScreenBox best{};
        float best_cost = std::numeric_limits<float>::max();
        for (ScreenBox c : candidates(q)) {
            // A spot past the plot's edge slides back inside along the edge (a label of a point
            // near the y axis can still go above it), when it fits at all.
            if (!inside(c, bounds)) c = clamp_into(c, bounds);
            if (!inside(c, bounds)) continue;
            const float cost = cost_of(c, taken);
            if (cost < best_cost) best = c, best_cost = cost;
            if (cost == 0) break;
        }
        if (best_cost == std::numeric_limits<float>::max()) {  // no spot inside: the first, moved in
            best = clamp_into(candidates(q).front(), bounds);
            best_cost = cost_of(best, taken);
        }
        p.overlapping += best_cost > 0;
        p.boxes.push_back(best);
        taken.push_back(best);
    }
    return p;
}

}  // namespace stencil::viewer
