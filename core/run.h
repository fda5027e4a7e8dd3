// The one generic "check, then time" run of a kernel on a backend, used by the CLI (`stencil-lab
// run`), the viewer and the sweep. Plain C++: no CUDA, no UI; progress and cancellation go
// through a callback.
//
//   1. validate: tile_error, grid_error, then the backend's own cannot_run (memory, grid limits)
//   2. check: a random input (seeded) and random asymmetric weights rounded to the precision, the
//      fp64 reference, a poisoned output, one launch, compare_with_reference
//   3. time (only when the check passed): warm-up, reps with the L2 flushed between launches,
//      min / median / max, and the device-to-device copy bandwidth of the same array size
//      measured in the same run, for the ratio kernel / copy
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/backend.h"
#include "core/compare.h"
#include "core/stats.h"

namespace stencil {

enum class RunStage { validating, preparing, reference, executing, comparing, timing, copy, done };
std::string_view to_string(RunStage s);

// Called at the start of each stage with the fraction of the run done (0..1, rough); returning
// false cancels the run before the next stage (the report then says cancelled).
using RunProgress = std::function<bool(RunStage stage, double fraction)>;

struct RunOptions {
    LaunchRequest request;
    std::uint64_t seed = 1;  // input field and weights
    int warmup = 3;          // untimed launches before the timed ones
    int reps = 10;           // timed launches (and copies)
    bool time = true;        // false: check only
    RunProgress progress;    // may be empty
};

struct RunReport {
    // What ran, and where.
    LaunchRequest request;
    std::uint64_t seed = 1;
    BackendKind backend = BackendKind::cpu;
    DeviceInfo device;
    LaunchGeometry geometry;
    KernelAttributes attributes;

    // The check against the fp64 reference.
    CompareResult check;
    bool ok = false;          // the check passed
    bool cancelled = false;   // the progress callback said stop

    // Timing (timed == false when not asked for, or when the check failed).
    bool timed = false;
    int warmup = 0, reps = 0;
    std::vector<double> samples_ms;
    Stats ms;                 // min / median / max per launch
    // A median time is of all the request's S steps (`run --steps`), so rates count S updates:
    double bytes = 0;         // S x 2 x cells x bytes per cell: each update one read and one write
    double gbps = 0;          // bytes / median time (above the copy's only when steps are fused)
    double gcells = 0;        // S x cells / median time: cell updates, in 10^9 per second
    double gflops = 0;        // S x (12r + 1) x interior cells / median time
    double executed_gflops = 0;  // the FLOPs the kernel executes / median time: gflops but for
                                 // conv27, whose (2r+1)^3 cube does 2 (2r+1)^3 - 1 per cell
    double copy_gbps = 0;     // median of the device-to-device copies of one array (read + write)
    double copy_ratio = 0;    // gbps / copy_gbps

    std::string check_line() const;  // "check: ok: 262144 cells match (...) (against the fp64 reference, seed 1)"
    nlohmann::json to_json() const;
};

// Throws UserError when the request cannot run (with the sentence why) or the backend fails.
// A failed check is not an exception: report.ok is false and report.check says where.
RunReport run_kernel(Backend& backend, const RunOptions& options);

// 2 x cells x bytes: the bytes a stencil sweep must move at least (one read, one write per cell).
double minimum_bytes(GridDims d, Precision p);
// (12r + 1) FLOP per interior cell (6r + 1 multiplies, 6r adds).
double stencil_flops(GridDims d, int radius);

}  // namespace stencil
