// The tile shapes of the finite-difference text (004) for its x-derivative on a periodic grid, with
// the share of values each reloads (x_derivative_tile in model.h does the counting): the 16x16
// tile with 4-wide halos that the post starts from, and the pencils it moves to (sPencils = 4 and
// lPencils = 32 rows of the whole x extent). The shapes are the x kernels' rows of the derivative
// table (kernels/derivative/versions.h), so the model and the kernels cannot disagree.
// `stencil-lab model --problem derivative` prints them and the lab-5 questions read them.
#pragma once
#include <string>
#include <vector>

#include "analysis/model.h"
#include "kernels/derivative/pencils.h"

namespace stencil::analysis {

struct DerivativeTileRow {
    std::string tile;    // "16x16", "64x4"
    std::string kernel;  // the kernel that uses it ("x-tile16x16", "x-spencils")
    std::string role;    // what the post uses it for, in words
    XDerivativeTile shape;
};

// The 8th-order derivative's halo: 4 cells on each side (its 9-point stencil).
using stencil::kDerivativeHalo;

// The tiles of the x kernels on an n^3 periodic grid (64 in the post) of `bytes`-byte values; a
// pencil spans the whole x extent (n wide). In the table's order: 16x16, nx4, nx32.
std::vector<DerivativeTileRow> derivative_tile_table(int n = 64, int bytes = 4);

// The row named `tile` ("16x16", "64x4", ...) of derivative_tile_table(n, bytes); throws
// std::out_of_range for a tile the table does not have.
const DerivativeTileRow& derivative_tile(const std::vector<DerivativeTileRow>& table, const std::string& tile);

}  // namespace stencil::analysis
