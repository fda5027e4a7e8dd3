// Every version's colour and marker from one table (viewer/core/version_style.h): no two versions
// alike on a projector (naive and conv27 were two blues), and the charts draw them from it.
#include <catch2/catch.hpp>

#include <set>

#include "viewer/core/figures.h"
#include "viewer/core/roofline.h"
#include "viewer/core/version_style.h"

using namespace stencil;
using namespace stencil::viewer;

TEST_CASE("version styles: every pair of versions is far apart in colour, and markers differ", "[viewer][colours]") {
    const auto versions = kernel_versions();
    const int a = GENERATE_COPY(range(0, (int)versions.size()));
    const int b = GENERATE_COPY(range(0, (int)versions.size()));
    if (a >= b) return;
    const VersionStyle& x = version_style(versions[a].id);
    const VersionStyle& y = version_style(versions[b].id);
    const double d = colour_distance(x.colour, y.colour);
    CAPTURE(versions[a].name, x.colour_name, versions[b].name, y.colour_name, d);
    REQUIRE((d >= kMinVersionColourDistance && x.marker != y.marker));
}

TEST_CASE("version styles: every row's look names a marker the chart knows", "[viewer][colours]") {
    for (const auto& v : kernel_versions()) {
        INFO(v.name << ": marker " << v.look.marker);
        REQUIRE(marker_named(v.look.marker));
        REQUIRE(version_style(v.id).marker == *marker_named(v.look.marker));
    }
    REQUIRE_FALSE(marker_named("star"));
}

TEST_CASE("version styles: no version takes a measured level's marker", "[viewer][colours]") {
    for (const auto& v : kernel_versions()) {
        CAPTURE(v.name);
        REQUIRE(!is_level_marker(version_style(v.id).marker));
    }
}

TEST_CASE("colour distance: zero for one colour, the old naive / conv27 blues too close", "[viewer][colours]") {
    // The distance itself: the two blues Okabe-Ito lists (the palette these charts once used for
    // naive and conv27) are under the bound; black and white are about 100 apart.
    const Rgb sky{0.34f, 0.71f, 0.91f}, blue{0.00f, 0.45f, 0.70f};
    REQUIRE((colour_distance(sky, sky) == Approx(0).margin(1e-9) && colour_distance(sky, blue) < kMinVersionColourDistance &&
             colour_distance({0, 0, 0}, {1, 1, 1}) == Approx(100).epsilon(0.01)));
}

TEST_CASE("the OP/B chart and the roofline draw each version in its style", "[viewer][colours]") {
    const OpbFigure f = opb_figure(1, Precision::f32, false, {}, {}, std::nullopt);
    int checked = 0;
    for (const auto& v : kernel_versions())
        for (const auto& s : f.series)
            if (s.name.rfind(std::string(v.name) + " (model)", 0) == 0) {
                CAPTURE(v.name, s.name);
                REQUIRE((s.colour == pack(version_style(v.id).colour) && s.marker == version_style(v.id).marker));
                ++checked;
            }
    REQUIRE(checked >= (int)kernel_versions().size());
    RunRecord naive, conv;
    naive.kernel = "naive";
    conv.kernel = "conv27";
    for (RunRecord* r : {&naive, &conv}) r->ms_median = 1, r->flops = 1e9;
    const RooflineFigure roof = roofline_figure({naive, conv}, {}, 1, Precision::f32);
    std::set<std::uint32_t> colours;
    for (const auto& s : roof.series)
        if (s.name == "naive" || s.name == "conv27") colours.insert(s.colour);
    REQUIRE(colours == std::set<std::uint32_t>{pack(version_style(KernelId::naive).colour),
                                               pack(version_style(KernelId::conv27).colour)});
}
