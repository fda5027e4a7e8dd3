#include "analysis/derivative_tiles.h"

#include <fmt/format.h>

#include <stdexcept>

namespace stencil::analysis {

std::vector<DerivativeTileRow> derivative_tile_table(int n, int bytes) {
    const auto row = [&](int tx, int ty, const char* role) {
        return DerivativeTileRow{fmt::format("{}x{}", tx, ty), role,
                                 x_derivative_tile(tx, ty, kDerivativeHalo, n, bytes)};
    };
    return {row(16, 16, "a square tile with 4-wide halos on both x sides (the post's starting point)"),
            row(n, 4, "an x pencil, sPencils = 4 rows of the whole x extent (the post's x-derivative)"),
            row(n, 32, "an x pencil, lPencils = 32 rows (the post's y and z derivatives use such pencils)")};
}

const DerivativeTileRow& derivative_tile(const std::vector<DerivativeTileRow>& table, const std::string& tile) {
    for (const auto& r : table)
        if (r.tile == tile) return r;
    throw std::out_of_range("no derivative tile " + tile);
}

}  // namespace stencil::analysis
