#include "viewer/core/version_style.h"

#include <array>
#include <cmath>
#include <vector>

namespace stencil::viewer {

namespace {

// The marker names a row's look may use (kernels/versions.h): the chart's shapes by name.
struct NamedMarker {
    const char* name;
    MarkerShape shape;
};
constexpr NamedMarker kMarkers[] = {
    {"circle", MarkerShape::circle},   {"square", MarkerShape::square},
    {"diamond", MarkerShape::diamond}, {"triangle", MarkerShape::triangle},
    {"cross", MarkerShape::cross},     {"ring", MarkerShape::ring},
    {"plus", MarkerShape::plus},       {"triangle_down", MarkerShape::triangle_down},
    {"hexagon", MarkerShape::hexagon}, {"square_filled", MarkerShape::square_filled},
};

// One style per row, made once from the rows' looks.
std::vector<VersionStyle> make_styles() {
    std::vector<VersionStyle> styles;
    for (const KernelVersion& v : kernel_versions()) {
        const VersionLook& l = v.look;
        styles.push_back({{l.r, l.g, l.b}, marker_named(l.marker).value_or(MarkerShape::circle), l.colour_name});
    }
    return styles;
}

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

std::optional<MarkerShape> marker_named(std::string_view name) {
    for (const NamedMarker& m : kMarkers)
        if (name == m.name) return m.shape;
    return std::nullopt;
}

const VersionStyle& version_style(KernelId k) {
    static const std::vector<VersionStyle> styles = make_styles();
    return styles[static_cast<size_t>(k)];
}

bool is_level_marker(MarkerShape m) {
    return m == MarkerShape::diamond || m == MarkerShape::triangle || m == MarkerShape::cross;
}

double colour_distance(Rgb a, Rgb b) {
    const auto p = to_lab(a), q = to_lab(b);
    return std::sqrt((p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]) + (p[2] - q[2]) * (p[2] - q[2]));
}

}  // namespace stencil::viewer
