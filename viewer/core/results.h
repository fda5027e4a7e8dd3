// Run results as the runs panel keeps them, and the results JSON they are loaded from and saved
// to (the file `stencil-lab sweep` writes), so a sweep made on a remote GPU can be explored on a
// laptop. Reading is lenient: unknown keys are kept out, missing ones stay "not measured".
#pragma once
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "kernels/versions.h"

namespace stencil::viewer {

struct RunRecord {
    std::string kernel = "naive";
    int tile = 8, radius = 1;
    std::string precision = "f32";
    GridDims dims{64, 64, 64};
    std::string backend = "cpu";   // "cpu" | "cuda"
    std::string device;
    double ms_min = 0, ms_median = 0, ms_max = 0;
    double gbps = 0;               // effective: 2 * cells * bytes / median time
    double copy_gbps = 0;          // copy bandwidth measured in the same run
    double of_copy = 0;            // gbps / copy_gbps
    bool checked = false, ok = false;
    double max_rel_err = 0;
    double bound = 0;              // the check's bound on max_rel_err (core/compare.h gamma); 0: unknown
    // CPU backend: the PTX engine's emulated instructions per second at the median time (its GB/s
    // say nothing about a GPU); 0 when not measured.
    double instructions_per_s = 0;
    std::string error;             // why it did not run / failed
    std::string origin;            // the file it was loaded from ("" for runs made here): reloading replaces
    // The sweep's three levels (analysis/measured.h: requested, L2, DRAM), as the file has them.
    // Only figures the file marks as measured are kept (L2 and DRAM: GPU hardware counters); `note`
    // keeps the file's reason when a level was not measured (shown instead of a guess).
    struct Level {
        std::optional<double> read_bytes, write_bytes;
        std::optional<double> opb_read, opb_rw;  // as the file writes them, when it does
        std::string source, note;
        bool measured() const { return read_bytes.has_value(); }
    };
    Level requested, l2, dram;
    std::optional<double> sectors_per_request;       // measured (ncu's ratio)
    std::optional<double> l1_sectors, l1_requests;   // the raw counts behind it
    double flops = 0;                                // outputs x (12r + 1) x steps, or the counters'
    // `stencil-lab run --steps S` (h100-steps-512.jsonl): the time is of S steps, made by launches
    // that each fuse `fused_steps` of them (temporal's K; 1 for the other kernels).
    int steps = 1, fused_steps = 1;
    int launches() const { return (steps + fused_steps - 1) / fused_steps; }

    std::optional<KernelId> kernel_id() const;
};

nlohmann::json to_json(const RunRecord& r);
RunRecord record_from_json(const nlohmann::json& j);
// The counters of one row of `stencil-lab sweep`'s results.json (experiments/sweep.cpp to_json(SweepRow)):
// "measured": {"flops", "levels": [{"level": "requested"|"L2"|"DRAM", "read_bytes", "write_bytes",
// "opb_read"|"opb", "opb_read_write", "measured", "source", "note"}], "sectors_per_request",
// "l1_global_load_sectors", "l1_global_load_requests"}, plus the older flat "counters" object.
// Every field may be missing or null. The one place that knows that format.
void read_counters(const nlohmann::json& row, RunRecord& r);
// FLOP per byte moved (read + write) at a level: the file's opb_read_write, else flops / (read +
// write) when both were measured (the committed H100 sweep predates opb_read_write). The
// convention of analysis/measured.h for the L2 and DRAM levels.
std::optional<double> level_opb_rw(const RunRecord::Level& l, double flops);
// FLOP per byte read at a level: the file's opb_read, else flops / read bytes. The OP/B chart
// uses it for every level, the model's convention (FLOP per byte loaded).
std::optional<double> level_opb_read(const RunRecord::Level& l, double flops);

struct ResultsFile {
    std::string path;
    std::string device;
    std::vector<RunRecord> runs;
    // The roofline's ceilings as the sweep measured them (its copy kernel and FMA microbenchmark).
    std::optional<double> copy_gbps, fma_gflops;
    std::string fma_note;  // the sweep's sentence on the FMA peak (why not, when not measured)
};
// Throws stencil::UserError with one line when the file cannot be read or is not results JSON.
// JSON lines are read too, one run a line: `stencil-lab run --json` lines gathered in a file, and
// bench/peers.py's .jsonl (its peers, their copy and the lab's lines, each with its copy_ratio).
ResultsFile load_results(const std::string& path);
ResultsFile parse_results(const nlohmann::json& j);
void save_results(const std::string& path, const ResultsFile& f);

}  // namespace stencil::viewer
