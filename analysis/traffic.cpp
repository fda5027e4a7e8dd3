// Traffic (model.h): a block's loads, stores and FLOPs in the interior of the grid
// (interior_block_traffic), the whole grid's, counted block by block along each axis
// (exact_grid_traffic), and the bytes per cell update of the z-chunked kernels (update_traffic).
#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "analysis/model.h"
#include "analysis/model_detail.h"
#include "core/error.h"
#include "kernels/stencil_shape.h"

namespace stencil::analysis {

using detail::ceil_div;
using detail::check_arguments;
using detail::cube;
using detail::sq;
using detail::streaming_end_first;
using detail::streaming_planes;

// ---- traffic ---------------------------------------------------------------------------------

// One function because it is one case per kernel, each the count its kernel's code makes, side by
// side so that they can be compared.
BlockTraffic interior_block_traffic(KernelId k, int T, int radius, Precision p, int fused) {
    check_arguments(k, T, radius, fused);
    const int bytes = bytes_of(p);
    const long long OUT = out_tile(k, T, radius, fused);
    const int K = steps_per_launch(k, fused);
    BlockTraffic b;
    b.threads = threads_per_block(k, T);
    // The shape decides the count (kernels/version_shapes.h): a version of an existing shape needs
    // no case of its own.
    switch (version(k).shared) {
        case SharedTile::none:  // every output loads each point it multiplies, zero weight or not
            b.outputs = cube(T);
            b.loads = (long long)executed_points(k, radius) * cube(T);
            break;
        case SharedTile::whole_tile:
            // Every thread stores its input cell; each output reads its 6r + 1 points.
            b.outputs = cube(OUT);
            b.loads = cube(T);
            b.shared_stores = cube(T);
            b.shared_loads = point_count(radius) * cube(OUT);
            break;
        case SharedTile::stencil_planes:
        case SharedTile::one_plane:
            // T^2 values per plane: 2r planes before the march and one per output plane.
            b.outputs = sq(OUT) * OUT;
            b.loads = sq(T) * (OUT + 2 * radius);
            if (version(k).shared == SharedTile::stencil_planes) {
                // Stores: the 2r planes before the march, then per output plane the new top plane
                // and the 2r-plane shift. Loads: the 6r + 1 points of each output, and the shift
                // reads 2r planes per output plane.
                b.shared_stores = sq(T) * (2LL * radius + OUT * (1 + 2LL * radius));
                b.shared_loads = OUT * (point_count(radius) * sq(OUT) + 2LL * radius * sq(T));
            } else {
                // Only the current plane is shared: published once before the march and once per
                // output plane; each output reads its 4r in-plane neighbours from it.
                b.shared_stores = sq(T) * (1 + OUT);
                b.shared_loads = OUT * (4LL * radius * sq(OUT));
            }
            break;
        case SharedTile::row_tile: {
            // Z planes of T rows of W = 32 V outputs. Global: the queue loads W T values for each
            // of Z + 2r planes; per plane, the 2r halo rows (W values each) and the rows' ends
            // (lanes tx < q a side, q = 1..Q, each the values of vector q within r of its own).
            // Shared: per plane each thread's vector and the halo rows are stored, and each output
            // reads its 2r y-neighbours.
            const int V = cells_per_thread(k, bytes), Q = (radius + V - 1) / V;
            const long long Z = version(k).z_chunk, W = 32LL * V;
            long long ends = 0;  // values one row's two ends load
            for (int q = 1; q <= Q; ++q) ends += 2LL * q * (V - streaming_end_first(q, V, radius));
            b.outputs = W * T * Z;
            b.loads = W * T * (Z + 2 * radius) + Z * (2LL * radius * W + T * ends);
            b.shared_stores = Z * W * (T + 2LL * radius);
            b.shared_loads = Z * W * T * 2LL * radius;
            break;
        }
        case SharedTile::strip_edges: {
            // Z planes of W_OUT x OUT outputs of level K (W_OUT = 32 V - 2rK across the warp-wide
            // tile, V cells a lane). The march takes Z + 2rK steps, each loading the next plane of
            // the tile's 32 V x T cells; in each step every level t = 1..K is computed on the whole
            // tile (every lane takes part in the shuffles; the cells outside level t's band are the
            // halo's redundant work), and every level 0..K-1 publishes each strip's r first and r
            // last rows. Shared reads: the y-neighbours beyond a strip's ends, r (r + 1) per column
            // and level (d = 1..r rows beyond each end, for the rows within d of it).
            const int S = rows_per_thread(k);
            const long long Z = version(k).z_chunk, steps = Z + 2LL * radius * K;
            const long long width = 32LL * cells_per_thread(k, bytes);
            const long long W_OUT = out_width(k, T, radius, bytes, K), tile = width * T;
            b.outputs = W_OUT * OUT * Z;
            b.loads = tile * steps;
            const long long computed = tile * K * steps;
            b.shared_stores = (long long)K * (T / S) * 2 * radius * width * steps;
            b.shared_loads = width * (T / S) * radius * (radius + 1) * K * steps;
            b.load_bytes = b.loads * bytes;
            b.store_bytes = b.outputs * bytes;
            b.flops = b.outputs * K * flops_per_point(radius);
            b.executed_flops = computed * flops_per_point(radius);
            b.opb = double(b.flops) / b.load_bytes;
            return b;
        }
        case SharedTile::halo_plane:
            throw std::logic_error(std::string("no traffic model for ") + version(k).name +
                                   "'s shared tile (a halo plane): analysis/traffic.cpp needs its case");
    }
    b.load_bytes = b.loads * bytes;
    b.store_bytes = b.outputs * bytes;
    b.flops = b.outputs * flops_per_point(radius);
    b.executed_flops = b.outputs * executed_flops_per_point(k, radius);
    b.opb = double(b.flops) / b.load_bytes;
    return b;
}

namespace {
// sum over blocks b of |[b OUT - r, b OUT - r + T) n [0, n)|
long long axis_loads(int n, int T, int OUT, int r) {
    long long s = 0;
    for (int b = 0; b < ceil_div(n, OUT); ++b) {
        const int lo = std::max(0, b * OUT - r), hi = std::min(n, b * OUT - r + T);
        s += std::max(0, hi - lo);
    }
    return s;
}
}  // namespace

GridTraffic exact_grid_traffic(KernelId k, int T, int radius, Precision p, GridDims g, int fused, int z_chunk) {
    check_arguments(k, T, radius, fused);
    if (auto e = grid_error(g, radius)) throw UserError(*e);
    if (z_chunk != 0)
        if (auto e = z_chunk_error(k, z_chunk)) throw UserError(*e);
    const int bytes = bytes_of(p), r = radius;
    const LaunchGeometry geo = launch_geometry(k, T, radius, p, g, std::nullopt, fused, z_chunk);
    GridTraffic t;
    t.blocks = geo.grid.count();
    const long long interior_cells =
        (long long)(g.nx - 2 * r) * (g.ny - 2 * r) * (g.nz - 2 * r);
    if (version(k).shared == SharedTile::strip_edges) {  // its own cells over the march, the tile rK wider a side
        const int H = r * steps_per_launch(k, fused);
        long long march_planes = 0;
        for (int bz = 0; bz < geo.grid.z; ++bz) {
            auto [b, e] = streaming_planes(bz, geo.out_planes, g.nz, r);
            if (b < e) march_planes += std::min(g.nz, e + H) - std::max(0, b - H);
        }
        const int width = geo.block.x * cells_per_thread(k, bytes_of(p));  // the tile's cells a row
        t.load_values = axis_loads(g.nx, width, geo.out_width, H) * axis_loads(g.ny, T, geo.out_tile, H) *
                        march_planes;
    } else if (version(k).z_chunk > 0) {  // streaming: the queue per column; halo rows, rows' ends per plane
        long long queue_planes = 0, computed_planes = 0;
        for (int bz = 0; bz < geo.grid.z; ++bz) {
            auto [b, e] = streaming_planes(bz, geo.out_planes, g.nz, r);
            if (b < e) queue_planes += e - b + 2 * r, computed_planes += e - b;
        }
        // Halo rows in the grid: r below and r above each block of T rows, clipped at the faces.
        long long halo_rows = 0;
        for (int j0 = 0; j0 < g.ny; j0 += T) halo_rows += std::min(r, j0) + std::clamp(g.ny - j0 - T, 0, r);
        // The rows' ends of one row: lanes tx < q (tx >= 32 - q) inside the grid load the values
        // of the vector q to their west (east) that lie within r of their own, inside the row.
        const int V = cells_per_thread(k, bytes), Q = (r + V - 1) / V;
        long long ends = 0;
        for (int bx = 0; bx < geo.grid.x; ++bx)
            for (int q = 1; q <= Q; ++q)
                for (int i = 0; i < q; ++i) {
                    const int west0 = (32 * bx + i) * V, east0 = (32 * bx + 31 - i) * V;
                    for (int e = streaming_end_first(q, V, r); e < V; ++e) {
                        const int xw = west0 - q * V + e, xe = east0 + q * V + (V - 1 - e);
                        ends += west0 < g.nx && xw >= 0;
                        ends += east0 < g.nx && xe < g.nx;
                    }
                }
        t.load_values = (long long)g.nx * g.ny * queue_planes + computed_planes * (g.nx * halo_rows + g.ny * ends);
    } else if (!version(k).halo_in_tile) {  // every output loads its own points
        t.load_values = interior_cells * executed_points(k, r);
    } else {
        const int OUT = T - 2 * r;
        t.load_values =
            axis_loads(g.nx, T, OUT, r) * axis_loads(g.ny, T, OUT, r) * axis_loads(g.nz, T, OUT, r);
    }
    t.store_values = interior_cells;
    t.load_bytes = t.load_values * bytes;
    t.store_bytes = t.store_values * bytes;
    // A launch fusing K steps updates every interior cell K times (temporal; the halo's redundant
    // cells are interior_block_traffic's executed_flops, not counted here).
    const int K = steps_per_launch(k, fused);
    t.flops = interior_cells * flops_per_point(r) * K;
    t.executed_flops = interior_cells * executed_flops_per_point(k, r) * K;
    t.opb = t.load_bytes ? double(t.flops) / t.load_bytes : 0;
    return t;
}

// ---- bytes per cell update ---------------------------------------------------------------------

UpdateTraffic update_traffic(KernelId k, int T, int radius, Precision p, int fused) {
    if (version(k).z_chunk == 0)  // the z-chunked kernels: streaming and temporal
        throw UserError(fmt::format("bytes per cell update are modelled for streaming and temporal, not {}",
                                    version(k).name));
    const BlockTraffic b = interior_block_traffic(k, T, radius, p, fused);
    UpdateTraffic u;
    u.kernel = k;
    u.tile = T;
    u.radius = radius;
    u.fused = steps_per_launch(k, fused);
    u.z_chunk = version(k).z_chunk;
    u.bytes = bytes_of(p);
    const double updates = double(b.outputs) * u.fused;
    u.requested_bytes = double(b.load_bytes + b.store_bytes) / updates;
    u.l2_bytes = u.requested_bytes;  // no cell is loaded twice by one block: nothing for L1 to serve
    // DRAM: the chunk's own columns over its Z + 2rK planes, read once, and the outputs written once.
    const double Z = u.z_chunk, H = double(radius) * u.fused;
    u.dram_bytes = u.bytes * ((Z + 2 * H) / Z + 1) / u.fused;
    u.copy_bytes = 2.0 * u.bytes;
    u.halo_reread_share = 1.0 - double(b.outputs) / b.loads;
    u.redundant_work_share = 1.0 - double(b.flops) / b.executed_flops;
    // An entry of a queue is the thread's cells of one row in one plane, 4 bytes a register.
    const int entry_registers = cells_per_thread(k, u.bytes) * u.bytes / 4;
    u.queue_registers = u.fused * (2 * radius + 1) * rows_per_thread(k) * entry_registers;
    if (version(k).threads == ThreadShape::warp_rows) {  // streaming's launch bounds: its register budget
        u.register_budget = streaming_register_budget(radius);
        u.min_warps_per_sm = streaming_min_blocks(32 * T, radius) * T;  // a block of 32 x T is T warps
    }
    u.copy_ratio_bound = u.copy_bytes / u.dram_bytes;
    return u;
}
}  // namespace stencil::analysis
