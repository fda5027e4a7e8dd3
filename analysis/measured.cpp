#include "analysis/measured.h"

#include <stdexcept>

#include "backends/cpu/trace.h"

namespace stencil::analysis {

HardwareCounters counters_unavailable(std::string reason) {
    HardwareCounters c;
    c.unavailable = reason.empty() ? std::string("hardware counters were not collected") : reason;
    return c;
}

const LevelMetric& MeasuredMetrics::level(const std::string& name) const {
    for (const auto& l : levels)
        if (l.level == name) return l;
    throw std::out_of_range("no level " + name);
}

MeasuredMetrics measure(KernelId k, int T, int radius, Precision p, GridDims g,
                        const simt::Counts* trace_counts, const HardwareCounters& hw) {
    const GridTraffic exact = exact_grid_traffic(k, T, radius, p, g);
    MeasuredMetrics m;
    if (hw.available() && hw.flops) {
        m.flops = *hw.flops;
        m.flops_source = "hardware counters";
    } else {
        m.flops = double(exact.flops);
        m.flops_source = "exact count: (12r + 1) x interior cells";
    }
    auto opb = [&](std::optional<double> bytes) -> std::optional<double> {
        if (!bytes || *bytes <= 0) return std::nullopt;
        return m.flops / *bytes;
    };

    LevelMetric req{"requested", {}, {}, {}, "", ""};
    if (trace_counts) {
        req.read_bytes = double(trace_counts->global_load_bytes);
        req.write_bytes = double(trace_counts->global_store_bytes);
        req.source = "CPU trace";
    } else {
        req.read_bytes = double(exact.load_bytes);
        req.write_bytes = double(exact.store_bytes);
        req.source = "model (exact whole-grid count, equal to the CPU trace)";
    }
    req.opb = opb(req.read_bytes);
    m.levels.push_back(req);

    for (const char* name : {"L2", "DRAM"}) {
        LevelMetric l{name, {}, {}, {}, "", ""};
        const bool l2 = std::string(name) == "L2";
        if (!hw.available()) {
            l.note = hw.unavailable;
        } else {
            l.read_bytes = l2 ? hw.l2_read_bytes : hw.dram_read_bytes;
            l.write_bytes = l2 ? hw.l2_write_bytes : hw.dram_write_bytes;
            l.source = "hardware counters";
            if (!l.read_bytes) l.note = std::string("the ") + name + " read counter was not collected";
        }
        l.opb = opb(l.read_bytes);
        m.levels.push_back(l);
    }
    if (hw.available() && hw.l1_global_load_requests && hw.l1_global_load_sectors &&
        *hw.l1_global_load_requests > 0)
        m.sectors_per_request = *hw.l1_global_load_sectors / *hw.l1_global_load_requests;
    return m;
}

}  // namespace stencil::analysis
