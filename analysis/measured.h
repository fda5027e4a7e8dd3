// What the machine does, next to the model: the bytes and FLOPs of one launch at three levels, and
// OP/B at each.
//
//   level 1, requested   the bytes the kernel's load instructions ask for (what the textbook's
//                        OP/B counts). Measured: on the CPU by the backend's trace, on the GPU by
//                        the thread-level global load instructions executed (CUPTI) x sizeof(real).
//                        The model's exact count (exact_grid_traffic) is kept beside it, so the
//                        two can disagree; where nothing measured it, the level is the model's
//                        count and its source says so.
//   level 2, L2          bytes the L1 fetched from L2: hardware counters on the GPU
//   level 3, DRAM        bytes L2 read from DRAM: hardware counters on the GPU
//
// The counters come from the CUDA backend (CUPTI) as a plain struct of values, so analysis stays
// free of CUDA. Where a level is not measured, its `note` says why (one sentence).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "analysis/model.h"

namespace engine {
struct Counts;
}

namespace stencil::analysis {

// Hardware counter values of one launch, in bytes and FLOP (the CUDA backend fills it in; an
// empty optional = that counter was not collected). `unavailable` carries the reason when none
// could be read (no GPU, CUPTI missing, profiling not permitted, ...).
struct HardwareCounters {
    std::optional<double> l1_global_load_requests;  // l1tex__t_requests_pipe_lsu_mem_global_op_ld
    std::optional<double> l1_global_load_sectors;   // l1tex__t_sectors_pipe_lsu_mem_global_op_ld
    std::optional<double> l2_read_bytes;    // lts__t_sectors_srcunit_tex_op_read x 32
    std::optional<double> l2_write_bytes;   // lts__t_sectors_srcunit_tex_op_write x 32
    std::optional<double> dram_read_bytes;  // dram__bytes_read.sum
    std::optional<double> dram_write_bytes; // dram__bytes_write.sum
    std::optional<double> flops;            // fadd + fmul + 2 ffma (sp or dp, the kernel's)
    // smsp__sass_data_bytes_mem_global_op_{ld,st}.sum: requested bytes
    std::optional<double> requested_read_bytes, requested_write_bytes;
    std::string requested_unavailable;      // why those two are missing (the counters' reason)
    std::string unavailable;                // why nothing was measured; empty when measured
    bool available() const { return unavailable.empty(); }
};
HardwareCounters counters_unavailable(std::string reason);

// OP/B conventions. `opb` is the textbook's: FLOP per byte LOADED (stores not counted); it is
// what the model's formulas give. `opb_rw` is FLOP per byte moved (read + write): the roofline's,
// whose bandwidth ceiling (a copy) also counts read + write. The DRAM (and L2) levels are reported
// as opb_rw everywhere (CSV dram_opb_rw, the roofline's x-axis, the lab handouts).
struct LevelMetric {
    std::string level;                // "requested", "L2", "DRAM"
    std::optional<double> read_bytes; // loads at this level
    std::optional<double> write_bytes;
    std::optional<double> opb;        // flops / read_bytes (the textbook's definition: loads)
    std::optional<double> opb_rw;     // flops / (read_bytes + write_bytes) (the roofline's)
    bool measured = false;            // false: the figures are the model's (see source)
    // requested level only: the model's exact whole-grid count, beside the measurement
    std::optional<double> model_read_bytes, model_write_bytes;
    std::string source;               // "CPU trace", "hardware counters (...)", "model (...)"
    std::string note;                 // why not measured, when not
};

struct MeasuredMetrics {
    double flops = 0;                  // measured when the counters have it, else the exact count
    std::string flops_source;
    std::vector<LevelMetric> levels;   // requested, L2, DRAM (always three, in that order)
    std::optional<double> sectors_per_request;  // from the counters (ncu's ratio)
    std::optional<double> l1_sectors, l1_requests;  // the raw counts behind that ratio
    const LevelMetric& level(const std::string& name) const;
};

// Level 1 from a CPU trace's counts when given (else from exact_grid_traffic, marked as the
// model's exact count), levels 2-3 from the counters (or their reason).
MeasuredMetrics measure(KernelId k, int T, int radius, Precision p, GridDims g,
                        const engine::Counts* trace_counts, const HardwareCounters& counters);

}  // namespace stencil::analysis
