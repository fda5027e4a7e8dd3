#include "viewer/core/update_model.h"

#include <fmt/format.h>

#include "analysis/model.h"
#include "viewer/core/model_view.h"

namespace stencil::viewer {

bool has_update_model(KernelId k) { return version(k).z_chunk > 0; }

std::vector<int> fused_choices(KernelId k) {
    std::vector<int> v;
    for (int K = 1; K <= version(k).max_fused_steps; ++K) v.push_back(K);
    return v;
}

UpdateModel update_model(KernelId k, int T, int radius, Precision p, int fused) {
    UpdateModel m;
    m.kernel = k;
    m.tile = T;
    m.radius = radius;
    m.precision = p;
    m.fused = steps_per_launch(k, fused);
    // The K levels' shared memory must fit a block's (the table's rule at K = 1 only): static or
    // dynamic, with the default limits.
    const long long limit = smem_limit(k);
    if (const long long s = smem_bytes(k, T, radius, bytes_of(p), m.fused); s > limit) {
        m.invalid = fmt::format("{} T={} K={}: {} bytes of shared memory, more than {} KiB", version(k).name, T,
                                m.fused, s, limit / 1024);
        return m;
    }
    try {
        const analysis::UpdateTraffic u = analysis::update_traffic(k, T, radius, p, m.fused);
        m.requested_bytes = u.requested_bytes;
        m.l2_bytes = u.l2_bytes;
        m.dram_bytes = u.dram_bytes;
        const double flops = 12.0 * radius + 1;  // per update: the useful work
        m.opb_requested = u.requested_bytes > 0 ? flops / u.requested_bytes : 0;
        m.opb_dram = u.dram_bytes > 0 ? flops / u.dram_bytes : 0;
        m.queue_registers = u.queue_registers;
        m.halo_reread_share = u.halo_reread_share;
        m.redundant_work_share = u.redundant_work_share;
        m.copy_ratio_bound = u.copy_ratio_bound;
    } catch (const std::exception& e) {  // T <= 2rK: no output left
        m.invalid = e.what();
    }
    return m;
}

std::vector<UpdateCurve> update_curves(int radius, Precision p) {
    std::vector<UpdateCurve> out;
    for (const auto& v : kernel_versions()) {
        if (!has_update_model(v.id)) continue;
        for (int K : fused_choices(v.id)) {
            UpdateCurve c{v.id, K, {}};
            for (int T : model_tiles(v.id, radius, p)) {
                UpdateModel m = update_model(v.id, T, radius, p, K);
                if (!m.invalid) c.points.push_back(std::move(m));
            }
            if (!c.points.empty()) out.push_back(std::move(c));
        }
    }
    return out;
}

std::string update_curve_name(const UpdateCurve& c) {
    if (version(c.kernel).max_fused_steps > 1)
        return fmt::format("{} (model): K = {}, per byte moved", version(c.kernel).name, c.fused);
    return fmt::format("{} (model): per byte moved", version(c.kernel).name);
}

std::string update_curve_group(const UpdateCurve& c) {
    if (version(c.kernel).max_fused_steps > 1) return fmt::format("{} K={}", version(c.kernel).name, c.fused);
    return version(c.kernel).name;
}

}  // namespace stencil::viewer

namespace stencil::viewer {

std::string update_table_text(const std::vector<UpdateModel>& rows) {
    std::string s = "Bytes per cell update (analysis::update_traffic), one launch of an interior block:\n"
                    "kernel          T   K  requested  L2     DRAM   OP/B moved  OP/B DRAM  queue regs  halo re-read\n";
    for (const auto& m : rows)
        s += fmt::format("{:<15} {:>2}  {}  {:>9.2f}  {:>5.2f}  {:>5.2f}  {:>10.2f}  {:>9.2f}  {:>10}  {:>11.1f}%\n",
                         version(m.kernel).name, m.tile, m.fused, m.requested_bytes, m.l2_bytes, m.dram_bytes,
                         m.opb_requested, m.opb_dram, m.queue_registers, 100 * m.halo_reread_share);
    s += "OP/B moved = (12r+1) / requested bytes per update (loads + stores): a temporal launch makes K updates "
         "of each cell for one read and one write, so its OP/B grows with K.\n"
         "DRAM: the chunk's columns read once over Z + 2rK planes and the output written once, over K updates.";
    return s;
}

std::string update_short_text(const UpdateModel& m) {
    if (version(m.kernel).max_fused_steps > 1)
        return fmt::format("{} T={} K={}: {:.2f}", version(m.kernel).name, m.tile, m.fused, m.opb_requested);
    return fmt::format("{} T={}: {:.2f}", version(m.kernel).name, m.tile, m.opb_requested);
}

}  // namespace stencil::viewer
