#include "analysis/cardiac2d_model.h"

#include <fmt/format.h>

#include "core/error.h"
#include "kernels/cardiac2d/versions.h"

namespace stencil::cardiac2d {

double step_flops(int n) { return double(n) * n * kFlopsPerCell; }
double step_min_bytes(int n, Precision p) { return double(n) * n * kValuesMovedPerCell * bytes_of(p); }
long long copy_bytes(int n, Precision p) { return 2 * mesh_cells(n) * bytes_of(p); }

GhostAssignment ghost_assignment(int T) {
    if (T < 2 || T > 32)
        throw UserError(fmt::format("--tile must be between 2 and 32 for cardiac2d (got {}): a T x T tile of "
                                    "interior threads has at most 1024 threads",
                                    T));
    GhostAssignment g;
    g.tile = T;
    // The shared kernel's branches for a whole tile (idx, idy from 1): top if idy == 1, bottom if
    // idy == T, left if idx == 1, right if idx == T.
    for (int idy = 1; idy <= T; ++idy)
        for (int idx = 1; idx <= T; ++idx) {
            const int loads = (idy == 1) + (idy == T) + (idx == 1) + (idx == T);
            g.ghost_loads += loads;
            g.edge_threads += loads > 0;
            g.threads_loading_two += loads == 2;
        }
    g.ghost_ring_with_corners = (long long)(T + 2) * (T + 2) - (long long)T * T;
    g.difference = fmt::format(
        "the slides count {} edge threads (4 x {} - 4: each corner thread once), but a 5-point stencil needs {} "
        "ghost cells (4 x {}, the ring's {} corners never read), so the slides' code has its {} corner threads load "
        "two each: {} threads, {} loads",
        g.edge_threads, T, g.ghost_loads, T, g.ghost_ring_with_corners - g.ghost_loads, g.threads_loading_two,
        g.edge_threads, g.ghost_loads);
    g.all_threads = (long long)(T + 2) * (T + 2);
    g.idle_threads = g.all_threads - (long long)T * T;
    g.idle_share = double(g.idle_threads) / double(g.all_threads);
    return g;
}

}  // namespace stencil::cardiac2d
