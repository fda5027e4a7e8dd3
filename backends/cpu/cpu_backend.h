// The CPU backend at the stencil level: run one of the lab's kernels (NVRTC's PTX of the unmodified
// sources) on the PTX engine (backends/cpu/ptx/engine.h), with diagnostics, counts and traces;
// check a kernel under several schedules; and the stencil::Backend that make_backend("cpu")
// returns, which offers these runs to the front ends as its EngineRuns (core/engine_runs.h).
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/backend.h"
#include "core/engine_runs.h"
#include "core/engine_trace.h"
#include "core/weights.h"
#include "kernels/versions.h"

namespace stencil {

// How to run: the executor's options (schedule, seed, workers, shared checks, tracing).
// Buffer ids in traces: kInputBuffer and kOutputBuffer (core/engine_runs.h).
struct CpuOptions {
    engine::ExecOptions exec;
};

// One launch on host data: `in` and `out` hold req.dims.cells() values of req.precision; `out`
// should arrive poisoned (poisoned_output). Throws UserError when the request cannot run
// (tile/grid errors); kernel faults are diagnostics in the report, never exceptions.
EngineRun run_cpu(const LaunchRequest& req, const StencilWeights& weights, const void* in, void* out,
                  const CpuOptions& opt = {});

// Runs the kernel under several schedules with checks on (shared and global races, uninitialized
// shared reads), each from a freshly poisoned output, and compares the outputs bitwise. The runs:
// threads in order with blocks in order; threads reversed with blocks reversed; then
// `random_schedules` seeded random ones (seeds opt.exec.seed, +1, ...) with blocks in a random
// order of the same seed. Changing the block order costs no extra run and makes a kernel whose
// blocks depend on each other give different outputs (with one worker, deterministically).
ScheduleCheck schedule_check(const LaunchRequest& req, const StencilWeights& weights,
                             const void* in, const CpuOptions& opt = {}, int random_schedules = 1);

// The same comparison for any kernel body (tests run broken fixtures through it): `launch` runs
// the kernel once with the given options, writing its output to `out`, which starts as a copy of
// `initial_out` (dims.cells() values of `precision`).
using OutputLaunch = std::function<engine::ExecReport(const engine::ExecOptions&, void* out)>;
ScheduleCheck schedule_check_launch(const OutputLaunch& launch, GridDims dims, Precision precision,
                                    const void* initial_out, const CpuOptions& opt = {},
                                    int random_schedules = 1);

// CPU facts for DeviceInfo.
std::string cpu_model_name();
int cpu_cores();

}  // namespace stencil
