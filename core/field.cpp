#include "core/field.h"

#include <limits>
#include <random>

namespace stencil {

template <class real>
Field<real> random_field(GridDims d, std::uint64_t seed) {
    Field<real> f(d);
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (real& v : f.data) v = static_cast<real>(u(rng));
    return f;
}

template <class real>
Field<real> small_integer_field(GridDims d, std::uint64_t seed) {
    Field<real> f(d);
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<int> u(-8, 8);
    for (real& v : f.data) v = static_cast<real>(u(rng));
    return f;
}

template <class real>
Field<real> sampled_field(GridDims d, const std::function<double(double, double, double)>& fn) {
    Field<real> f(d);
    for (int z = 0; z < d.nz; ++z)
        for (int y = 0; y < d.ny; ++y)
            for (int x = 0; x < d.nx; ++x) f.at(x, y, z) = static_cast<real>(fn(x, y, z));
    return f;
}

bool is_boundary(GridDims d, int r, int x, int y, int z) {
    return x < r || y < r || z < r || x >= d.nx - r || y >= d.ny - r || z >= d.nz - r;
}

template <class real>
Field<real> poisoned_output(const Field<real>& input, int radius) {
    Field<real> out(input.dims, std::numeric_limits<real>::quiet_NaN());
    const GridDims d = input.dims;
    for (int z = 0; z < d.nz; ++z)
        for (int y = 0; y < d.ny; ++y)
            for (int x = 0; x < d.nx; ++x)
                if (is_boundary(d, radius, x, y, z)) out.at(x, y, z) = input.at(x, y, z);
    return out;
}

#define STENCIL_FIELD_INSTANTIATE(real)                                                        \
    template Field<real> random_field<real>(GridDims, std::uint64_t);                          \
    template Field<real> small_integer_field<real>(GridDims, std::uint64_t);                   \
    template Field<real> sampled_field<real>(GridDims,                                         \
                                             const std::function<double(double, double, double)>&); \
    template Field<real> poisoned_output<real>(const Field<real>&, int);
STENCIL_FIELD_INSTANTIATE(float)
STENCIL_FIELD_INSTANTIATE(double)

}  // namespace stencil
