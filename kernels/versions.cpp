#include "kernels/versions.h"

#include "kernels/version_rules.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace stencil {

namespace {
int ceil_div(int a, int b) { return (a + b - 1) / b; }
}  // namespace

std::string_view to_string(Precision p) { return p == Precision::f32 ? "f32" : "f64"; }

std::optional<Precision> parse_precision(std::string_view s) {
    if (s == "f32" || s == "float" || s == "fp32") return Precision::f32;
    if (s == "f64" || s == "double" || s == "fp64") return Precision::f64;
    return std::nullopt;
}

std::span<const int> built_tiles() { return rules::kBuiltTiles; }
bool marches_in_z(KernelId k) { return rules::marches_in_z(k); }
int executed_points(KernelId k, int radius) { return rules::executed_points(k, radius); }
int executed_flops_per_point(KernelId k, int radius) { return 2 * executed_points(k, radius) - 1; }
int steps_per_launch(KernelId k, int fused) { return rules::steps_per_launch(k, fused); }
int out_tile(KernelId k, int T, int radius, int fused) { return rules::out_tile(k, T, radius, fused); }
bool smem_is_dynamic(KernelId k) { return rules::smem_is_dynamic(k); }
long long smem_limit(KernelId k, DeviceLimits lim) { return rules::smem_limit(k, lim); }
long long dynamic_smem_bytes(KernelId k, const LaunchGeometry& g) { return smem_is_dynamic(k) ? g.smem_bytes : 0; }
int cells_per_thread(KernelId k, int bytes) { return rules::cells_per_thread(k, bytes); }
int out_width(KernelId k, int T, int radius, int bytes, int fused) {
    return rules::out_width(k, T, radius, bytes, fused);
}
int block_side_x(KernelId k, int T) { return rules::block_side_x(k, T); }
int block_side_y(KernelId k, int T) { return rules::block_side_y(k, T); }
int rows_per_thread(KernelId k) { return rules::rows_per_thread(k); }
long long threads_per_block(KernelId k, int T) { return rules::threads_per_block(k, T); }
long long shared_cells(KernelId k, int T, int radius, int bytes, int fused) {
    return rules::shared_cells(k, T, radius, bytes, fused);
}
long long smem_bytes(KernelId k, int T, int radius, int bytes, int fused) {
    return rules::smem_bytes(k, T, radius, bytes, fused);
}
bool tile_fits(KernelId k, int T, int radius, int bytes, DeviceLimits lim) {
    return rules::tile_fits(k, T, radius, bytes, lim);
}
bool tile_is_built(KernelId k, int T) { return rules::tile_is_built(k, T); }
bool fuse_fits(KernelId k, int T, int radius, int fused) { return rules::fuse_fits(k, T, radius, fused); }

std::string_view to_string(Problem p) {
    switch (p) {
        case Problem::star3d: return "star3d";
        case Problem::cardiac2d: return "cardiac2d";
        case Problem::derivative: return "derivative";
    }
    return "?";
}

std::optional<Problem> parse_problem(std::string_view s) {
    for (Problem p : kProblems)
        if (s == to_string(p)) return p;
    return std::nullopt;
}

std::string problem_names() {
    std::string s;
    for (Problem p : kProblems) s += (s.empty() ? "" : ", ") + std::string(to_string(p));
    return s;
}

std::string threads_formula(KernelId k) {
    switch (version(k).threads) {
        case ThreadShape::cube: return "T^3";
        case ThreadShape::plane: return "T^2";
        case ThreadShape::warp_rows: return "32 T";
        case ThreadShape::warp_strips: return fmt::format("32 T/{}", kTemporalStripRows);
    }
    return "";
}

std::string smem_formula(KernelId k, int radius) {
    switch (version(k).shared) {
        case SharedTile::none: return "";
        case SharedTile::whole_tile: return "T^3";
        case SharedTile::stencil_planes: return fmt::format("(2r+1) T^2 = {} T^2", 2 * radius + 1);
        case SharedTile::one_plane: return "T^2";
        case SharedTile::halo_plane: return fmt::format("(T+2r)^2 = (T+{})^2", 2 * radius);
        case SharedTile::strip_edges:
            return fmt::format("K x T/{} strips x 2r rows x 32 V = K x T/{} x {} x 32 V (V: {} B a lane, 2 floats or "
                               "1 double)",
                               kTemporalStripRows, kTemporalStripRows, 2 * radius, kTemporalLaneBytes);
        case SharedTile::row_tile: return fmt::format("2 (T+2r) x 32 vectors = 2 (T+{}) x 512 B", 2 * radius);
    }
    return "";
}

const KernelVersion* find_version(std::string_view name) {
    for (const auto& v : kernel_versions())
        if (name == v.name) return &v;
    if (name == "register_tiled" || name == "register") return &version(KernelId::register_tiled);
    return nullptr;
}

std::string version_names() {
    std::string s;
    for (const auto& v : kernel_versions()) {
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
    if (v.halo_in_tile && T <= 2 * radius)
        return fmt::format("{}: tile T={} leaves no output cells: T must exceed 2r = {} "
                           "(OUT_TILE_DIM = T - 2r = {})",
                           v.name, T, 2 * radius, T - 2 * radius);
    if (v.threads == ThreadShape::warp_rows && T < radius)
        return fmt::format("{}: tile T={} rows cannot load r={} halo rows on each side (its first r rows of "
                           "threads load them): T must be at least r",
                           v.name, T, radius);
    if (v.threads == ThreadShape::warp_strips && T % kTemporalStripRows != 0)
        return fmt::format("{}: tile T={} rows is not a whole number of strips: each thread owns {} rows of its "
                           "column, so T must be a multiple of {}",
                           v.name, T, kTemporalStripRows, kTemporalStripRows);
    if (long long t = threads_per_block(k, T); t > lim.max_threads_per_block)
        return fmt::format("{}: tile T={} needs {} threads per block ({}), more than the {} a "
                           "block may have",
                           v.name, T, t, threads_formula(k),
                           lim.max_threads_per_block);
    if (long long s = smem_bytes(k, T, radius, bytes); s > smem_limit(k, lim))
        return fmt::format("{}: tile T={}, r={}, {} needs {} B of shared memory per block, more "
                           "than the {} B {} may use",
                           v.name, T, radius, to_string(p), s, smem_limit(k, lim),
                           smem_is_dynamic(k) ? "a block's dynamic shared memory" : "a static __shared__ array");
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

std::optional<std::string> fuse_error(KernelId k, int T, int radius, int fused) {
    const auto& v = version(k);
    if (v.max_fused_steps <= 1) {
        if (fused == 1) return std::nullopt;
        std::string fusers;
        for (const auto& row : kernel_versions())
            if (row.max_fused_steps > 1) fusers += std::string(fusers.empty() ? "" : ", ") + row.name;
        return fmt::format("--fuse applies to {} only: {} applies one time step per launch", fusers, v.name);
    }
    if (fused < 1 || fused > v.max_fused_steps)
        return fmt::format("{}: --fuse {} is outside 1..{} (time steps fused per pass)", v.name, fused,
                           v.max_fused_steps);
    if (out_tile(k, T, radius, fused) < 1)
        return fmt::format("{}: tile T={} cannot fuse {} steps at r={}: each step widens the halo by r, so T "
                           "must exceed 2rK = {} (OUT_TILE_DIM = T - 2rK = {})",
                           v.name, T, fused, radius, 2 * radius * fused, T - 2 * radius * fused);
    if (const int w = out_width(k, T, radius, rules::kFuseRuleValueBytes, fused); w < 1)
        return fmt::format("{}: r={} cannot fuse {} steps: the tile is one warp wide, 32 cells in fp64, and each "
                           "step widens the halo by r, so 32 must exceed 2rK = {}",
                           v.name, radius, fused, 2 * radius * fused);
    return std::nullopt;
}

std::vector<int> runnable_tiles(KernelId k, int radius, Precision p, DeviceLimits lim) {
    std::vector<int> out;
    if (!version(k).tile_is_template) {
        for (int t = 1; t <= 32; ++t)
            if (tile_fits(k, t, radius, bytes_of(p), lim)) out.push_back(t);
        return out;
    }
    for (int t : rules::kBuiltTiles)
        if (tile_fits(k, t, radius, bytes_of(p), lim)) out.push_back(t);
    return out;
}

std::optional<std::string> z_chunk_error(KernelId k, int z_chunk) {
    if (version(k).z_chunk == 0) {
        std::string chunked;
        for (const auto& row : kernel_versions())
            if (row.z_chunk > 0) chunked += std::string(chunked.empty() ? "" : ", ") + row.name;
        return fmt::format("--z-chunk applies to {} only: {} marches a fixed number of planes per block", chunked,
                           version(k).name);
    }
    if (z_chunk < 1 || z_chunk > 4096)
        return fmt::format("{}: --z-chunk {} is outside 1..4096 (planes a block marches)", version(k).name, z_chunk);
    return std::nullopt;
}

LaunchGeometry launch_geometry(KernelId k, int T, int radius, Precision p, GridDims g,
                               std::optional<Dim3> block, int fused, int z_chunk) {
    LaunchGeometry geo;
    if (block && version(k).takes_block) {  // a block of outputs of the user's shape
        geo.block = *block;
        geo.grid = {ceil_div(g.nx, block->x), ceil_div(g.ny, block->y), ceil_div(g.nz, block->z)};
        geo.out_tile = geo.out_width = block->x;
        geo.out_planes = block->z;
        return geo;
    }
    geo.smem_bytes = smem_bytes(k, T, radius, bytes_of(p), fused);
    const int out = out_tile(k, T, radius, fused), width = out_width(k, T, radius, bytes_of(p), fused);
    switch (version(k).threads) {
        case ThreadShape::cube: geo.block = {T, T, T}; break;
        case ThreadShape::plane: geo.block = {T, T, 1}; break;
        case ThreadShape::warp_rows:
        case ThreadShape::warp_strips: geo.block = {block_side_x(k, T), block_side_y(k, T), 1}; break;
    }
    // One block per OUT_TILE_DIM outputs along every axis (out_width along x); a z-marching block
    // covers OUT_TILE_DIM planes with its loop, or the row's z-chunk when it has one (the last
    // chunks evened out: the kernel takes ceil(nz / gridDim.z) planes per block).
    const int chunk = version(k).z_chunk > 0 && z_chunk > 0 ? z_chunk : version(k).z_chunk;
    geo.grid = {ceil_div(g.nx, width), ceil_div(g.ny, out), ceil_div(g.nz, chunk > 0 ? chunk : out)};
    geo.out_tile = out;
    geo.out_width = width;
    geo.out_planes = chunk > 0 ? z_planes_per_block(g.nz, geo.grid.z) : out;
    return geo;
}

std::vector<int> sweep_tiles(KernelId k, int radius, Precision p, DeviceLimits lim) {
    std::vector<int> out;
    for (int t : version(k).sweep)
        if (t > 0 && !tile_error(k, t, radius, p, lim)) out.push_back(t);
    return out;
}

std::optional<Dim3> parse_block(std::string_view s) {
    int sides[3] = {0, 0, 0};
    int n = 0;
    for (std::size_t i = 0; i <= s.size(); ++i) {
        const char c = i < s.size() ? s[i] : 'x';
        if (c == 'x' || c == 'X') {
            if (n > 2 || sides[n] < 1) return std::nullopt;  // an empty or zero side, or a fourth
            ++n;
        } else if (c >= '0' && c <= '9' && n < 3) {
            if (sides[n] > 100000) return std::nullopt;    // far past any block: no overflow
            sides[n] = sides[n] * 10 + (c - '0');
        } else {
            return std::nullopt;
        }
    }
    if (n != 3) return std::nullopt;
    return Dim3{sides[0], sides[1], sides[2]};
}

std::optional<std::string> block_error(KernelId k, Dim3 b, DeviceLimits lim) {
    const auto& v = version(k);
    if (!v.takes_block) {
        std::string takers;
        for (const auto& row : kernel_versions())
            if (row.takes_block) takers += std::string(takers.empty() ? "" : ", ") + row.name;
        return fmt::format("--block applies to {} only: {}'s block follows from its tile T (use --tile)", takers,
                           v.name);
    }
    if (b.x < 1 || b.y < 1 || b.z < 1)
        return fmt::format("block {}x{}x{}: every side must be at least 1", b.x, b.y, b.z);
    if (b.x > 1024 || b.y > 1024 || b.z > 64)
        return fmt::format("block {}x{}x{}: a CUDA block is at most 1024 x 1024 x 64 threads along x, y, z", b.x,
                           b.y, b.z);
    if (b.count() > lim.max_threads_per_block)
        return fmt::format("block {}x{}x{} has {} threads, more than the {} a block may have", b.x, b.y, b.z,
                           b.count(), lim.max_threads_per_block);
    return std::nullopt;
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
