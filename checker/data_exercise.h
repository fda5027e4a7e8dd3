// What follows from a data exercise's spec (checker/exercises.h: DataStencil, DataKernel) for one
// check: the weights of a seed, the macros' values at a tile, the launch of a grid, the sizes, the
// rounding bound. The star3d, cardiac2d and derivative exercises take the same from their
// versions' tables (exercises.h, field_exercises.h); a data exercise has no lab kernel, so these
// are the only place its spec becomes numbers.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "analysis/general_stencil.h"
#include "checker/exercises.h"
#include "kernels/versions.h"

namespace stencil::checker {

// The weights a check multiplies by, rounded to the exercise's precision: the spec's own, or drawn
// from the seed (no two alike, none near zero, so a neighbour paired with the wrong weight fails).
std::vector<double> data_weights(const Exercise& ex, std::uint64_t seed);

// "c0".."c{p-1}": the weights' names in the harness (constant memory) and in messages.
std::string data_weight_name(size_t k);

// The macros at tile T, in the spec's order: (name, value).
std::vector<std::pair<std::string, long long>> data_macros(const Exercise& ex, int tile);

// The launch at tile T for a grid; an empty `error` when it can run (every side >= 1, at most 1024
// threads a block, grid sides within the GPU's limits).
Launch data_launch(const Exercise& ex, int tile, GridDims dims, std::string& error);

// Why T cannot be used (outside the spec's tiles, a launch that cannot run); empty when it can.
std::string data_tile_problem(const Exercise& ex, int tile);

// The grid of size n: n x n (x 1) in 2D, n^3 in 3D.
GridDims data_dims(const Exercise& ex, int n);

// The sizes drawn from the seed for the hidden tests (the spec's count, from its range, none
// already visible).
std::vector<int> data_drawn_sizes(const Exercise& ex, std::uint64_t seed);

// gamma_m(precision) + gamma_m(fp64) for a sum of the stencil's m products (core/compare.h's rule).
double data_gamma(const Exercise& ex);

// Whether (x, y, z) is a fixed boundary cell of a grid (within `boundary` of a face on an axis the
// stencil has).
bool data_is_boundary(const Exercise& ex, GridDims dims, int x, int y, int z);

// The model of its stencil (analysis/general_stencil.h): its points in its precision.
analysis::GeneralStencilModel data_stencil_model(const Exercise& ex);

// The stencil in the textbook's words: "out(x,y) = c0 in(x,y) + c1 in(x-1,y) + ..." (the README and
// `exercise list` show it).
std::string data_stencil_formula(const Exercise& ex);

}  // namespace stencil::checker
