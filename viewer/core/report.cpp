#include "viewer/core/report.h"

#include <fmt/format.h>

#include "core/backend.h"
#include "core/run.h"
#include "viewer/core/model_view.h"

namespace stencil::viewer {

std::string headless_report(int radius, Precision p) {
    std::string s = fmt::format("stencil-lab model, 3D star stencil r = {} ({} points), {}; model: {}\n",
                                radius, point_count(radius), to_string(p), model_provenance());
    s += fmt::format("{:<15} {:>4} {:>8} {:>7} {:>8} {:>10} {:>9}  {}\n", "kernel", "T", "threads", "OP/B",
                     "limit", "smem (B)", "halo", "idea");
    for (const auto& v : kernel_versions()) {
        const KernelModel m = kernel_model(v.id, v.default_tile, radius, p);
        s += fmt::format("{:<15} {:>4} {:>8} {:>7.3f} {:>8.3f} {:>10} {:>8.1f}%  {}\n", v.name, v.default_tile,
                         m.threads, m.opb, m.opb_limit, m.smem_bytes,
                         v.id == KernelId::naive ? 0.0 : 100 * m.halo_fraction, v.idea);
    }
    s += "\nTiled kernel, OP/B against T (T^3 threads per block, at most 1024):\n";
    for (int T : model_tiles(KernelId::tiled, radius, p)) {
        const KernelModel m = kernel_model(KernelId::tiled, T, radius, p);
        const HaloFigures h = halo_figures(T, radius, 3);
        s += fmt::format("  T = {:>2}: OP/B {:.2f}, halo {} of {} cells = {:.0f}%\n", T, m.opb, h.halo_cells,
                         h.in_cells, 100 * h.fraction);
    }
    if (auto reason = cuda_unavailable_reason()) s += "\nGPU: " + *reason + " (GPU figures need a GPU run or a loaded results.json)\n";
    s += "Open the viewer on a machine with a display to step through the kernels.\n";
    return s;
}

std::string headless_runs(Backend& backend, int n, bool& ok) {
    const bool gpu = backend.kind() == BackendKind::cuda;
    if (n <= 0) n = gpu ? 256 : 48;
    ok = true;
    std::string s = fmt::format("\nChecked runs on the {} backend ({}), {}^3, fp32, r = 1: fp64 reference "
                                "first, then timed ({}):\n",
                                to_string(backend.kind()), backend.device().name, n,
                                gpu ? "CUDA events, L2 flushed, median of 10" : "wall clock, median of 3");
    for (const auto& v : kernel_versions()) {
        RunOptions o;
        o.request.kernel = v.id, o.request.tile = v.default_tile, o.request.dims = {n, n, n};
        o.reps = gpu ? 10 : 3;
        o.warmup = gpu ? 2 : 0;
        const RunReport r = run_kernel(backend, o);
        ok = ok && r.ok;
        s += fmt::format("  {:<15} T={:<3} {}", v.name, v.default_tile, r.ok ? "check ok" : "CHECK FAILED");
        if (r.timed && gpu)
            s += fmt::format(", {:.4f} ms, {:.1f} GB/s, {:.2f} of the copy bandwidth", r.ms.median, r.gbps,
                             r.copy_ratio);
        else if (r.timed)  // the emulator's speed says nothing of a GPU's: no GB/s, no copy ratio
            s += fmt::format(", {:.1f} ms emulated ({:.1f} Mcell/s on the CPU backend, not a GPU speed)",
                             r.ms.median, r.gcells * 1e3);
        s += r.ok ? "\n" : ": " + r.check.summary() + "\n";
    }
    return s;
}

}  // namespace stencil::viewer
