#include "analysis/derivative_tiles.h"

#include <fmt/format.h>

#include <stdexcept>

#include "kernels/derivative/versions.h"

namespace stencil::analysis {

std::vector<DerivativeTileRow> derivative_tile_table(int n, int bytes) {
    std::vector<DerivativeTileRow> rows;
    for (const DerivativeVersion& v : derivative_versions()) {
        if (v.axis != Axis::x) continue;
        const int tx = tile_along(v.id, n), ty = v.tile_across;
        rows.push_back({fmt::format("{}x{}", tx, ty), v.name, fmt::format("{}: {}", v.title, v.idea),
                        x_derivative_tile(tx, ty, kDerivativeHalo, n, bytes)});
    }
    return rows;
}

const DerivativeTileRow& derivative_tile(const std::vector<DerivativeTileRow>& table, const std::string& tile) {
    for (const auto& r : table)
        if (r.tile == tile) return r;
    throw std::out_of_range("no derivative tile " + tile);
}

}  // namespace stencil::analysis
