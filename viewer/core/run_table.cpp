#include "viewer/core/run_table.h"

#include <fmt/format.h>

namespace stencil::viewer {

const std::vector<RunColumn>& run_columns() {
    static const std::vector<RunColumn> c = {
        {"kernel", ""},
        {"T", "tile edge T (IN_TILE_DIM)"},
        {"r", "stencil radius"},
        {"prec", "f32 or f64"},
        {"grid", "nx x ny x nz cells"},
        {"backend", "cpu (the PTX engine: its times are no GPU's) or cuda; hover a row for the device"},
        {"median ms", "median of the timed launches (hover: min / median / max)"},
        {"speed", "cuda: GB/s, the effective bandwidth = 2 x cells x sizeof(real) / median time (one read and one "
                  "write per cell: the traffic an ideal cache would leave). cpu: inst/s, the PTX engine's emulated "
                  "instructions per second (all threads) at the median time: an interpreter's GB/s say nothing "
                  "about a GPU"},
        {"of copy", "GB/s / copy GB/s: the effective bandwidth as a share of a plain copy kernel's, measured in the "
                    "same run (1.0 = as fast as copying the grid)"},
        {"error", "pass or FAIL: the output against the fp64 reference within the check's rounding bound "
                  "gamma x sum |w_i x_i| per cell; the number is max |out - ref| / max |ref|"}};
    return c;
}

std::string si_rate(double v) {
    const char* unit[] = {"", "k", "M", "G", "T"};
    int u = 0;
    while (v >= 1000 && u < 4) v /= 1000, ++u;
    return fmt::format("{:.3g} {}", v, unit[u]);
}

RunCell speed_cell(const RunRecord& x) {
    if (x.backend == "cpu") {
        if (x.instructions_per_s > 0)
            return {si_rate(x.instructions_per_s) + "inst/s", CellTone::normal,
                    fmt::format("{:.0f} emulated instructions per second (GB/s on the engine: {:.2f})",
                                x.instructions_per_s, x.gbps)};
        return {"-", CellTone::muted, "no instruction count for this CPU run"};
    }
    return {fmt::format("{:.1f} GB/s", x.gbps)};
}

RunCell error_cell(const RunRecord& x) {
    const std::string bound = x.bound > 0 ? fmt::format(" {} {:.2g}", x.ok ? "<=" : ">", x.bound) : "";
    return {fmt::format("{} {:.2g}{}", x.ok ? "pass" : "FAIL", x.max_rel_err, bound), x.ok ? CellTone::good : CellTone::bad,
            fmt::format("max |out - ref| / magnitude {} the check's rounding bound{}", x.ok ? "within" : "outside",
                        x.bound > 0 ? fmt::format(" gamma = {:.3g}", x.bound) : std::string(" (the file gives no bound)"))};
}

std::vector<RunCell> run_cells(const RunRecord& x) {
    std::vector<RunCell> c;
    c.push_back({x.kernel});
    c.push_back({x.tile > 0 ? std::to_string(x.tile) : "-", x.tile > 0 ? CellTone::normal : CellTone::muted});  // peers have no T
    c.push_back({std::to_string(x.radius)});
    c.push_back({x.precision});
    c.push_back({fmt::format("{}x{}x{}", x.dims.nx, x.dims.ny, x.dims.nz)});
    c.push_back({x.backend, CellTone::normal, x.device});
    c.push_back({fmt::format("{:.3f}", x.ms_median), CellTone::normal,
                 fmt::format("min {:.3f} / median {:.3f} / max {:.3f} ms", x.ms_min, x.ms_median, x.ms_max)});
    c.push_back(speed_cell(x));
    c.push_back({x.copy_gbps > 0 ? fmt::format("{:.2f}", x.of_copy) : "-", x.copy_gbps > 0 ? CellTone::normal : CellTone::muted,
                 x.copy_gbps > 0 ? fmt::format("copy: {:.1f} GB/s", x.copy_gbps) : "no copy kernel was timed"});
    if (!x.error.empty())
        // A failed check is FAIL although it was never timed (run_kernel times only what passed).
        c.push_back({x.ms_median > 0 || (x.checked && !x.ok) ? "FAIL" : "skipped", CellTone::bad, x.error});
    else if (x.checked)
        c.push_back(error_cell(x));
    else
        c.push_back({"not checked", CellTone::muted});
    return c;
}

}  // namespace stencil::viewer
