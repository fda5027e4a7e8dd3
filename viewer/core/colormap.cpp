#include "viewer/core/colormap.h"

#include <algorithm>
#include <cmath>

namespace stencil::viewer {

std::uint32_t pack(Rgb c, float alpha) {
    auto b = [](float v) { return (std::uint32_t)std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f); };
    return b(c.r) | (b(c.g) << 8) | (b(c.b) << 16) | (b(alpha) << 24);
}

Rgb unpack(std::uint32_t c) {
    return {(c & 0xff) / 255.0f, ((c >> 8) & 0xff) / 255.0f, ((c >> 16) & 0xff) / 255.0f};
}

Rgb lerp(Rgb a, Rgb b, float t) {
    return {a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t};
}

Rgb viridis(double t) {
    // Nine samples of matplotlib's viridis, linearly interpolated.
    static constexpr Rgb k[] = {{0.267f, 0.005f, 0.329f}, {0.283f, 0.141f, 0.458f}, {0.254f, 0.265f, 0.530f},
                                {0.207f, 0.372f, 0.553f}, {0.164f, 0.471f, 0.558f}, {0.128f, 0.567f, 0.551f},
                                {0.135f, 0.659f, 0.518f}, {0.267f, 0.749f, 0.441f}, {0.478f, 0.821f, 0.318f},
                                {0.741f, 0.873f, 0.150f}, {0.993f, 0.906f, 0.144f}};
    constexpr int n = sizeof(k) / sizeof(k[0]);
    if (!std::isfinite(t)) t = 0;
    const double x = std::clamp(t, 0.0, 1.0) * (n - 1);
    const int i = std::min(n - 2, (int)x);
    return lerp(k[i], k[i + 1], (float)(x - i));
}

Rgb category(int i) {
    static constexpr Rgb k[] = {{0.34f, 0.71f, 0.91f}, {0.90f, 0.62f, 0.00f}, {0.00f, 0.62f, 0.45f},
                                {0.80f, 0.47f, 0.65f}, {0.94f, 0.89f, 0.26f}, {0.00f, 0.45f, 0.70f},
                                {0.84f, 0.37f, 0.00f}, {0.75f, 0.75f, 0.75f}};
    return k[((i % 8) + 8) % 8];
}

Rgb warp_colour(int w) {
    // HSV with hue stepped by the golden angle; two brightness levels alternate.
    const double h = std::fmod(w * 0.618033988749895, 1.0) * 6.0;
    const float s = 0.65f, v = (w % 2) ? 0.80f : 0.95f;
    const int i = (int)h;
    const float f = (float)(h - i), p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f));
    switch (i % 6) {
        case 0: return {v, t, p};
        case 1: return {q, v, p};
        case 2: return {p, v, t};
        case 3: return {p, q, v};
        case 4: return {t, p, v};
        default: return {v, p, q};
    }
}

}  // namespace stencil::viewer
