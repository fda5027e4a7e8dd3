#include "core/reference.h"

#include <algorithm>
#include <cmath>
#include <thread>

#include "core/parallel.h"

namespace stencil {

std::vector<StencilPoint> star_points(int radius) {
    std::vector<StencilPoint> pts{{0, 0, 0, 0}};
    for (int d = 1; d <= radius; ++d) {
        pts.push_back({-d, 0, 0, coefficient_index(d, XM)});
        pts.push_back({+d, 0, 0, coefficient_index(d, XP)});
        pts.push_back({0, -d, 0, coefficient_index(d, YM)});
        pts.push_back({0, +d, 0, coefficient_index(d, YP)});
        pts.push_back({0, 0, -d, coefficient_index(d, ZM)});
        pts.push_back({0, 0, +d, coefficient_index(d, ZP)});
    }
    return pts;
}

template <class real>
Reference reference_stencil(const Field<real>& in, const StencilWeights& w) {
    const GridDims d = in.dims;
    const int r = w.radius;
    Reference ref;
    ref.dims = d;
    ref.radius = r;
    ref.value.resize(static_cast<size_t>(d.cells()));
    ref.magnitude.assign(static_cast<size_t>(d.cells()), 0.0);
    const auto points = star_points(r);

    auto slab = [&](int z0, int z1) {
        for (int z = z0; z < z1; ++z)
            for (int y = 0; y < d.ny; ++y)
                for (int x = 0; x < d.nx; ++x) {
                    const size_t n = in.index(x, y, z);
                    if (is_boundary(d, r, x, y, z)) {
                        ref.value[n] = static_cast<double>(in.data[n]);
                        continue;
                    }
                    double sum = 0, mag = 0;
                    for (const auto& p : points) {
                        const double term = w.c[p.coefficient] *
                                            static_cast<double>(in.at(x + p.dx, y + p.dy, z + p.dz));
                        sum += term;
                        mag += std::fabs(term);
                    }
                    ref.value[n] = sum;
                    ref.magnitude[n] = mag;
                }
    };
    // Large grids (512^3 is 134 M cells) split over the machine's cores by z-slabs.
    const int workers = static_cast<int>(std::clamp<unsigned>(std::thread::hardware_concurrency(), 1u, 64u));
    if (d.cells() < (1 << 20) || workers == 1) {
        slab(0, d.nz);
    } else {
        std::vector<std::thread> pool;
        for (int t = 0; t < workers; ++t)
            pool.emplace_back(slab, d.nz * t / workers, d.nz * (t + 1) / workers);
        for (auto& th : pool) th.join();
    }
    return ref;
}

template <class real>
Reference reference_steps(const Field<real>& in, const StencilWeights& w, int steps) {
    if (steps <= 1) return reference_stencil(in, w);
    const GridDims d = in.dims;
    const int r = w.radius;
    const auto points = star_points(r);
    Reference ref;
    ref.dims = d;
    ref.radius = r;
    ref.steps = steps;
    ref.value.assign(in.data.begin(), in.data.end());
    ref.magnitude.assign(static_cast<size_t>(d.cells()), 0.0);
    std::vector<double> value(ref.value.size()), magnitude(ref.value.size(), 0.0);
    const long long plane = (long long)d.nx * d.ny;
    for (int s = 0; s < steps; ++s) {
        // One step from (ref.value, ref.magnitude) into (value, magnitude), by z-slabs.
        for_each_slab(d.nz, slab_count(d.cells(), 1 << 18) , [&](int, int z0, int z1) {
            for (int z = z0; z < z1; ++z)
                for (int y = 0; y < d.ny; ++y)
                    for (int x = 0; x < d.nx; ++x) {
                        const size_t n = in.index(x, y, z);
                        if (is_boundary(d, r, x, y, z)) {  // fixed: the input, exactly
                            value[n] = ref.value[n];
                            continue;
                        }
                        double sum = 0, mag = 0;
                        for (const auto& p : points) {
                            const size_t m = n + p.dx + (long long)p.dy * d.nx + p.dz * plane;
                            sum += w.c[p.coefficient] * ref.value[m];
                            mag += std::fabs(w.c[p.coefficient]) * (std::fabs(ref.value[m]) + ref.magnitude[m]);
                        }
                        value[n] = sum;
                        magnitude[n] = mag;
                    }
        });
        std::swap(value, ref.value);
        std::swap(magnitude, ref.magnitude);
    }
    return ref;
}

template Reference reference_stencil<float>(const Field<float>&, const StencilWeights&);
template Reference reference_steps<float>(const Field<float>&, const StencilWeights&, int);
template Reference reference_steps<double>(const Field<double>&, const StencilWeights&, int);
template Reference reference_stencil<double>(const Field<double>&, const StencilWeights&);

}  // namespace stencil
