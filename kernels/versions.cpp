#include "kernels/versions.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace stencil {

namespace {
constexpr std::array<KernelVersion, 4> kVersions{{
    {KernelId::naive, "naive", "Naive",
     "one thread per output; all 6r+1 neighbours straight from global memory",
     "kernels/naive.cuh", 8, false},
    {KernelId::tiled, "tiled", "Shared-memory tiled",
     "a block loads a T^3 input tile into shared memory; (T-2r)^3 inner threads compute",
     "kernels/tiled.cuh", 8, true},
    {KernelId::coarsened, "coarsened", "Thread-coarsened",
     "a T^2 block marches along z, keeping 2r+1 planes in shared memory",
     "kernels/coarsened.cuh", 32, true},
    {KernelId::register_tiled, "register-tiled", "Register-tiled",
     "as coarsened, but only the current plane is shared; z-neighbours stay in registers",
     "kernels/register_tiled.cuh", 32, true},
}};

int ceil_div(int a, int b) { return (a + b - 1) / b; }
}  // namespace

std::string_view to_string(Precision p) { return p == Precision::f32 ? "f32" : "f64"; }

std::optional<Precision> parse_precision(std::string_view s) {
    if (s == "f32" || s == "float" || s == "fp32") return Precision::f32;
    if (s == "f64" || s == "double" || s == "fp64") return Precision::f64;
    return std::nullopt;
}

std::span<const KernelVersion> kernel_versions() { return kVersions; }

const KernelVersion& version(KernelId id) { return kVersions[static_cast<int>(id)]; }

const KernelVersion* find_version(std::string_view name) {
    for (const auto& v : kVersions)
        if (name == v.name) return &v;
    if (name == "register_tiled" || name == "register") return &version(KernelId::register_tiled);
    return nullptr;
}

std::string version_names() {
    std::string s;
    for (const auto& v : kVersions) {
        if (!s.empty()) s += ", ";
        s += v.name;
    }
    return s;
}

std::optional<std::string> tile_error(KernelId k, int T, int radius, Precision p,
                                      DeviceLimits lim) {
    const auto& v = version(k);
    const int bytes = bytes_of(p);
    if (radius < 1 || radius > kMaxRadius)
        return fmt::format("radius {} is outside 1..{}", radius, kMaxRadius);
    if (T < 1) return fmt::format("tile {} must be at least 1", T);
    if (k != KernelId::naive && T <= 2 * radius)
        return fmt::format("{}: tile T={} leaves no output cells: T must exceed 2r = {} "
                           "(OUT_TILE_DIM = T - 2r = {})",
                           v.name, T, 2 * radius, T - 2 * radius);
    if (long long t = threads_per_block(k, T); t > lim.max_threads_per_block)
        return fmt::format("{}: tile T={} needs {} threads per block ({}), more than the {} a "
                           "block may have",
                           v.name, T, t, k == KernelId::naive || k == KernelId::tiled ? "T^3" : "T^2",
                           lim.max_threads_per_block);
    if (long long s = smem_bytes(k, T, radius, bytes); s > lim.max_static_smem_per_block)
        return fmt::format("{}: tile T={}, r={}, {} needs {} B of shared memory per block, more "
                           "than the {} B a static __shared__ array may use",
                           v.name, T, radius, to_string(p), s, lim.max_static_smem_per_block);
    if (!tile_is_built(k, T)) {
        std::string built;
        for (int t : runnable_tiles(k, radius, p, lim)) {
            if (!built.empty()) built += ',';
            built += std::to_string(t);
        }
        return fmt::format("{}: tile T={} is valid but not compiled into this build (IN_TILE_DIM "
                           "is a template parameter); built tiles for r={}, {}: {}",
                           v.name, T, radius, to_string(p), built);
    }
    return std::nullopt;
}

std::vector<int> runnable_tiles(KernelId k, int radius, Precision p, DeviceLimits lim) {
    std::vector<int> out;
    if (k == KernelId::naive) {
        for (int t = 1; t <= 32; ++t)
            if (tile_fits(k, t, radius, bytes_of(p), lim)) out.push_back(t);
        return out;
    }
    for (int t : kBuiltTiles)
        if (tile_fits(k, t, radius, bytes_of(p), lim)) out.push_back(t);
    return out;
}

LaunchGeometry launch_geometry(KernelId k, int T, int radius, Precision p, GridDims g) {
    LaunchGeometry geo;
    geo.smem_bytes = smem_bytes(k, T, radius, bytes_of(p));
    switch (k) {
        case KernelId::naive:
            geo.block = {T, T, T};
            geo.grid = {ceil_div(g.nx, T), ceil_div(g.ny, T), ceil_div(g.nz, T)};
            geo.out_tile = geo.out_planes = T;
            break;
        case KernelId::tiled: {
            const int out = T - 2 * radius;
            geo.block = {T, T, T};
            geo.grid = {ceil_div(g.nx, out), ceil_div(g.ny, out), ceil_div(g.nz, out)};
            geo.out_tile = geo.out_planes = out;
            break;
        }
        case KernelId::coarsened:
        case KernelId::register_tiled: {
            const int out = T - 2 * radius;
            geo.block = {T, T, 1};
            geo.grid = {ceil_div(g.nx, out), ceil_div(g.ny, out), ceil_div(g.nz, out)};
            geo.out_tile = geo.out_planes = out;
            break;
        }
    }
    return geo;
}

std::optional<std::string> grid_error(GridDims g, int radius) {
    const int min_side = 2 * radius + 1;
    if (g.nx < min_side || g.ny < min_side || g.nz < min_side)
        return fmt::format("grid {}x{}x{} is too small for radius {}: every side needs at least "
                           "2r + 1 = {} cells",
                           g.nx, g.ny, g.nz, radius, min_side);
    // Threads of the last blocks compute (unused) offsets up to a tile past the far faces, so
    // the 32-bit bound keeps 34 planes of room.
    if ((long long)(g.nz + 34) * g.nx * g.ny > 2147483647LL)
        return fmt::format("grid {}x{}x{} is too large: the kernels index with 32-bit ints, as the "
                           "textbook does, so (nz + 34) * nx * ny must stay below 2^31 (e.g. 1270^3)",
                           g.nx, g.ny, g.nz);
    if (g.nx > (1 << 20) || g.ny > (1 << 20) || g.nz > (1 << 20))
        return fmt::format("grid {}x{}x{}: a side over 1048576 cells is not supported", g.nx, g.ny, g.nz);
    return std::nullopt;
}

}  // namespace stencil
