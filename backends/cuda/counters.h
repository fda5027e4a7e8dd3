// Hardware counters of one kernel launch, read in-process through CUPTI's range profiler
// (CUDA 13: cupti_range_profiler.h + cupti_profiler_host.h), the same counters ncu reads.
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

namespace stencil {

struct CounterValues {
    double dram_bytes_read = 0;          // dram__bytes_read.sum
    double dram_bytes_write = 0;         // dram__bytes_write.sum
    double l2_bytes = 0;                 // lts__t_bytes.sum (all L2 traffic)
    double l2_read_sectors = 0;          // lts__t_sectors_srcunit_tex_op_read.sum (L1 -> L2 reads)
    double l2_write_sectors = 0;         // lts__t_sectors_srcunit_tex_op_write.sum
    double l1_global_load_sectors = 0;   // l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
    double l1_global_load_requests = 0;  // l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
    double fadd = 0, fmul = 0, ffma = 0;  // smsp__sass_thread_inst_executed_op_{fadd,fmul,ffma}_pred_on.sum
    double dadd = 0, dmul = 0, dfma = 0;  // ..._op_{dadd,dmul,dfma}_pred_on.sum
    // Bytes the executed global load / store instructions asked for, summed over active lanes:
    // smsp__sass_data_bytes_mem_global_op_{ld,st}.sum, the requested level, measured. (The
    // thread-level instruction counts smsp__sass_thread_inst_executed_op_global_{ld,st} read "n/a"
    // on the H100.) nullopt when this GPU / CUPTI could not collect them (then
    // `requested_unavailable` says why).
    std::optional<double> global_load_data_bytes, global_store_data_bytes;
    std::string requested_unavailable;
    std::vector<std::pair<std::string, double>> raw;  // every metric by its ncu name, in request order

    double dram_bytes() const { return dram_bytes_read + dram_bytes_write; }
    // Requested bytes of the launch's global loads / stores, as the instructions asked.
    std::optional<double> requested_read_bytes() const { return global_load_data_bytes; }
    std::optional<double> requested_write_bytes() const { return global_store_data_bytes; }
    // Sectors (32 B) per global load request: 4 for a fully coalesced warp of 4-byte loads.
    double sectors_per_request() const {
        return l1_global_load_requests > 0 ? l1_global_load_sectors / l1_global_load_requests : 0;
    }
    // FLOPs as executed: an FMA counts two.
    double flops() const { return fadd + fmul + 2 * ffma + dadd + dmul + 2 * dfma; }
};

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
