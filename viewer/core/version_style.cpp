#include "viewer/core/version_style.h"

#include <array>
#include <cmath>

namespace stencil::viewer {

namespace {

// Okabe-Ito's hues where they stay apart on a dark background (its blue sat next to its sky blue:
// naive and conv27 looked alike), and a lavender for the seventh. Markers: none of the levels'
// (diamond, triangle, cross); coarsened and register-tiled share a curve, so register-tiled's
// hollow square goes round coarsened's filled dot.
constexpr std::array<VersionStyle, kVersionTable.size()> kStyles{{
    {{0.34f, 0.71f, 0.91f}, MarkerShape::ring, "sky blue"},           // naive
    {{0.90f, 0.62f, 0.00f}, MarkerShape::plus, "orange"},             // tiled
    {{0.00f, 0.62f, 0.45f}, MarkerShape::circle, "bluish green"},     // coarsened
    {{0.80f, 0.47f, 0.65f}, MarkerShape::square, "reddish purple"},   // register-tiled
    {{0.94f, 0.89f, 0.26f}, MarkerShape::triangle_down, "yellow"},    // streaming
    {{0.84f, 0.37f, 0.00f}, MarkerShape::hexagon, "vermillion"},      // conv27
    {{0.62f, 0.55f, 0.98f}, MarkerShape::square_filled, "lavender"},  // temporal
}};

// sRGB (0..1) to CIE L*a*b* under D65.
std::array<double, 3> to_lab(Rgb c) {
    auto linear = [](double u) { return u <= 0.04045 ? u / 12.92 : std::pow((u + 0.055) / 1.055, 2.4); };
    const double r = linear(c.r), g = linear(c.g), b = linear(c.b);
    const double x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
    const double y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    const double z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
    auto f = [](double t) { return t > 0.008856 ? std::cbrt(t) : 7.787 * t + 16.0 / 116.0; };
    return {116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))};
}

}  // namespace

const VersionStyle& version_style(KernelId k) { return kStyles[static_cast<size_t>(k)]; }

bool is_level_marker(MarkerShape m) {
    return m == MarkerShape::diamond || m == MarkerShape::triangle || m == MarkerShape::cross;
}

double colour_distance(Rgb a, Rgb b) {
    const auto p = to_lab(a), q = to_lab(b);
    return std::sqrt((p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]) + (p[2] - q[2]) * (p[2] - q[2]));
}

}  // namespace stencil::viewer
