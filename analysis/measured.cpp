#include "analysis/measured.h"

#include <fmt/format.h>

#include <stdexcept>

#include "core/engine_trace.h"

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
                        const engine::Counts* trace_counts, const HardwareCounters& hw) {
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

    auto opb_rw = [&](std::optional<double> r, std::optional<double> w) -> std::optional<double> {
        if (!r || !w || *r + *w <= 0) return std::nullopt;
        return m.flops / (*r + *w);
    };

    LevelMetric req;
    req.level = "requested";
    req.model_read_bytes = double(exact.load_bytes);
    req.model_write_bytes = double(exact.store_bytes);
    const char* model_source = "model (exact whole-grid count)";
    if (trace_counts) {
        req.read_bytes = double(trace_counts->global_load_bytes);
        req.write_bytes = double(trace_counts->global_store_bytes);
        req.source = "CPU trace";
        req.measured = true;
    } else if (hw.available() && hw.requested_read_bytes) {
        // The GPU's own count of what the load instructions asked for: it can differ from the
        // model (a compiler that merged or split loads, a launch that did something else).
        req.read_bytes = hw.requested_read_bytes;
        req.write_bytes = hw.requested_write_bytes;
        req.source = "hardware counters (smsp__sass_data_bytes_mem_global_op_ld/st.sum)";
        req.measured = true;
    } else {
        // Nothing measured this level: the model's count stands in, and says so.
        req.read_bytes = req.model_read_bytes;
        req.write_bytes = req.model_write_bytes;
        const std::string why = !hw.available()            ? hw.unavailable
                                : !hw.requested_unavailable.empty() ? hw.requested_unavailable
                                : "the global load instruction counter was not collected";
        req.source = fmt::format("{}, NOT measured: {}", model_source, why);
        req.note = "requested bytes not measured: " + why;
    }
    req.opb = opb(req.read_bytes);
    req.opb_rw = opb_rw(req.read_bytes, req.write_bytes);
    m.levels.push_back(req);

    for (const char* name : {"L2", "DRAM"}) {
        LevelMetric l;
        l.level = name;
        const bool l2 = std::string(name) == "L2";
        if (!hw.available()) {
            l.note = hw.unavailable;
        } else {
            l.read_bytes = l2 ? hw.l2_read_bytes : hw.dram_read_bytes;
            l.write_bytes = l2 ? hw.l2_write_bytes : hw.dram_write_bytes;
            l.source = "hardware counters";
            l.measured = bool(l.read_bytes);
            if (!l.read_bytes) l.note = std::string("the ") + name + " read counter was not collected";
        }
        l.opb = opb(l.read_bytes);
        l.opb_rw = opb_rw(l.read_bytes, l.write_bytes);
        m.levels.push_back(l);
    }
    if (hw.available()) {
        m.l1_sectors = hw.l1_global_load_sectors;
        m.l1_requests = hw.l1_global_load_requests;
    }
    if (hw.available() && hw.l1_global_load_requests && hw.l1_global_load_sectors &&
        *hw.l1_global_load_requests > 0)
        m.sectors_per_request = *hw.l1_global_load_sectors / *hw.l1_global_load_requests;
    return m;
}

}  // namespace stencil::analysis
