// The PTX engine's runs of the lab's kernels, with the engine's own options (schedules, checks,
// counts, traces): a capability of the CPU backend, which `Backend::engine()` returns (nullptr on a
// backend without the engine). A front end that times on the GPU and traces on the engine makes a
// CPU backend for the trace (make_cpu_backend() in core/backend.h): the engine is in every build.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/backend.h"
#include "core/engine_trace.h"
#include "core/weights.h"

namespace stencil {

// Buffer ids in the engine's traces (engine::Access::buffer).
inline constexpr int kInputBuffer = 0;
inline constexpr int kOutputBuffer = 1;

struct EngineRun {
    LaunchGeometry geometry;
    engine::ExecReport report;
    bool ok() const { return report.ok; }
};

// The kernel run under several schedules with the checks on, and the outputs compared bitwise
// (EngineRuns::schedule_check says which runs).
struct ScheduleRun {
    engine::Schedule schedule;
    std::uint64_t seed;
    engine::ExecReport report;
    engine::BlockOrder block_order = engine::BlockOrder::in_order;
};
struct CellDifference {
    int x = 0, y = 0, z = 0;
    int run_a = 0, run_b = 0;      // indices into ScheduleCheck::runs
    double value_a = 0, value_b = 0;
};
struct ScheduleCheck {
    bool ok = false;  // every run clean (no fatal diagnostic, race, uninitialized read), same bits
    std::vector<ScheduleRun> runs;
    std::optional<CellDifference> first_difference;  // lowest (z, y, x) that differs
    long long differing_cells = 0;
    double seconds = 0;
    // One line; defined beside the runs that fill it (backends/cpu/cpu_backend.cpp).
    std::string summary() const;
};

// The PTX text one launch of a request runs, as the engine parsed it.
struct EnginePtx {
    std::string ptx;          // the instantiation's entry with the module's declarations
    std::string entry;        // its lowered name
    std::string source_file;  // the kernel's header as the PTX's .file names it ("kernels/tiled.cuh")
};

class EngineRuns {
public:
    virtual ~EngineRuns() = default;

    // One launch on host data: `in` and `out` hold req.dims.cells() values of req.precision; `out`
    // should arrive poisoned (poisoned_output). Throws UserError when the request cannot run
    // (tile or grid errors); the kernel's faults are diagnostics in the report, never exceptions.
    virtual EngineRun run(const LaunchRequest& req, const StencilWeights& weights, const void* in, void* out,
                          const engine::ExecOptions& opt) = 0;

    // The kernel under several schedules with the checks on (shared and global races, uninitialized
    // shared reads), each run from a freshly poisoned output, the outputs compared bitwise: threads
    // and blocks in order; both reversed; then `random_schedules` seeded random ones (seeds
    // opt.seed, +1, ...) with the blocks in a random order of the same seed.
    virtual ScheduleCheck schedule_check(const LaunchRequest& req, const StencilWeights& weights, const void* in,
                                         const engine::ExecOptions& opt, int random_schedules) = 0;

    // The PTX a launch of `req` runs (compiled on first use, then cached). Throws UserError for a
    // request the version table refuses.
    virtual EnginePtx ptx(const LaunchRequest& req) = 0;
};

}  // namespace stencil
