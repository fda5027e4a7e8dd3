// Hardware counters of one kernel launch, read in-process through CUPTI's range profiler
// (CUDA 13: cupti_range_profiler.h + cupti_profiler_host.h), the same counters ncu reads. The
// front ends reach measure_counters and measure_fma_gflops through the CUDA backend's Counters
// (core/counters.h); the checker's runner and the GPU tests call them here.
//
// CUPTI is loaded with dlopen() when counters are first asked for, so the binaries start (and
// run everything else) where libcupti is missing. Where the driver keeps counters for
// administrators (CUPTI_ERROR_INSUFFICIENT_PRIVILEGES, "ERR_NVGPUCTRPERM"), `why` says so and
// how an administrator lifts it.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/backend.h"
#include "core/counters.h"  // CounterValues

namespace stencil {

// The metric names measure_counters asks CUPTI for (ncu spelling). The last ones
// (counter_optional_metric_names) are dropped, and the rest still read, where CUPTI refuses them.
const std::vector<std::string>& counter_metric_names();
const std::vector<std::string>& counter_optional_metric_names();

// One launch of `req` on a device-filled random input, with the L2 flushed first, under the
// range profiler (kernel replay: CUPTI re-runs the launch for as many passes as the metrics need).
// nullopt, with `why` in one sentence, when counters cannot be read here.
std::optional<CounterValues> measure_counters(const LaunchRequest& req, const StencilWeights& weights,
                                              std::string* why);

}  // namespace stencil

namespace stencil {
// The `metrics` (ncu names, e.g. smsp__sass_data_bytes_mem_global_op_ld.sum) of the one launch that
// each of `launches` makes on the current device, in order, all in one profiler session: for
// kernels the lab did not build (the checker's runner counts a submission's global loads, and the
// lab kernel's beside it). The L2 is flushed before each; kernel replay re-runs a launch once per
// pass, so it must be repeatable. nullopt, with `why` in one sentence, when counters cannot be
// read here.
std::optional<std::vector<std::vector<double>>> measure_launches_metrics(
    const std::vector<std::function<void()>>& launches, const std::vector<std::string>& metrics, std::string* why);

// The FMA throughput the GPU reaches (GFLOP/s, an FMA counted as 2), measured by a small kernel
// of independent FMA chains: the compute roof of the sweep's roofline.
std::optional<double> measure_fma_gflops(Precision p, std::string* why);
}  // namespace stencil
