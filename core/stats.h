// min / median / max of repeated timings.
#pragma once
#include <vector>

namespace stencil {

struct Stats {
    double min = 0, median = 0, max = 0;
    int count = 0;
};

// The median of an even count is the mean of the two middle values (not the upper one).
Stats summarize(std::vector<double> samples);

}  // namespace stencil
