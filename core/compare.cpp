#include "core/compare.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace stencil {

double rounding_gamma(Precision p, int radius, int steps) {
    auto gamma = [](double u, int m) { return m * u / (1 - m * u); };
    const int m = point_count(radius);
    const double u_real = p == Precision::f32 ? std::ldexp(1.0, -24) : std::ldexp(1.0, -53);
    const double g = gamma(u_real, m) + gamma(std::ldexp(1.0, -53), m);
    return g * (1 + (std::max(steps, 1) - 1) * g);
}

template <class real>
CompareResult compare_with_reference(const Field<real>& got, const Reference& ref, Precision p) {
    CompareResult res;
    res.cells = got.dims.cells();
    res.gamma = rounding_gamma(p, ref.radius, ref.steps);
    const GridDims d = got.dims;
    if (!(d == ref.dims)) {
        res.bad_cells = res.cells;
        return res;
    }
    for (int z = 0; z < d.nz; ++z)
        for (int y = 0; y < d.ny; ++y)
            for (int x = 0; x < d.nx; ++x) {
                const size_t n = got.index(x, y, z);
                const double g = static_cast<double>(got.data[n]);
                const double e = ref.value[n];
                const bool boundary = is_boundary(d, ref.radius, x, y, z);
                const double bound = boundary ? 0.0 : res.gamma * ref.magnitude[n];
                bool bad;
                if (!std::isfinite(g)) {
                    bad = true;
                    ++res.nan_cells;
                } else {
                    const double err = std::fabs(g - e);
                    bad = boundary ? g != e : err > bound;
                    if (!boundary) {
                        res.max_abs_err = std::max(res.max_abs_err, err);
                        if (ref.magnitude[n] > 0)
                            res.max_rel_err = std::max(res.max_rel_err, err / ref.magnitude[n]);
                        else if (err > 0)
                            res.max_rel_err = std::numeric_limits<double>::infinity();
                    }
                }
                if (!bad) continue;
                ++res.bad_cells;
                if (boundary) ++res.boundary_changed;
                if (!res.first_bad)
                    res.first_bad = BadCell{x, y, z, e, g, bound,
                                            boundary ? CellKind::boundary : CellKind::interior};
            }
    res.ok = res.bad_cells == 0;
    return res;
}

std::string CompareResult::summary() const {
    if (ok)
        return fmt::format("ok: {} cells match (max abs err {:.3g}, max err/magnitude {:.3g}, "
                           "bound {:.3g} x magnitude)",
                           cells, max_abs_err, max_rel_err, gamma);
    std::string s = fmt::format("FAILED: {} of {} cells wrong", bad_cells, cells);
    if (nan_cells) s += fmt::format(" ({} NaN/Inf)", nan_cells);
    if (boundary_changed) s += fmt::format(" ({} boundary cells changed)", boundary_changed);
    if (first_bad)
        s += fmt::format("; first at (x={}, y={}, z={}) {}: expected {:.9g}, got {:.9g}",
                         first_bad->x, first_bad->y, first_bad->z,
                         first_bad->kind == CellKind::boundary ? "boundary" : "interior",
                         first_bad->expected, first_bad->got);
    return s;
}

template CompareResult compare_with_reference<float>(const Field<float>&, const Reference&, Precision);
template CompareResult compare_with_reference<double>(const Field<double>&, const Reference&, Precision);

}  // namespace stencil
