// Where the text labels of a chart go, without ImGui: each label is tried at spots around its
// anchor (right, left, above, below, then the corners, then twice and three times as far) and
// takes the first that stays inside the plot and covers no marker, no curve, no other label and
// nothing the caller reserved (the legend, a reference line's label). The widget measures the texts
// and draws them where this says; what was drawn is measured again afterwards by label_hits (the
// sidecar's label_hits, held at 0 in CI), so a label on a curve is seen even if placement is wrong.
#pragma once
#include <vector>

namespace stencil::viewer {

struct ScreenBox {
    float x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // screen pixels, y down
    float width() const { return x1 - x0; }
    float height() const { return y1 - y0; }
};
bool overlap(const ScreenBox& a, const ScreenBox& b);  // interiors intersect (touching edges do not)
float overlap_area(const ScreenBox& a, const ScreenBox& b);
bool inside(const ScreenBox& inner, const ScreenBox& outer);
// The square a marker of radius r centred on (x, y) covers.
ScreenBox marker_box(float x, float y, float r);
// From (x, y) to the nearest point of b (0 inside): a label placed farther than its gap gets a
// leader line to its point.
float distance_to(const ScreenBox& b, float x, float y);

// A piece of a drawn curve (a series' line between two points, a reference line), screen pixels.
struct ScreenSegment {
    float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};
// The length of `s` inside `b` (0: the segment misses the box), by clipping it to the box.
float crossing_length(const ScreenSegment& s, const ScreenBox& b);

struct LabelRequest {
    float x = 0, y = 0;  // the anchor: the point the label names
    float w = 0, h = 0;  // the text's size as drawn
    float gap = 4;       // between the anchor and the label's nearest edge (the marker's radius and more)
};
struct LabelPlacement {
    std::vector<ScreenBox> boxes;  // one per request, in order
    // Labels that could not avoid everything (placed where they cover least): 0 unless the plot
    // is too crowded for its texts. The screenshot sidecars report it and CI holds it at 0.
    int overlapping = 0;
};
// obstacles: markers and reserved areas; curves: the lines drawn (a label may not lie across one);
// bounds: where labels may go (the plot rectangle).
LabelPlacement place_labels(const std::vector<LabelRequest>& labels, const std::vector<ScreenBox>& obstacles,
                            const ScreenBox& bounds, const std::vector<ScreenSegment>& curves = {});

// What a drawn chart's labels cover, measured from the boxes drawn: labels on a marker, labels
// across a curve (more than `tolerance` pixels of it inside the box: a curve grazing a corner
// reads as beside the text), and pairs of labels on each other.
struct LabelHits {
    int markers = 0, curves = 0, labels = 0;
    int total() const { return markers + curves + labels; }
};
LabelHits label_hits(const std::vector<ScreenBox>& labels, const std::vector<ScreenBox>& markers,
                     const std::vector<ScreenSegment>& curves, float tolerance = 1.0f);

}  // namespace stencil::viewer
