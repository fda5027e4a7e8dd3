// Internal to the model (analysis/model.cpp, warp_pattern.cpp, traffic.cpp): the small formulas
// and checks their files share.
#pragma once
#include <algorithm>
#include <utility>

#include "analysis/model.h"

namespace stencil::analysis::detail {

inline long long cube(long long a) { return a * a * a; }
inline long long sq(long long a) { return a * a; }
// ceil(a / b) for b > 0 and any sign of a (C++ division truncates toward zero).
template <class I>
I ceil_div(I a, I b) { return a >= 0 ? (a + b - 1) / b : -((-a) / b); }

// Throws a UserError for a radius, tile or fused step count the kernel cannot take (model.cpp).
void check_arguments(KernelId k, int T, int radius, int fused = 1);

// The interior planes [begin, end) of z-block b of the streaming kernel (empty: begin >= end), as
// kernels/streaming.cuh computes them from its z-chunk Z.
inline std::pair<int, int> streaming_planes(int b, int Z, int nz, int r) {
    return {std::max(b * Z, r), std::min(b * Z + Z, nz - r)};
}

// The values e of the vector q to the west of a streaming lane (east: the same count, mirrored)
// that a lane at a row's end loads: those within r of its own vector, e >= q V - r.
inline int streaming_end_first(int q, int V, int r) { return std::max(0, q * V - r); }

}  // namespace stencil::analysis::detail
