// `stencil-lab sweep`: every (kernel, T) configuration checked against the reference and timed
// through core/run.h's run_kernel, and placed next to the model. This file is the run itself;
// experiments/sweep_output.h writes results.csv / results.json, experiments/sweep_plots.h draws
// them with gnuplot.
//
// The backend comes in as a stencil::Backend&; hardware counters and the FMA microbenchmark, which
// only the CUDA backend can provide, come in through callbacks / values in SweepOptions (empty:
// each level or ceiling carries the reason it was not measured).
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "analysis/measured.h"
#include "analysis/model.h"
#include "core/backend.h"
#include "core/run.h"

namespace stencil::experiments {

struct SweepOptions {
    std::vector<KernelId> kernels;  // empty: every version
    std::vector<int> tiles;         // empty: each version's sweep_tiles (kernels/versions.h)
    int radius = 1;
    Precision precision = Precision::f32;
    int size = 256;                 // an N^3 grid
    int reps = 10, warmup = 3;
    std::uint64_t seed = 1;
    std::string out_dir;            // checked before anything runs (when not empty)
    // On the CPU backend, count level 1 (requested bytes) from the trace of one more launch.
    bool trace_level1 = true;

    // Hardware counters for one request (CUDA backend; empty: not collected).
    std::function<analysis::HardwareCounters(const LaunchRequest&)> counters;
    std::string counters_unavailable_reason;  // used when `counters` is empty
    // The roofline's compute ceiling, from an FMA microbenchmark (GFLOP/s) when one ran.
    std::optional<double> fma_gflops;
    std::string fma_note;  // why not, when not

    // Called before each configuration and once at the end (done == total).
    std::function<void(int done, int total, const std::string& what)> progress;
};

struct SweepRow {
    LaunchRequest request;
    analysis::Model model;
    analysis::GridTraffic exact;          // the model's exact whole-grid counts
    std::optional<analysis::MeasuredMetrics> measured;
    double model_sectors_per_request = 0; // warp_pattern over the whole grid
    long long model_requests = 0, model_sectors = 0;  // its raw counts (0: not computed)
    std::string skipped;                  // why this configuration did not run (empty: it ran)
    std::optional<RunReport> run;         // check + timing
};

struct SweepResult {
    std::string backend;       // "cuda" | "cpu"
    std::string device;
    GridDims dims;
    int radius = 1;
    Precision precision = Precision::f32;
    double copy_gbps = 0;      // median over the runs' copy measurements
    std::optional<double> fma_gflops;
    std::string fma_note;
    std::vector<SweepRow> rows;
    std::vector<std::string> files;  // written, relative to out_dir
    std::string plots_note;          // "plots written" or why they were skipped
    std::vector<std::string> plot_failures;  // one line per plot gnuplot failed to draw
};


// Creates `dir` and checks that a file can be written there; UserError (one line) if not.
void check_output_dir(const std::string& dir);

// Runs every configuration; throws UserError for bad options (unknown sizes, an output folder
// that cannot be written, nothing to run, every configuration skipped) before running anything.
SweepResult run_sweep(Backend& backend, const SweepOptions& options);

}  // namespace stencil::experiments
