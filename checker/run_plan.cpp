#include "checker/run_plan.h"

#include <fmt/format.h>

#include "core/parallel.h"

namespace stencil::checker {

CaseRuns plan_runs(bool gpu, bool timed, bool large, long long threads, std::uint64_t seed) {
    CaseRuns p;
    if (gpu) {
        const int n = timed ? 1 : 3;
        for (int r = 0; r < n; ++r) p.runs.push_back({Schedule::repeat, Schedule::in_order, 0, true, false});
        return p;
    }
    const std::uint64_t s1 = mix_seed(seed + 1) % 1000000, s2 = mix_seed(seed + 2) % 1000000;
    p.runs.push_back({Schedule::in_order, Schedule::in_order, s1, true, false});
    if (large) {
        p.check_block_stride = kLargeCheckStride;
        return p;
    }
    if (threads <= kSmallCaseThreads) p.runs.push_back({Schedule::reversed, Schedule::reversed, s1, false, true});
    p.runs.push_back({Schedule::random, Schedule::random, s2, false, true});
    return p;
}

std::string run_label(const RunSpec& run, size_t r) {
    if (run.schedule == Schedule::repeat) return fmt::format("GPU run {}", r + 1);
    std::string s = run.schedule == Schedule::random ? fmt::format("random schedule (seed {})", run.seed)
                                                     : fmt::format("{} schedule", to_string(run.schedule));
    if (run.explore) s += ", unspecified values explored";
    return s;
}

}  // namespace stencil::checker
