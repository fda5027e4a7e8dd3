#include "kernels/derivative/versions.h"

#include <fmt/format.h>

#include <algorithm>

namespace stencil {

std::string_view to_string(Axis a) { return a == Axis::x ? "x" : a == Axis::y ? "y" : "z"; }

std::span<const DerivativeVersion> derivative_versions() { return kDerivativeTable; }

const DerivativeVersion* find_derivative_version(std::string_view name) {
    for (const auto& v : kDerivativeTable)
        if (name == v.name) return &v;
    return nullptr;
}

std::string derivative_version_names() {
    std::string s;
    for (const auto& v : kDerivativeTable) s += (s.empty() ? "" : ", ") + std::string(v.name);
    return s;
}

std::array<double, 12> derivative_coefficient_values(GridDims g) {
    std::array<double, 12> c{};
    const int extents[3] = {g.nx, g.ny, g.nz};
    for (int axis = 0; axis < 3; ++axis)
        for (int w = 0; w < 4; ++w) c[4 * axis + w] = kEighthOrderWeights[w] / grid_spacing(extents[axis]);
    return c;
}

namespace {
// The two sides across the axis: for x the pencils stack in y (and the square tile spans y too);
// for y and z they stand side by side in x.
int across_extent(Axis a, GridDims g) { return a == Axis::x ? g.ny : g.nx; }
}  // namespace

DerivativeLaunch derivative_launch(DerivativeKernelId k, GridDims g, Precision p) {
    const auto& v = derivative_version(k);
    const int n = axis_extent(g, v.axis), along = derivative_threads_along(k, n);
    DerivativeLaunch l;
    l.smem_bytes = derivative_smem_bytes(k, n, p);
    switch (v.axis) {
        case Axis::x:
            l.block = {along, v.threads_across, 1};
            l.grid = v.tile_along ? Dim3{g.nx / v.tile_along, g.ny / v.tile_across, g.nz}
                                  : Dim3{g.ny / v.tile_across, g.nz, 1};
            break;
        case Axis::y:
            l.block = {v.threads_across, along, 1};
            l.grid = {g.nx / v.tile_across, g.nz, 1};
            break;
        case Axis::z:
            l.block = {v.threads_across, along, 1};
            l.grid = {g.nx / v.tile_across, g.ny, 1};
            break;
    }
    return l;
}

std::optional<std::string> derivative_grid_error(DerivativeKernelId k, GridDims g, Precision p, DeviceLimits lim) {
    const auto& v = derivative_version(k);
    const std::string axis(to_string(v.axis));
    if (g.nx < 1 || g.ny < 1 || g.nz < 1) return "every side of the grid must be at least 1";
    // The kernels index with 32-bit ints, as the post's do.
    if (g.cells() >= (1LL << 31))
        return fmt::format("{}x{}x{} has {} cells: the derivative kernels index with 32-bit ints (at most 2^31 - 1 "
                           "cells)", g.nx, g.ny, g.nz, g.cells());
    const int n = axis_extent(g, v.axis);
    if (std::find(std::begin(kDerivativeExtents), std::end(kDerivativeExtents), n) == std::end(kDerivativeExtents)) {
        std::string built;
        for (int e : kDerivativeExtents) built += (built.empty() ? "" : ", ") + std::to_string(e);
        return fmt::format("{}: the grid's {} extent {} is not built (its shared tile is sized by it at compile "
                           "time, as mx is in the post); built: {}", v.name, axis, n, built);
    }
    const int across = across_extent(v.axis, g);
    if (across % v.tile_across != 0)
        return fmt::format("{}: {} = {} is not a multiple of the tile's {} {}", v.name,
                           v.axis == Axis::x ? "ny" : "nx", across, v.tile_across,
                           v.tile_along ? "rows" : "pencils");
    if (v.tile_along && g.nx % v.tile_along != 0)
        return fmt::format("{}: nx = {} is not a multiple of the tile's {}", v.name, g.nx, v.tile_along);
    if (n % v.cells_per_thread != 0)
        return fmt::format("{}: the {} extent {} is not a multiple of {} (cells per thread)", v.name, axis, n,
                           v.cells_per_thread);
    if (const long long t = derivative_threads_per_block(k, n); t > lim.max_threads_per_block)
        return fmt::format("{}: a {} extent of {} needs {} threads per block (at most {})", v.name, axis, n, t,
                           lim.max_threads_per_block);
    if (const long long s = derivative_smem_bytes(k, n, p); s > lim.max_static_smem_per_block)
        return fmt::format("{}: a {} extent of {} in {} needs {} B of shared memory per block (at most {})", v.name,
                           axis, n, to_string(p), s, lim.max_static_smem_per_block);
    const DerivativeLaunch l = derivative_launch(k, g, p);
    if (l.grid.y > lim.max_grid_yz || l.grid.z > lim.max_grid_yz)
        return fmt::format("{}: the grid needs {} x {} blocks in y and z (at most {})", v.name, l.grid.y, l.grid.z,
                           lim.max_grid_yz);
    return std::nullopt;
}

std::vector<int> derivative_cubic_sizes(DerivativeKernelId k, Precision p, DeviceLimits lim) {
    std::vector<int> out;
    for (int n : kDerivativeExtents)
        if (!derivative_grid_error(k, {n, n, n}, p, lim)) out.push_back(n);
    return out;
}

std::string derivative_tile_name(DerivativeKernelId k, int n) {
    const auto& v = derivative_version(k);
    const int along = tile_along(k, n);
    // x by the other axis: an x tile is along x; a y or z tile is across (x) by along.
    return v.axis == Axis::x ? fmt::format("{}x{}", along, v.tile_across) : fmt::format("{}x{}", v.tile_across, along);
}

std::string derivative_block_name(DerivativeKernelId k, int n) {
    const auto& v = derivative_version(k);
    const int along = derivative_threads_along(k, n);
    return v.axis == Axis::x ? fmt::format("{}x{}", along, v.threads_across)
                             : fmt::format("{}x{}", v.threads_across, along);
}

std::vector<CatalogEntry> derivative_catalog(Precision p) {
    std::vector<CatalogEntry> out;
    for (const auto& v : kDerivativeTable) {
        CatalogEntry e{Problem::derivative, v.name, v.title, v.idea, v.source_file,
                       derivative_block_name(v.id, kPostExtent), {}};
        for (int n : derivative_cubic_sizes(v.id, p)) {
            const std::string tile = derivative_tile_name(v.id, n);  // the square tile's is N's for every N
            if (e.tiles.empty() || e.tiles.back() != tile) e.tiles.push_back(tile);
        }
        out.push_back(std::move(e));
    }
    return out;
}

}  // namespace stencil
