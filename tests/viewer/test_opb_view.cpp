// The OP/B chart tells one story at a time (viewer/core/opb_view.h): presets, a legend click, the
// axes fitted to what is shown, and each shown series' limits drawn for it.
#include <catch2/catch.hpp>

#include <algorithm>

#include "viewer/core/figures.h"
#include "viewer/core/opb_view.h"

using namespace stencil;
using namespace stencil::viewer;

namespace {

const OpbFigure& full() {
    static const OpbFigure f = opb_figure(1, Precision::f32, false, {}, {}, std::nullopt);
    return f;
}

std::vector<std::string> shown_groups(const OpbFigure& v) {
    std::vector<std::string> g;
    for (const auto& s : v.series)
        if (!s.hidden && !s.group.empty() && std::find(g.begin(), g.end(), s.group) == g.end()) g.push_back(s.group);
    std::sort(g.begin(), g.end());
    return g;
}

const RefLine* limit_of(const OpbFigure& v, const std::string& owner) {
    for (const auto& r : v.refs)
        if (r.horizontal && std::find(r.owners.begin(), r.owners.end(), owner) != r.owners.end()) return &r;
    return nullptr;
}

}  // namespace

TEST_CASE("OP/B stories: the presets show their kernels and only those, on one scale", "[viewer][opb]") {
    const OpbFigure textbook = opb_view(full(), selection_of(0), 1, Precision::f32, false);
    CHECK(shown_groups(textbook) == std::vector<std::string>{"coarsened", "naive", "register-tiled", "tiled"});
    for (const auto& s : textbook.series) CHECK(s.name.find("per byte moved") == std::string::npos);
    const OpbFigure beyond = opb_view(full(), selection_of(2), 1, Precision::f32, false);
    CHECK(shown_groups(beyond) ==
          std::vector<std::string>{"streaming", "temporal K=1", "temporal K=2", "temporal K=3", "temporal K=4"});
    CHECK(beyond.y.label.find("per byte moved") != std::string::npos);
    CHECK(find_opb_preset("tiled") == &opb_presets()[1]);
    CHECK(!find_opb_preset("everything"));
    CHECK(opb_preset_keys() == "textbook, tiled, beyond, loaded");
}

TEST_CASE("OP/B stories: tiled against T fits its axes to T = 3..10, with its own bound", "[viewer][opb]") {
    const OpbFigure v = opb_view(full(), selection_of(1), 1, Precision::f32, false);
    CHECK((v.x.lo >= 2 && v.x.lo <= 3 && v.x.hi >= 10 && v.x.hi <= 11));  // was 0..33: T = 3..10 in its first 15%
    const RefLine* single = limit_of(v, "tiled");
    REQUIRE(single);
    CHECK(single->value == Approx(3.25));
    CHECK(v.y.hi >= 3.25);
    const bool bound = std::any_of(v.refs.begin(), v.refs.end(), [](const RefLine& r) { return !r.horizontal && r.value == 10; });
    CHECK(bound);
    // The coarsened T = 32 textbook point is not tiled's: left out with its kernel.
    for (const auto& p : v.points) CHECK(p.x <= 10);
    // The naive line spans the fitted axis (no T in its model).
    for (const auto& s : v.series)
        if (s.group == "naive" && !s.markers) CHECK((s.x.front() == v.x.lo && s.x.back() == v.x.hi));
}

TEST_CASE("OP/B stories: temporal's K steps each under their own limit, K times one step's", "[viewer][opb]") {
    const OpbFigure v = opb_view(full(), selection_of(2), 1, Precision::f32, false);
    for (int K = 1; K <= 4; ++K) {
        CAPTURE(K);
        const std::string g = "temporal K=" + std::to_string(K);
        const double lim = group_limit(g, 1, Precision::f32);
        CHECK(lim == Approx(K * 13.0 / 8));
        const RefLine* line = limit_of(v, g);
        REQUIRE(line);
        CHECK(line->value == Approx(lim));
        for (const auto& s : v.series)
            if (s.group == g)
                for (double y : s.y) CHECK(y <= lim);
    }
    // Each K in its own colour (they were one colour, told apart by the dash alone).
    std::vector<std::uint32_t> colours;
    for (const auto& s : v.series)
        if (s.group.rfind("temporal", 0) == 0) colours.push_back(s.colour);
    std::sort(colours.begin(), colours.end());
    CHECK(std::unique(colours.begin(), colours.end()) - colours.begin() == 4);
}

TEST_CASE("OP/B stories: a legend click hides and shows a kernel, and the axes follow", "[viewer][opb]") {
    OpbSelection s = selection_of(0);
    toggle_group(s, "coarsened");
    toggle_group(s, "register-tiled");
    CHECK(s.preset == -1);
    const OpbFigure v = opb_view(full(), s, 1, Precision::f32, false);
    CHECK(shown_groups(v) == std::vector<std::string>{"naive", "tiled"});
    CHECK(v.x.hi <= 11);  // coarsened's T = 32 no longer stretches the axis
    for (const auto& sr : v.series)
        if (sr.group == "coarsened") CHECK((sr.hidden && sr.in_legend));  // listed, to click back on
    toggle_group(s, "coarsened");
    CHECK(opb_view(full(), s, 1, Precision::f32, false).x.hi >= 32);
    // Lecture mode's compact chart: hidden kernels out of the legend, short point labels.
    const OpbFigure compact = opb_view(full(), s, 1, Precision::f32, false, true);
    for (const auto& sr : compact.series)
        if (sr.hidden) CHECK(!sr.in_legend);
    for (const auto& p : compact.points) CHECK(p.label.rfind("textbook ", 0) == 0);
}
