// The dense cube of weights that kernels/conv27.cuh multiplies, made on the host from the star's
// 6r + 1 weights (the layout of stencil_shape.h): the centre and the axis cells take their star
// weight, every other cell 0. Each backend fills its copy of the constant array with this, so
// "which weight goes where in the cube" is written once. Plain C++: no CUDA, nothing above kernels/.
#pragma once
#include "kernels/stencil_shape.h"

namespace stencil {

// dense[dense_index(dx, dy, dz, radius)] for every offset of the (2r+1)^3 cube; `star` holds at
// least coefficient_count(radius) values. Each weight is rounded to `real` as the star kernels'
// constant arrays round it, so both compute with the same weights.
template <class real>
void fill_dense_weights(const double* star, int radius, real* dense) {
    for (int dz = -radius; dz <= radius; ++dz)
        for (int dy = -radius; dy <= radius; ++dy)
            for (int dx = -radius; dx <= radius; ++dx) {
                const int s = star_index_of_offset(dx, dy, dz);
                dense[dense_index(dx, dy, dz, radius)] = s < 0 ? real(0) : static_cast<real>(star[s]);
            }
}

}  // namespace stencil
