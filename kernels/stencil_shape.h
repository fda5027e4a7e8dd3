// The star stencil's shape and the layout of its coefficients: plain C++ that the kernels, the
// reference, the model and the viewer all include, so that "which weight goes with which
// neighbour" is written down exactly once.
#pragma once

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define STENCIL_HD __host__ __device__
#else
#define STENCIL_HD
#endif

namespace stencil {

// Radius r of a 3D star stencil: 6r + 1 points (r = 1 is the textbook's 7-point stencil).
inline constexpr int kMaxRadius = 4;

// Coefficients: the centre first, then for each distance d = 1..r the six neighbours in the
// textbook's order (x-d, x+d, y-d, y+d, z-d, z+d). For r = 1 this is exactly c0..c6 of the
// textbook listings: c1 = x-1, c2 = x+1, c3 = y-1, c4 = y+1, c5 = z-1, c6 = z+1.
enum Direction { XM = 0, XP = 1, YM = 2, YP = 3, ZM = 4, ZP = 5 };
inline constexpr int kMaxCoefficients = 1 + 6 * kMaxRadius;

STENCIL_HD constexpr int coefficient_count(int radius) { return 1 + 6 * radius; }
STENCIL_HD constexpr int coefficient_index(int d, Direction dir) { return 1 + 6 * (d - 1) + dir; }
STENCIL_HD constexpr int point_count(int radius) { return 1 + 6 * radius; }
// FLOPs per output: 6r + 1 multiplies and 6r adds (13 for the 7-point stencil: 7 mul + 6 add).
STENCIL_HD constexpr int flops_per_point(int radius) { return 2 * point_count(radius) - 1; }

}  // namespace stencil
