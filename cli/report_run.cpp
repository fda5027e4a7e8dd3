#include "cli/report_run.h"

#include <fmt/format.h>

namespace stencil::cli {

std::string bytes_text(double b) {
    if (b >= 1024.0 * 1024 * 1024) return fmt::format("{:.1f} GiB", b / (1024.0 * 1024 * 1024));
    if (b >= 1024.0 * 1024) return fmt::format("{:.1f} MiB", b / (1024.0 * 1024));
    if (b >= 1024.0) return fmt::format("{:.1f} KiB", b / 1024.0);
    return fmt::format("{:.0f} B", b);
}

std::string request_title(const LaunchRequest& r) {
    const auto& v = version(r.kernel);
    const std::string tile = r.block ? fmt::format("block {}x{}x{} (--block)", r.block->x, r.block->y, r.block->z)
                             : v.tile_is_template ? fmt::format("T={}", r.tile)
                                                  : fmt::format("block {0}x{0}x{0}", r.tile);
    return fmt::format("{} ({}), {}, r={}, {}, grid {}x{}x{}", v.name, v.title, tile, r.radius,
                       to_string(r.precision), r.dims.nx, r.dims.ny, r.dims.nz);
}

std::string format_run_report(const RunReport& rep) {
    std::string s;
    const auto& g = rep.geometry;
    const auto& a = rep.attributes;
    s += request_title(rep.request) + "\n";
    s += fmt::format("  on        {} ({} backend)\n", rep.device.name, to_string(rep.backend));
    std::string outputs = rep.request.block          ? std::string("one output cell per thread")
                          : g.out_width != g.out_tile ? fmt::format("{} x {} output cells per block plane",
                                                                     g.out_width, g.out_tile)
                                                      : fmt::format("{} output cells per block edge", g.out_tile);
    if (version(rep.request.kernel).z_chunk > 0) outputs += fmt::format(", {} planes per block", g.out_planes);
    s += fmt::format("  launch    grid {}x{}x{} blocks of {}x{}x{} threads, {}, {} static shared memory per block\n",
                     g.grid.x, g.grid.y, g.grid.z, g.block.x, g.block.y, g.block.z, outputs,
                     bytes_text(static_cast<double>(g.smem_bytes)));
    std::string res;
    if (a.registers_per_thread >= 0) res += fmt::format("{} registers/thread", a.registers_per_thread);
    if (a.static_smem_bytes >= 0)
        res += fmt::format("{}{} B shared/block (compiler)", res.empty() ? "" : ", ", a.static_smem_bytes);
    if (a.active_blocks_per_sm >= 0)
        res += fmt::format("{}{} blocks/SM", res.empty() ? "" : ", ", a.active_blocks_per_sm);
    if (a.occupancy >= 0) res += fmt::format("{}occupancy {:.0f}%", res.empty() ? "" : ", ", 100 * a.occupancy);
    if (!res.empty()) s += "  resources " + res + "\n";
    s += "  " + rep.check_line() + "\n";
    if (rep.timed) {
        const bool gpu = rep.backend == BackendKind::cuda;
        s += fmt::format("  time      min {:.4g} ms, median {:.4g} ms, max {:.4g} ms ({} launches after {} "
                         "warm-up{})\n",
                         rep.ms.min, rep.ms.median, rep.ms.max, rep.reps, rep.warmup,
                         gpu ? ", L2 flushed before each" : "; emulated threads, not a GPU");
        if (rep.request.steps > 1)  // run --steps S: a sample is all S steps, each an update of every cell
            s += fmt::format("  bandwidth {:.4g} GB/s copy-equivalent ({} steps x 2 x cells x {} B / median: each "
                             "update one read and one write; fused steps may pass the copy)\n",
                             rep.gbps, rep.request.steps, bytes_of(rep.request.precision));
        else
            s += fmt::format("  bandwidth {:.4g} GB/s effective (2 x cells x {} B / median: each cell read "
                             "once, written once)\n",
                             rep.gbps, bytes_of(rep.request.precision));
        s += fmt::format("  copy      {:.4g} GB/s {} of the same array (read + write), kernel / copy = {:.3g}\n",
                         rep.copy_gbps, gpu ? "device-to-device cudaMemcpy" : "memcpy", rep.copy_ratio);
        const int useful = flops_per_point(rep.request.radius);
        const int executed = executed_flops_per_point(rep.request.kernel, rep.request.radius);
        s += fmt::format("  rate      {:.4g} Gcell/s, {:.4g} GFLOP/s ({} FLOP per output)\n", rep.gcells,
                         rep.gflops, useful);
        if (executed != useful)  // conv27: the dense cube multiplies its zeros too
            s += fmt::format("  executed  {:.4g} GFLOP/s ({} FLOP per output, the star's {} among them)\n",
                             rep.executed_gflops, executed, useful);
    } else if (rep.ok) {
        s += "  time      not measured\n";
    } else if (!rep.cancelled) {
        s += "  time      not measured: the kernel's output is wrong\n";
    }
    return s;
}

}  // namespace stencil::cli
