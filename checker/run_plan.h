// How many times each test case runs, and how each run is checked: the same rules for every
// problem (star3d cases in evaluate.cpp, the cardiac and derivative cases in field_exercises.cpp).
//
// GPU: three repeats of every case on one loaded module (what a run leaves in __device__ variables
// is there for the next), one for the timed case (its 20 timed launches each repeat it).
// CPU, on one loaded module too:
//   small cases      three runs: threads and blocks in order with every check on (the race
//                    detector orders accesses by the PTX memory model, whatever the schedule, so
//                    one checked run finds what three would); then reversed and random orders
//                    with what the GPU leaves unspecified explored (ptx::Explore), unchecked, so
//                    that an output depending on an order or on an unspecified value differs
//   larger cases     two: the checked run, and a random, explored one
//   the large case   one (n >= 128 per side): every block runs and the whole output is compared,
//                    but only one block in kLargeCheckStride is checked for races (a sample)
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "checker/protocol.h"

namespace stencil::checker {

struct CaseRuns {
    std::vector<RunSpec> runs;
    int check_block_stride = 1;
};

// Threads a CPU case may launch and still get three runs.
inline constexpr long long kSmallCaseThreads = 1LL << 18;
inline constexpr int kLargeCheckStride = 16;

// The runs of a case launching `threads` threads; `large` marks the check's large case, `timed`
// the GPU's timed one. `seed` draws the random runs' seeds.
CaseRuns plan_runs(bool gpu, bool timed, bool large, long long threads, std::uint64_t seed);

// "in_order schedule", "random schedule (seed 123), explored", "GPU run 2": a run as reports name it.
std::string run_label(const RunSpec& run, size_t r);

}  // namespace stencil::checker
