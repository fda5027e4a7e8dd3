// The sweep's figures, drawn with gnuplot from a results.json document (the one `stencil-lab sweep`
// writes), so that a committed sweep folder can be redrawn with newer scripts (`sweep --replot`).
// Each figure leaves its data (.dat) and script (.gp) beside its PNG and SVG, for restyling.
//
//   opb_vs_T      OP/B against T: the model's lines, the measured levels as points (both backends)
//   halo_vs_T     the halo's share of the tile, 3D and one 2D plane (both backends)
//   time_vs_T     GPU only: median time per launch, error bars from the recorded min / max
//   bandwidth_vs_T GPU only: effective GB/s, error bars from the min / max times, the copy line
//   roofline      GPU only: each configuration labelled with its kernel and T
//   traffic_vs_T  CPU only: the bytes the CPU engine counted per output cell, against the model
//                 (the CPU backend emulates a GPU: its times say nothing about one)
#pragma once
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace stencil::experiments {

struct PlotOutcome {
    std::vector<std::string> files;     // written, relative to the plot folder
    std::string note;                   // "plots written with gnuplot (...)" or why not
    std::vector<std::string> failures;  // one line per figure gnuplot failed to draw
};

// Whether gnuplot can be run here, and its PNG terminal ("pngcairo" or "png"); nullopt + why.
std::optional<std::string> gnuplot_png_terminal(std::string* why);

// The data files and .gp scripts for a results.json document, without running gnuplot; returns
// the .gp names. Throws UserError when the document is not a sweep's results.
std::vector<std::string> write_plot_scripts(const nlohmann::json& results, const std::string& plot_dir,
                                            const std::string& png_terminal);

// The scripts, then gnuplot on each where it is installed (the scripts stay either way, so the
// figures can be drawn elsewhere: scripts/draw-plots.sh).
PlotOutcome write_plots(const nlohmann::json& results, const std::string& plot_dir);

// Redraws DIR/plots/ from DIR/results.json (nothing else in DIR is touched). Throws UserError
// when DIR has no readable results.json.
PlotOutcome replot_sweep(const std::string& dir);

// gnuplot on DIR/GP (a script writing STEM.png and STEM.svg there); empty when both were drawn,
// else one line saying why (the log stays beside the script).
std::string draw_gnuplot_script(const std::string& dir, const std::string& gp);

// Writes a whole file; UserError (one line) when it cannot.
void write_text_file(const std::string& path, const std::string& text);

}  // namespace stencil::experiments
