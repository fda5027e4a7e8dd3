// What the hardware says of a launch beyond its time: counters (the ones ncu reads) and the FMA
// peak they are set against. A capability of the CUDA backend (through CUPTI: backends/cuda/
// counters.h), which `Backend::counters()` returns; nullptr on a backend without counters, and the
// front end says so in one line.
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/backend.h"
#include "core/weights.h"

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

class Counters {
public:
    virtual ~Counters() = default;

    // One launch of `req` on a device-filled random input, with the L2 flushed first, under the
    // profiler (kernel replay: the launch is re-run for as many passes as the metrics need).
    // nullopt, with `why` in one sentence, when counters cannot be read here (no libcupti, the
    // driver keeps them for administrators, ...).
    virtual std::optional<CounterValues> measure(const LaunchRequest& req, const StencilWeights& weights,
                                                 std::string* why) = 0;

    // The FMA throughput the device reaches (GFLOP/s, an FMA counted as 2), measured by a small
    // kernel of independent FMA chains: the compute roof of a roofline. nullopt, with `why`.
    virtual std::optional<double> fma_gflops(Precision p, std::string* why) = 0;
};

}  // namespace stencil
