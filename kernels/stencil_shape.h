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

// The temporal kernel's strip (kernels/temporal.cuh): each thread owns kTemporalStripRows rows of
// the tile, and in each row kTemporalLaneBytes of consecutive cells (2 floats or 1 double), so a
// warp spans 256 bytes of a row whatever the precision: a tile 64 cells wide in fp32, 32 in fp64.
// Its launch (kernels/versions.h: 32 x T / 4 threads), its shared memory and the model follow from
// these two numbers. Why these (bench/temporal/, docs/results/): strips of 4 rows hold fewer
// registers than 8 and so more warps an SM, and two fp32 cells a lane halve the halo's share of a
// tile's width; two fp64 cells a lane would double a thread's registers.
inline constexpr int kTemporalStripRows = 4;
inline constexpr int kTemporalLaneBytes = 8;
STENCIL_HD constexpr int temporal_lane_cells(int bytes) { return kTemporalLaneBytes / bytes; }

// The registers a thread of the streaming kernel (kernels/streaming.cuh) may use, which its
// __launch_bounds__ asks for; the model reports it. The fewer, the more warps an SM holds and the
// more loads are in flight to hide the memory's latency, until the thread's arrays (the queue's
// 2r + 1 vectors and the row's 2Q + 1, four registers each) no longer fit and it spills. The values
// are the fastest of every cap from 32 to 128 measured on an H100 at each radius, in both
// precisions (`stencil-zmarch-variants 512 bounds`, docs/results/h100-issue31-s8/); left to
// itself, ptxas holds fewer warps an SM and runs slower.
STENCIL_HD constexpr int streaming_register_budget(int radius) {
    return radius == 1 ? 48 : radius <= 3 ? 64 : 80;
}
// The blocks of `threads` an SM must hold for that budget out of its 64 K registers
// (__launch_bounds__' second argument); at least 1.
STENCIL_HD constexpr int streaming_min_blocks(int threads, int radius) {
    const int blocks = 65536 / streaming_register_budget(radius) / threads;
    return blocks > 1 ? blocks : 1;
}

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

// The same stencil as a dense (2r+1)^3 convolution (kernels/conv27.cuh): every offset of the cube
// gets a weight, zero off the three axes. 27 points at r = 1, hence conv27; 2p - 1 FLOPs as above.
STENCIL_HD constexpr int dense_edge(int radius) { return 2 * radius + 1; }
STENCIL_HD constexpr int dense_point_count(int radius) {
    return dense_edge(radius) * dense_edge(radius) * dense_edge(radius);
}
STENCIL_HD constexpr int dense_flops_per_point(int radius) { return 2 * dense_point_count(radius) - 1; }
// Offset (dx, dy, dz), each in -r..r, as an index of the dense cube: x fastest, like the grid.
STENCIL_HD constexpr int dense_index(int dx, int dy, int dz, int radius) {
    return ((dz + radius) * dense_edge(radius) + (dy + radius)) * dense_edge(radius) + (dx + radius);
}
// The star coefficient (the layout above) that offset (dx, dy, dz) carries; -1 off the axes, where
// the dense weight is zero.
STENCIL_HD constexpr int star_index_of_offset(int dx, int dy, int dz) {
    const int off_axis = (dx != 0) + (dy != 0) + (dz != 0);
    if (off_axis == 0) return 0;
    if (off_axis > 1) return -1;
    if (dx != 0) return coefficient_index(dx < 0 ? -dx : dx, dx < 0 ? XM : XP);
    if (dy != 0) return coefficient_index(dy < 0 ? -dy : dy, dy < 0 ? YM : YP);
    return coefficient_index(dz < 0 ? -dz : dz, dz < 0 ? ZM : ZP);
}

}  // namespace stencil
