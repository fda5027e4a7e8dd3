// Colours the panels use, as packed 0xAABBGGRR words (the layout of ImGui's IM_COL32), so this
// file needs no ImGui. Chosen for a projector: saturated, distinguishable by people with the
// common colour-vision deficiencies (Okabe-Ito for categories, viridis for magnitudes).
#pragma once
#include <cstdint>

namespace stencil::viewer {

struct Rgb {
    float r = 0, g = 0, b = 0;  // 0..1
};

std::uint32_t pack(Rgb c, float alpha = 1.0f);
Rgb unpack(std::uint32_t c);
Rgb lerp(Rgb a, Rgb b, float t);

// Viridis, t in 0..1 (clamped): dark blue -> green -> yellow.
Rgb viridis(double t);
// Category i of the 8 Okabe-Ito colours (wraps), for series and kernels.
Rgb category(int i);
// A distinct colour for warp w of a block: 32 hues spaced by the golden angle, so neighbouring
// warps contrast.
Rgb warp_colour(int w);

// Named colours of the lab's figures.
namespace palette {
inline constexpr Rgb output{0.00f, 0.62f, 0.45f};   // output cells (bluish green)
inline constexpr Rgb halo{0.90f, 0.62f, 0.00f};     // halo cells (orange)
inline constexpr Rgb loaded{0.34f, 0.71f, 0.91f};   // loaded once (sky blue)
inline constexpr Rgb reloaded{0.84f, 0.37f, 0.00f}; // loaded again (vermillion)
inline constexpr Rgb idle{0.30f, 0.30f, 0.33f};     // idle threads / not yet loaded
inline constexpr Rgb outside{0.12f, 0.12f, 0.13f};  // beyond the grid
inline constexpr Rgb model{0.80f, 0.80f, 0.80f};    // model curves when one colour is needed
}  // namespace palette

}  // namespace stencil::viewer
