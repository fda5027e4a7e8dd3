// The z-chunked kernels (streaming, temporal) as the OP/B chart and the roofline show them: bytes
// per cell update at three levels from analysis::update_traffic, and from them FLOP per byte moved.
// A temporal launch makes K updates of each cell for one read and one write of the grid, so its
// OP/B counts K updates' FLOPs per byte moved: the curve rises with K, the point of the kernel.
// The other kernels' curves (FLOP per byte loaded) come from kernel_model (model_view.h).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "kernels/versions.h"
#include "viewer/core/plot_math.h"

namespace stencil::viewer {

// Whether analysis::update_traffic models version k (the rows with a z-chunk).
bool has_update_model(KernelId k);
// K = 1 .. max_fused_steps of the row (streaming: 1 only).
std::vector<int> fused_choices(KernelId k);

struct UpdateModel {
    KernelId kernel = KernelId::streaming;
    int tile = 0, radius = 1, fused = 1;
    Precision precision = Precision::f32;
    double requested_bytes = 0, l2_bytes = 0, dram_bytes = 0;  // per cell update
    double opb_requested = 0, opb_dram = 0;  // (12r + 1) / bytes per update at that level
    int queue_registers = 0;                 // the z-queues' registers per thread
    double halo_reread_share = 0, redundant_work_share = 0, copy_ratio_bound = 0;
    std::optional<std::string> invalid;      // why (k, T, r, K) has no model (T <= 2rK, shared memory)
};
UpdateModel update_model(KernelId k, int T, int radius, Precision p, int fused = 1);

// One model curve: OP/B (requested level) over the T that fit, for one kernel and K.
struct UpdateCurve {
    KernelId kernel = KernelId::streaming;
    int fused = 1;
    std::vector<UpdateModel> points;
};
// Every curve at (r, p): streaming's, then temporal's for K = 1 .. 4; curves with no valid T are
// left out.
std::vector<UpdateCurve> update_curves(int radius, Precision p);

// The legend's / label's words: "streaming (model): per byte moved", "temporal (model): K = 2 ...".
std::string update_curve_name(const UpdateCurve& c);
// The curve's group in the OP/B chart's filter: "streaming", "temporal K=2" (each K its own).
std::string update_curve_group(const UpdateCurve& c);

}  // namespace stencil::viewer

namespace stencil::viewer {
// The models' figures as a text table for the HelpMarker: one row per (kernel, T, K) with the
// bytes per update at each level, OP/B, the queue's registers and the halo re-read share.
std::string update_table_text(const std::vector<UpdateModel>& rows);
// One short line per row for the panel: "temporal T=32 K=2: 5.2 FLOP/B moved".
std::string update_short_text(const UpdateModel& m);
}  // namespace stencil::viewer
