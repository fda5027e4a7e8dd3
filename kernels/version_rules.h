// The tile rules at compile time: what the launch code needs to choose its instantiations
// (kernels/dispatch.h, backends/*/launch units) and what kernels/versions.cpp answers at run time.
// Only those include this header; everything else asks kernels/versions.h, whose functions are
// these rules behind a call.
#pragma once
#include "kernels/version_shapes.h"

namespace stencil::rules {

// The tile sizes the backends instantiate for the templated kernels. Every valid T from 3 to 10
// (all the tiled kernel can have), then a spread up to 32 for the z-marching kernels, and 48 and 64
// (only temporal's strips fit a block past 32): compile time grows with every instantiation, on
// two backends.
inline constexpr int kBuiltTiles[] = {3, 4, 5, 6, 7, 8, 9, 10, 12, 16, 20, 24, 28, 32, 48, 64};

constexpr bool marches_in_z(KernelId k) { return shape_of(k).threads != ThreadShape::cube; }

// Points each output multiplies: the star's 6r + 1, or the dense cube's (2r+1)^3.
constexpr int executed_points(KernelId k, int radius) {
    return shape_of(k).weights == WeightLayout::dense_cube ? dense_point_count(radius) : point_count(radius);
}

constexpr int steps_per_launch(KernelId k, int fused) { return shape_of(k).max_fused_steps > 1 && fused > 1 ? fused : 1; }

constexpr int out_tile(KernelId k, int T, int radius, int fused = 1) {
    return shape_of(k).halo_in_tile ? T - 2 * radius * rules::steps_per_launch(k, fused) : T;
}

constexpr int cells_per_thread(KernelId k, int bytes) {
    switch (shape_of(k).threads) {
        case ThreadShape::warp_rows: return kRowVectorBytes / bytes;
        case ThreadShape::warp_strips: return temporal_lane_cells(bytes);
        default: return 1;
    }
}

constexpr int out_width(KernelId k, int T, int radius, int bytes, int fused = 1) {
    switch (shape_of(k).threads) {
        case ThreadShape::warp_rows: return 32 * rules::cells_per_thread(k, bytes);
        case ThreadShape::warp_strips:
            return 32 * rules::cells_per_thread(k, bytes) - 2 * radius * rules::steps_per_launch(k, fused);
        default: return rules::out_tile(k, T, radius, fused);
    }
}

constexpr int block_side_x(KernelId k, int T) {
    const ThreadShape s = shape_of(k).threads;
    return s == ThreadShape::warp_rows || s == ThreadShape::warp_strips ? 32 : T;
}
constexpr int block_side_y(KernelId k, int T) {
    return shape_of(k).threads == ThreadShape::warp_strips ? T / kTemporalStripRows : T;
}
constexpr int rows_per_thread(KernelId k) {
    return shape_of(k).threads == ThreadShape::warp_strips ? kTemporalStripRows : 1;
}

constexpr long long threads_per_block(KernelId k, int T) {
    switch (shape_of(k).threads) {
        case ThreadShape::cube: return (long long)T * T * T;
        case ThreadShape::plane: return (long long)T * T;
        case ThreadShape::warp_rows: return 32LL * T;
        case ThreadShape::warp_strips: return 32LL * (T / kTemporalStripRows);
    }
    return 0;
}

constexpr long long shared_cells(KernelId k, int T, int radius, int bytes, int fused = 1) {
    const long long plane = (long long)T * T;
    switch (shape_of(k).shared) {
        case SharedTile::none: return 0;
        case SharedTile::whole_tile: return T * plane;
        case SharedTile::stencil_planes: return (2 * radius + 1) * plane;
        case SharedTile::one_plane: return plane;
        case SharedTile::halo_plane: return (long long)(T + 2 * radius) * (T + 2 * radius);
        case SharedTile::strip_edges:
            return (long long)rules::steps_per_launch(k, fused) * (T / kTemporalStripRows) * 2 * radius * 32 *
                   rules::cells_per_thread(k, bytes);
        case SharedTile::row_tile: return 2LL * (T + 2 * radius) * 32 * rules::cells_per_thread(k, bytes);
    }
    return 0;
}

constexpr long long smem_bytes(KernelId k, int T, int radius, int bytes, int fused = 1) {
    return rules::shared_cells(k, T, radius, bytes, fused) * bytes;
}

// Whether the version's shared memory is the launch's dynamic shared memory (an extern __shared__
// array sized at launch: temporal's edges, past 48 KiB on large tiles) rather than a static array.
constexpr bool smem_is_dynamic(KernelId k) { return shape_of(k).shared == SharedTile::strip_edges; }
constexpr long long smem_limit(KernelId k, DeviceLimits lim) {
    return rules::smem_is_dynamic(k) ? lim.max_dynamic_smem_per_block : lim.max_static_smem_per_block;
}

constexpr bool tile_fits(KernelId k, int T, int radius, int bytes, DeviceLimits lim = {}) {
    const VersionShape& v = shape_of(k);
    if (T < 1 || radius < 1 || radius > kMaxRadius) return false;
    if (v.halo_in_tile && T <= 2 * radius) return false;
    if (v.threads == ThreadShape::warp_rows && T < radius) return false;  // halo rows
    if (v.threads == ThreadShape::warp_strips && T % kTemporalStripRows != 0) return false;
    if (rules::threads_per_block(k, T) > lim.max_threads_per_block) return false;
    return rules::smem_bytes(k, T, radius, bytes) <= rules::smem_limit(k, lim);
}

constexpr bool tile_is_built(KernelId k, int T) {
    if (!shape_of(k).tile_is_template) return true;
    for (int t : kBuiltTiles)
        if (t == T) return true;
    return false;
}

// fuse_fits holds one rule for both precisions: the narrower tile's, fp64's (8-byte values: 32
// cells wide for warp_strips).
inline constexpr int kFuseRuleValueBytes = 8;

// Whether a launch may fuse `fused` steps, in either precision: its K halos must leave output
// cells in the narrower tile (kFuseRuleValueBytes). Shared memory never limits
// it on any GPU since Volta: with K, r <= 4 and 2rK < 32, 2rK <= 24 edge rows a strip, so the
// edges of a T = 64 tile stop at 16 strips x 24 rows x 256 B = 96 KiB (tests/kernels/test_versions.cpp).
constexpr bool fuse_fits(KernelId k, int T, int radius, int fused) {
    const VersionShape& v = shape_of(k);
    if (v.max_fused_steps <= 1) return fused == 1;
    if (fused < 1 || fused > v.max_fused_steps) return false;
    return rules::out_tile(k, T, radius, fused) >= 1 && rules::out_width(k, T, radius, kFuseRuleValueBytes, fused) >= 1;
}

}  // namespace stencil::rules
