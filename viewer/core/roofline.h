// The roofline view's content as plain data: achieved GFLOP/s against arithmetic intensity for
// every timed run of the chart's r and precision, under the memory ceiling (a copy kernel's
// bandwidth) and the compute ceiling (an FMA microbenchmark's peak). The ceilings come from a
// loaded sweep's own measurements or are measured here (measure_ceilings, on a worker thread).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "kernels/versions.h"
#include "viewer/core/plot_math.h"
#include "viewer/core/results.h"

namespace stencil::viewer {

struct Ceilings {
    std::optional<double> memory_gbps;     // a copy's GB/s (read + write)
    std::string memory_source;             // where it came from, or why there is none
    std::optional<double> compute_gflops;  // FMA peak, an FMA counted as 2 FLOP
    std::string compute_source;
    std::string device;
    bool empty() const { return !memory_gbps && !compute_gflops; }
};
// A sweep's results.json: its copy bandwidth and FMA peak (with the sweep's own note when absent).
Ceilings ceilings_from_file(const ResultsFile& f);
// Runs made here measure a copy in the same run (run_kernel): their median, when no file gave one.
std::optional<double> median_copy_gbps(const std::vector<RunRecord>& runs);
// Measured now on `backend` ("cuda" | "cpu" | "auto"): the backend's copy bandwidth over a 256 MiB
// array and, on the CUDA backend, the FMA peak of backends/cuda (measure_fma_gflops). Takes
// seconds: call it off the UI thread. Never throws: what could not be measured says why.
Ceilings measure_ceilings(const std::string& backend, Precision p);

struct RooflineFigure {
    Axis x, y;                  // both log10
    std::vector<Series> series; // the two ceilings, then one labelled series per kernel
    double ridge = 0;           // FLOP/B where the ceilings meet (0 without both)
    int points = 0;             // runs drawn
    int dram_points = 0;        // of them, with the DRAM bytes the counters measured
    int model_points = 0;       // streaming's and temporal's model (update_model.h) on the memory ceiling
    std::string note;           // what is missing (a ceiling), shown as text
    Ceilings used;              // the ceilings drawn, with their sources
};
// A run's intensity: FLOP per DRAM byte (read + write) when counters measured it, else per byte of
// the compulsory traffic 2 x cells x sizeof(real) per launch (what a perfect cache would leave; a
// temporal launch fusing K steps makes K steps' FLOPs of it).
struct RooflinePoint {
    double intensity = 0, gflops = 0;
    bool dram = false;
};
std::optional<RooflinePoint> roofline_point(const RunRecord& r);
// Without a memory ceiling in `c`, the median copy timed beside `runs` (when they have one).
RooflineFigure roofline_figure(const std::vector<RunRecord>& runs, const Ceilings& c, int radius, Precision p);

}  // namespace stencil::viewer
