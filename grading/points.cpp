#include "grading/points.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace stencil::grading {

std::vector<long long> apportion(long long units, const std::vector<double>& weights) {
    std::vector<long long> out(weights.size(), 0);
    const double sum = std::accumulate(weights.begin(), weights.end(), 0.0);
    if (sum <= 0 || units <= 0) return out;
    std::vector<double> rest(weights.size(), 0);
    long long given = 0;
    for (size_t i = 0; i < weights.size(); ++i) {
        const double exact = double(units) * weights[i] / sum;
        out[i] = (long long)std::floor(exact + 1e-9);  // 1e-9: 40 * 100 / 90 * 0.9 is not below 40
        rest[i] = exact - double(out[i]);
        given += out[i];
    }
    std::vector<size_t> order(weights.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return rest[a] > rest[b] + 1e-12; });
    for (size_t k = 0; given < units && k < order.size(); ++k, ++given) ++out[order[k]];
    return out;
}

std::vector<long long> split_even(long long units, size_t parts) {
    std::vector<long long> out(parts, 0);
    if (parts == 0) return out;
    const long long base = units / (long long)parts, extra = units % (long long)parts;
    for (size_t i = 0; i < parts; ++i) out[i] = base + (i >= parts - size_t(extra) ? 1 : 0);
    return out;
}

double point_unit(const Rubric& r) { return r.hundredths ? 0.01 : 1.0; }

long long to_units(const Rubric& r, double points) { return std::llround(points / point_unit(r)); }

// Divided, not multiplied, by 100: 3333 / 100.0 is the double nearest 33.33, which JSON prints as 33.33.
double to_points(const Rubric& r, long long units) { return r.hundredths ? double(units) / 100.0 : double(units); }

std::vector<long long> item_units(const Rubric& r, bool time_left_out) {
    std::vector<double> w;
    for (const Item& i : r.items) w.push_back(i.kind == ItemKind::time && time_left_out ? 0 : i.points);
    return apportion(to_units(r, r.total), w);
}

}  // namespace stencil::grading
