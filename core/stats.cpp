#include "core/stats.h"

#include <algorithm>

namespace stencil {

Stats summarize(std::vector<double> v) {
    Stats s;
    s.count = static_cast<int>(v.size());
    if (v.empty()) return s;
    std::sort(v.begin(), v.end());
    s.min = v.front();
    s.max = v.back();
    const size_t n = v.size();
    s.median = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    return s;
}

}  // namespace stencil
