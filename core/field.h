// A 3D field on the host in one precision, x fastest; and the inputs the lab fills it with.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "kernels/versions.h"

namespace stencil {

template <class real>
struct Field {
    GridDims dims;
    std::vector<real> data;

    Field() = default;
    explicit Field(GridDims d, real fill = real(0)) : dims(d), data(static_cast<size_t>(d.cells()), fill) {}
    size_t index(int x, int y, int z) const {
        return (static_cast<size_t>(z) * dims.ny + y) * dims.nx + x;
    }
    real& at(int x, int y, int z) { return data[index(x, y, z)]; }
    const real& at(int x, int y, int z) const { return data[index(x, y, z)]; }
};

// Uniform random values in [-1, 1) from a seed.
template <class real>
Field<real> random_field(GridDims d, std::uint64_t seed);
// Small integers in [-8, 8]: with small-integer weights, fp32 arithmetic on them is exact.
template <class real>
Field<real> small_integer_field(GridDims d, std::uint64_t seed);
// f(x, y, z) sampled at the cell coordinates.
template <class real>
Field<real> sampled_field(GridDims d, const std::function<double(double, double, double)>& f);

// The output a kernel starts from: the input on the fixed boundary (the r cells next to each
// face, which no kernel writes), NaN everywhere else, so an interior cell that is never written
// cannot pass a comparison.
template <class real>
Field<real> poisoned_output(const Field<real>& input, int radius);

bool is_boundary(GridDims d, int radius, int x, int y, int z);

}  // namespace stencil
