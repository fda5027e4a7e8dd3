// Each kernel version's colour and marker, from its row's look (kernels/versions.h): the OP/B
// chart, the roofline and any legend draw a version the same way. Chosen so that no two versions are alike
// on a projector (tests/viewer/test_version_style.cpp checks the distance between every pair).
#pragma once
#include <optional>
#include <string_view>

#include "kernels/versions.h"
#include "viewer/core/colormap.h"
#include "viewer/core/plot_math.h"

namespace stencil::viewer {

struct VersionStyle {
    Rgb colour;
    MarkerShape marker;
    const char* colour_name;  // for the HelpMarker and the tests' messages
};
const VersionStyle& version_style(KernelId k);
// The chart's marker of that name (a row's look names its marker); nullopt for an unknown name.
std::optional<MarkerShape> marker_named(std::string_view name);

// The markers the OP/B chart keeps for its measured levels (requested, L2, DRAM): no version uses
// them, so a version's model curve is never mistaken for a level's points.
bool is_level_marker(MarkerShape m);

// CIE76 distance between two colours (sRGB, D65 white): about 2.3 is the smallest difference
// people notice side by side; series on a projector need far more.
double colour_distance(Rgb a, Rgb b);
// The smallest colour distance any two versions have (the test's bound).
inline constexpr double kMinVersionColourDistance = 30.0;

}  // namespace stencil::viewer
