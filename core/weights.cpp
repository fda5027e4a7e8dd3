#include "core/weights.h"

#include <random>

namespace stencil {

StencilWeights StencilWeights::rounded_to(Precision p) const {
    StencilWeights w = *this;
    if (p == Precision::f32)
        for (double& v : w.c) v = static_cast<double>(static_cast<float>(v));
    return w;
}

StencilWeights laplacian_weights(int radius) {
    // Central second-derivative weights of accuracy order 2r (Fornberg), one axis, unit spacing.
    static constexpr double kSide[kMaxRadius + 1][kMaxRadius + 1] = {
        {0, 0, 0, 0, 0},
        {-2.0, 1.0, 0, 0, 0},
        {-5.0 / 2, 4.0 / 3, -1.0 / 12, 0, 0},
        {-49.0 / 18, 3.0 / 2, -3.0 / 20, 1.0 / 90, 0},
        {-205.0 / 72, 8.0 / 5, -1.0 / 5, 8.0 / 315, -1.0 / 560},
    };
    StencilWeights w;
    w.radius = radius;
    w.c[0] = 3 * kSide[radius][0];
    for (int d = 1; d <= radius; ++d)
        for (int dir = 0; dir < 6; ++dir)
            w.c[coefficient_index(d, static_cast<Direction>(dir))] = kSide[radius][d];
    return w;
}

StencilWeights random_weights(int radius, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(0.05, 1.0);
    StencilWeights w;
    w.radius = radius;
    for (int n = 0; n < coefficient_count(radius); ++n) w.c[n] = (rng() & 1 ? 1 : -1) * u(rng);
    return w;
}

StencilWeights small_integer_weights(int radius, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<int> u(1, 3);
    StencilWeights w;
    w.radius = radius;
    for (int n = 0; n < coefficient_count(radius); ++n) w.c[n] = (rng() & 1 ? 1 : -1) * u(rng);
    return w;
}

}  // namespace stencil
