// How long a `run` will take on the CPU engine, said before it starts: the engine interprets every
// thread, so a grid the GPU does in a millisecond takes minutes here, and a user who asked for the
// README's 512^3 deserves to know that before the wait, not 150 s into it.
//
// The rate is measured, not assumed: one launch of the same kernel, tile, radius, precision and
// fused steps on a small grid is timed on the engine (the PTX compiled first, so the compile is not
// counted), and the run's launches are scaled from it by cells and steps. The engine's time per
// cell depends on the kernel (conv27's 27 loads against naive's 7, a tile's halo share), which no
// constant could say.
#pragma once
#include <functional>
#include <string>

#include "core/engine_runs.h"
#include "core/run.h"

namespace stencil::cli {

struct EngineEstimate {
    double seconds = 0;            // the whole run: its checked launch, warm-up and timed launches
    double sample_seconds = 0;     // the calibration launch itself
    long long sample_cells = 0;    // its grid's cells
};

// One calibration launch of `opt.request` on a grid of at most kSampleSide^3 cells, scaled to the
// run `opt` describes.
inline constexpr int kSampleSide = 32;
EngineEstimate estimate_engine_run(EngineRuns& engine, const RunOptions& opt);

// The line said before a long CPU run: "no GPU: running 512^3 on the CPU engine, about 12 min;
// --size 64 for a quick look" (`no_gpu`: the user asked for any backend and got the CPU; the
// quick-look hint only when the grid is larger than 64^3).
std::string engine_run_notice(const GridDims& dims, const EngineEstimate& e, bool no_gpu);

// The same line for the other problems' runs on the CPU (cardiac2d's mesh, the derivative's grid),
// said on stderr before the run: "no GPU: running <what> on the CPU engine, about <seconds>[;
// <quick> for a quick look]". `sample` is run twice (the first compiles and loads the kernel, not
// the run's rate) and the second timed: `sample_work` units of work, scaled to the run's `work`.
// Nothing is said when the run is short (under kNoticeSeconds): a quick run needs no warning.
inline constexpr double kNoticeSeconds = 5;
void say_engine_notice(const std::string& what, const std::function<void()>& sample, double sample_work, double work,
                       const std::string& quick, bool no_gpu);

}  // namespace stencil::cli
