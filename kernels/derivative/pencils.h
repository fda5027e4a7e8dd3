// The shapes of text 004's derivative kernels, as the post names them: plain constants that the
// kernels (nvcc and NVRTC) and the host (kernels/derivative/versions.h) both read, so that a
// pencil count is written once.
#pragma once

namespace stencil {

// Pencils (whole rows of the grid along the derivative's axis) in one block's shared tile:
// sPencils for the "small" kernels, lPencils for the "large" ones. A block has N x sPencils
// threads either way (N: the grid's extent along the axis); a large-pencil block makes each
// thread cover lPencils / sPencils cells.
inline constexpr int sPencils = 4;
inline constexpr int lPencils = 32;

// The square tile the post starts from (TILE_DIM x TILE_DIM outputs, x by y), whose 4-wide x halos
// are loaded again by the neighbouring blocks.
inline constexpr int TILE_DIM = 16;

// The 9-point stencil of the 8th-order derivative reaches 4 cells each way: the halo width.
inline constexpr int kDerivativeHalo = 4;

}  // namespace stencil
