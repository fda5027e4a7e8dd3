// The OP/B chart's measured points (viewer/core/figures.h): each kernel in its model curve's
// colour, each level (requested, L2, DRAM) with its own marker, keyed once in the legend; the
// limit equal to analysis::model's at every r; the halo share of one slice of the 3D tile.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "viewer/core/figures.h"
#include "tests/viewer/viewer_test_support.h"

using namespace stencil;
using namespace stencil::viewer;
using stencil::viewer::test::committed_sweep;

namespace {
const Series* named(const OpbFigure& f, const std::string& name) {
    for (const auto& s : f.series)
        if (s.name == name) return &s;
    return nullptr;
}
// A kernel's model curve ("register-tiled (model) = coarsened" included).
const Series* model_of(const OpbFigure& f, const std::string& kernel) {
    for (const auto& s : f.series)
        if (s.name.rfind(kernel + " (model)", 0) == 0) return &s;
    return nullptr;
}
}  // namespace

TEST_CASE("OP/B chart: measured points told apart by kernel (colour) and level (marker)", "[viewer][figures]") {
    const ResultsFile file = load_results(committed_sweep());
    const OpbFigure f = opb_figure(1, Precision::f32, false, {}, file.runs, std::nullopt);
    std::set<MarkerShape> level_markers;
    int measured = 0;
    for (const char* level : {"requested", "L2", "DRAM"}) {
        std::set<std::uint32_t> colours;
        std::set<MarkerShape> markers;
        for (const auto& v : kernel_versions())
            if (const Series* s = named(f, std::string(v.name) + " (runs, " + level + ")")) {
                const Series* model = model_of(f, v.name);
                CAPTURE(v.name, level);
                // The kernel's colour, no line, not listed (the level's key is).
                REQUIRE((model && s->colour == model->colour && !s->line && !s->in_legend && !s->x.empty()));
                colours.insert(s->colour);
                markers.insert(s->marker);
                measured += (int)s->x.size();
            }
        CAPTURE(level);
        // The sweep has tiled, coarsened and register-tiled at least: distinct colours, one marker.
        REQUIRE((colours.size() >= 3 && markers.size() == 1));
        level_markers.insert(*markers.begin());
    }
    REQUIRE(level_markers.size() == 3);
    REQUIRE(measured == f.requested_points + f.l2_points + f.dram_points);
    // The legend: one model curve per kernel and one key per level, far fewer than the series.
    const auto listed = std::count_if(f.series.begin(), f.series.end(), [](const Series& s) { return s.in_legend; });
    REQUIRE((listed == (long)kernel_versions().size() + 3 && f.series.size() > (size_t)listed + 6));
}

TEST_CASE("OP/B chart: the drawn limit equals analysis::model's opb_limit at every r", "[viewer][figures]") {
    const int r = GENERATE(1, 2, 3, 4);
    const auto p = GENERATE(Precision::f32, Precision::f64);
    CAPTURE(r, to_string(p));
    const OpbFigure f = opb_figure(r, p, false, {}, {}, std::nullopt);
    REQUIRE((f.model_limit > 0 && f.refs.at(0).value == f.model_limit));
}

TEST_CASE("OP/B chart: the textbook point is said as the textbook, not 'seed'", "[viewer][figures]") {
    const OpbFigure f = opb_figure(1, Precision::f32, false, {}, {}, std::nullopt);
    REQUIRE(std::all_of(f.points.begin(), f.points.end(), [](const RefPoint& p) {
        return p.label.rfind("textbook: ", 0) == 0 && p.label.find("seed") == std::string::npos;
    }));
}

TEST_CASE("halos: the share of one slice of the 3D tile", "[viewer][figures]") {
    // T = 8, r = 1: slice 0 is all halo (64 cells: 36 read by the z neighbour, 28 on its edges
    // never read); slice 4 is a ring of 28 around the 6x6 output square, its 4 corners never read.
    const auto [z, halo, unread] = GENERATE(table<int, long long, long long>({{0, 64, 28}, {7, 64, 28}, {4, 28, 4}}));
    CAPTURE(z);
    const HaloFigure h = halo_figure(8, 1, 3, z);
    const long long cells = h.slice_counts.halo_read + h.slice_counts.halo_unread + h.slice_counts.output;
    REQUIRE((cells == 64 && h.slice_counts.halo_read + h.slice_counts.halo_unread == halo &&
             h.slice_counts.halo_unread == unread && h.slice_fraction == Approx(double(halo) / 64) &&
             h.slice_text.find(std::to_string(halo) + " of 64") != std::string::npos));
    // Summed over every slice: the tile's own counts.
    HaloCounts sum;
    for (int k = 0; k < 8; ++k) {
        const HaloCounts c = halo_slice_counts(8, 1, k);
        sum.output += c.output, sum.halo_read += c.halo_read, sum.halo_unread += c.halo_unread;
    }
    const HaloCounts all = halo_counts(8, 1, 3);
    REQUIRE((sum.output == all.output && sum.halo_read == all.halo_read && sum.halo_unread == all.halo_unread));
}
