// The effective stencil: the first bad output's value, as the sum of products the PTX engine traced
// (protocol.h's SumTermOutcome, checker/runner_terms.h), written as a stencil beside the exercise's
//   out(x, y, z) = c0 in(x, y, z) + c1 in(x, y, z-1) + ...      (the kernel's, each term's line)
//   out(x, y, z) = c0 in(x, y, z) + c1 in(x-1, y, z) + ...      (the exercise's)
// and the difference in the stencil's own words, with the lines that hold it and its cause
// (causes.h): a weight on the wrong neighbour (weight_pairing), a neighbour never read or read
// twice (neighbour_missing), every term around another cell (index_offset, or index_axis when
// that cell is the output's with two coordinates swapped), a tile whose axes hold other axes of
// the grid (index_axis), or a value that is no such sum (not_a_sum).
// The stencil is data (a list of offsets with weight names), not the 7-point star: an exercise's
// data file may give 2D or box stencils; today's exercises take the star's layout from
// kernels/stencil_shape.h (star_stencil).
#pragma once
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "checker/causes.h"
#include "checker/checker.h"
#include "checker/protocol.h"
#include "checker/shared_arrays.h"
#include "kernels/versions.h"

namespace stencil::checker {

struct StencilTap {
    std::array<int, 3> offset{};  // from the output cell, x first
    std::string weight;           // the weight's name ("c3")
};
using StencilShape = std::vector<StencilTap>;

// The 3D star of radius r: c0 the centre, then for each distance d the six neighbours x-d, x+d,
// y-d, y+d, z-d, z+d (kernels/stencil_shape.h's coefficient layout).
StencilShape star_stencil(int radius);
// The exercise's stencil: star3d's star, or a stencil written as data (its points, weight k named as
// the harness declares it: c{k}, or c[k] for one __constant__ array). Empty where the weights are
// not __constant__s the engine can name (a weights pointer) and for the other problems.
StencilShape exercise_stencil(const Exercise& ex);

struct StencilInput {
    const StencilShape& shape;
    std::array<int, 3> out{};     // the output cell
    GridDims dims{};              // the arrays' extents (the input's cells are named by them)
    std::string input = "in";     // the array the stencil reads
    std::string output = "out";
    const SharedArrays& arrays;   // the submission's __shared__ declarations (a tile's axes)
};

struct EffectiveStencil {
    EffectiveStencilView view;
    std::optional<Cause> cause;   // nullopt: the kernel's sum is the exercise's stencil
    std::string summary;          // the difference in one sentence (the explanation's last step)
};

// nullopt when the replay traced no sum (no terms).
std::optional<EffectiveStencil> effective_stencil(const ReplayOutcome& r, const StencilInput& in);

// "in(x, y-1, z)": a cell at an offset from the output, as the formulas write it.
std::string offset_cell(const std::string& array, const std::array<int, 3>& offset, bool three_d = true);

}  // namespace stencil::checker
