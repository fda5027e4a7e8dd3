// The grading box as the job sees it: its memory limit (the cgroup's, else the machine's) and its
// CPUs (a CPU quota, else the cores). A check needs about 768 MB and one core's time for up to a
// minute (docs/results/box-fit.md); on a smaller box a check that is killed or runs out of time
// says so in the results, naming the box, instead of a silent 0.
#pragma once
#include <string>

namespace stencil::grading {

struct BoxLimits {
    long long memory_bytes = 0;  // 0: unknown
    double cpus = 0;             // a quota of half a core is 0.5; 0: unknown
    std::string describe() const;  // "768 MB, 0.5 CPU"
};

BoxLimits read_box_limits();

// What a check of the largest model solution needs (docs/results/box-fit.md).
inline constexpr long long kCheckNeedsBytes = 768LL << 20;

}  // namespace stencil::grading
