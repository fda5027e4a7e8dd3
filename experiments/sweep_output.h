// What a sweep leaves in its folder: results.csv (one row per configuration, for spreadsheets),
// results.json (everything, for the viewer and for redrawing the plots), and plots/ (see
// experiments/sweep_plots.h).
#pragma once
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "experiments/sweep.h"

namespace stencil::experiments {

nlohmann::json to_json(const SweepRow& row);
nlohmann::json to_json(const SweepResult& result);
std::string csv_header();
std::string csv_line(const SweepRow& row);

// Writes results.csv and results.json into dir (and, with plots, plots/*.{dat,gp,png,svg});
// fills result.files, result.plots_note and result.plot_failures. Throws UserError if dir cannot
// be written.
void write_sweep_outputs(SweepResult& result, const std::string& dir, bool plots);

}  // namespace stencil::experiments
