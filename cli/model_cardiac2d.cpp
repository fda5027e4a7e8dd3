// `stencil-lab model --problem cardiac2d [--tile T] [--json]` (cli/cardiac2d.h): the two ways the
// lecture (text 002) assigns a shared tile's ghost cells to threads, from analysis/cardiac2d_model.h.
#include <fmt/format.h>

#include <iostream>

#include <nlohmann/json.hpp>

#include "analysis/cardiac2d_model.h"
#include "cli/cardiac2d.h"
#include "kernels/cardiac2d/versions.h"

namespace stencil::cli {

int model_cardiac2d(int tile, bool json) {
    using cardiac2d::GhostAssignment;
    using cardiac2d::KernelId;
    using cardiac2d::kFlopsPerCell;
    using cardiac2d::kValuesMovedPerCell;
    using cardiac2d::version;
    const int T = tile > 0 ? tile : version(KernelId::shared).tile_x;
    const GhostAssignment g = cardiac2d::ghost_assignment(T);
    if (json) {
        const nlohmann::json j = {
            {"problem", "cardiac2d"},
            {"tile", T},
            {"interior_threads",
             {{"edge_threads", g.edge_threads},
              {"ghost_loads", g.ghost_loads},
              {"threads_loading_two", g.threads_loading_two},
              {"ghost_ring_with_corners", g.ghost_ring_with_corners},
              {"difference", g.difference}}},
            {"thread_per_cell",
             {{"threads", g.all_threads}, {"idle_threads", g.idle_threads}, {"idle_share", g.idle_share}}},
            {"flops_per_cell", kFlopsPerCell},
            {"values_moved_per_cell", kValuesMovedPerCell}};
        std::cout << j.dump(2) << "\n";
        return 0;
    }
    std::cout << fmt::format(
        "cardiac2d (text 002): ghost cells of a {0}x{0} shared tile, two thread assignments\n"
        "  interior threads only ({1} kernel: {0}x{0} threads, the slides' choice)\n"
        "    edge threads        {2:>5}   4T - 4: the slides' count\n"
        "    ghost cells loaded  {3:>5}   4T: what the slides' code loads (the 4 corner threads load two each)\n"
        "    why they differ     {4}\n"
        "  one thread per cell, ghosts included ({5} kernel: {6}x{6} threads)\n"
        "    idle in the compute {7:>5}   (T+2)^2 - T^2 = 4T + 4 of {8} threads: {9:.1f}%\n"
        "  per cell and step: {10} FLOP, at least {11} values moved (E_prev and R read, E and R written)\n",
        T, version(KernelId::shared).name, g.edge_threads, g.ghost_loads, g.difference,
        version(KernelId::shared_all).name, T + 2, g.idle_threads, g.all_threads, 100 * g.idle_share, kFlopsPerCell,
        kValuesMovedPerCell);
    return 0;
}

}  // namespace stencil::cli
