#include "distributed/scaling_report.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>

namespace stencil::distributed {

std::optional<ScalingMode> parse_scaling_mode(const std::string& text) {
    if (text == "strong") return ScalingMode::strong;
    if (text == "weak") return ScalingMode::weak;
    return std::nullopt;
}

const char* to_string(ScalingMode m) { return m == ScalingMode::strong ? "strong" : "weak"; }

std::vector<int> scaling_rank_counts(int ranks) {
    std::vector<int> counts;
    for (int c = 1; c < ranks; c *= 2) counts.push_back(c);
    counts.push_back(ranks);
    return counts;
}

ScalingRow scaling_row(const nlohmann::json& run_report) {
    ScalingRow r;
    r.run = run_report;
    r.ranks = run_report.at("ranks").get<int>();
    r.seconds_per_step = run_report.at("seconds_per_step").get<double>();
    return r;
}

void ScalingSweep::set_efficiencies() {
    if (rows.empty()) return;
    const double r0 = rows[0].ranks, t0 = rows[0].seconds_per_step;
    for (ScalingRow& row : rows) {
        const double tn = row.seconds_per_step;
        row.efficiency = tn <= 0 ? 0 : mode == ScalingMode::strong ? r0 * t0 / (row.ranks * tn) : t0 / tn;
    }
}

bool ScalingSweep::ok() const {
    for (const ScalingRow& row : rows)
        if (!row.run->value("ok", false)) return false;
    return !rows.empty();
}

namespace {
double number_or_nan(const nlohmann::json& j, const char* key) {
    return j.contains(key) && j[key].is_number() ? j[key].get<double>() : NAN;
}
// A time for the text table, or "-" where the run has none (the exchange inside the steps is timed
// under MPI only; NCCL runs overlap it with the inner part, and time it alone instead).
std::string seconds_or_dash(double s) { return std::isnan(s) ? std::string("-") : fmt::format("{:.4g}", s); }
double predicted_exchange(const nlohmann::json& run) {
    return run.contains("link") ? number_or_nan(run["link"], "predicted_exchange_seconds_per_step") : NAN;
}
}  // namespace

nlohmann::json ScalingSweep::to_json() const {
    nlohmann::json table = nlohmann::json::array();
    for (const ScalingRow& row : rows) {
        const nlohmann::json& run = *row.run;
        nlohmann::json j = {
            {"ranks", row.ranks},
            {"decomposition", run.at("decomposition")},
            {"grid", run.at("grid")},
            {"ok", run.at("ok")},
            {"max_abs_diff_vs_single_domain", run.at("max_abs_diff_vs_single_domain")},
            {"seconds_per_step", row.seconds_per_step},
            {"exchange_seconds_per_step", run.at("exchange_seconds_per_step")},
            {"exchange_alone_seconds", run.value("exchange_alone_seconds", nlohmann::json(nullptr))},
            {"halo_bytes_per_step", run.at("halo_bytes_per_step").at("total")},
            {"model_halo_bytes_per_step", run.at("halo_bytes_per_step").at("model_total")},
            {"efficiency", row.efficiency},
        };
        if (run.contains("link")) j["link"] = run["link"];
        table.push_back(j);
    }
    const nlohmann::json& first = rows.empty() ? nlohmann::json::object() : *rows[0].run;
    return {{"ok", ok()},
            {"scaling", to_string(mode)},
            {"efficiency_formula", mode == ScalingMode::strong ? "r0 t0 / (N tN), first row r0 ranks"
                                                               : "t0 / tN, first row"},
            {"problem", first.value("problem", "")},
            {"kernel", first.value("kernel", "")},
            {"precision", first.value("precision", "")},
            {"steps", first.value("steps", 0)},
            {"backend", first.value("backend", "")},
            {"halo_exchange", first.value("halo_exchange", "")},
            {"rows", table}};
}

std::string ScalingSweep::text() const {
    const nlohmann::json j = to_json();
    std::string s = fmt::format("{} scaling, {} {} {}, {} steps per row, halos through {}\n", to_string(mode),
                                j["problem"].get<std::string>(), j["kernel"].get<std::string>(),
                                j["precision"].get<std::string>(), j["steps"].get<int>(),
                                j["halo_exchange"].get<std::string>());
    s += fmt::format("  {:>5}  {:<9} {:<14} {:>12} {:>12} {:>12} {:>12} {:>12} {:>6}  {}\n", "ranks", "split",
                     "grid", "s/step", "exchange s", "alone s", "predicted s", "halo B/step", "eff.", "check");
    for (const ScalingRow& row : rows) {
        const nlohmann::json& run = *row.run;
        std::string grid;
        for (const auto& g : run["grid"]) {
            if (!grid.empty()) grid += 'x';
            grid += std::to_string(g.get<int>());
        }
        const double predicted = predicted_exchange(run);
        s += fmt::format("  {:>5}  {:<9} {:<14} {:>12.4g} {:>12} {:>12} {:>12} {:>12} {:>6.3f}  {}\n", row.ranks,
                         run["decomposition"].get<std::string>(), grid, row.seconds_per_step,
                         seconds_or_dash(number_or_nan(run, "exchange_seconds_per_step")),
                         seconds_or_dash(number_or_nan(run, "exchange_alone_seconds")), seconds_or_dash(predicted),
                         run["halo_bytes_per_step"]["total"].get<long long>(), row.efficiency,
                         run.value("ok", false) ? "ok" : "DIFFERS");
    }
    return s;
}

std::string ScalingSweep::plot_data() const {
    std::string d = "# ranks seconds_per_step exchange_seconds_per_step predicted_exchange_seconds efficiency "
                    "exchange_alone_seconds\n";
    // One rank exchanges nothing: its exchange alone and its prediction (0, from the GPU's probe
    // of itself in an NCCL sweep) are left out of the log-scale figure.
    for (const ScalingRow& row : rows)
        d += fmt::format("{} {:.9g} {:.9g} {:.9g} {:.6g} {:.9g}\n", row.ranks, row.seconds_per_step,
                         number_or_nan(*row.run, "exchange_seconds_per_step"),
                         row.ranks > 1 ? predicted_exchange(*row.run) : NAN, row.efficiency,
                         row.ranks > 1 ? number_or_nan(*row.run, "exchange_alone_seconds") : NAN);
    return d;
}

std::string ScalingSweep::plot_script(const std::string& png_terminal) const {
    const nlohmann::json j = to_json();
    const std::string title = fmt::format("{} scaling: {} {} {}, halos through {}", to_string(mode),
                                          j["problem"].get<std::string>(), j["kernel"].get<std::string>(),
                                          j["precision"].get<std::string>(), j["halo_exchange"].get<std::string>());
    return fmt::format(
        "# scaling.gp: written by `stencil-lab run --scaling` beside scaling.json; `gnuplot scaling.gp` redraws it.\n"
        "set encoding utf8\n"
        "set terminal {0} size 1200,760 font 'Sans,13' noenhanced\n"
        "set output 'scaling.png'\n"
        "set datafile missing 'NaN'\n"
        "set grid lc rgb '#d0d0d0'\n"
        "set title \"{1}\" font 'Sans,16'\n"
        "set xlabel 'ranks'\n"
        "set logscale x 2\n"
        "set ylabel 'seconds per step'\n"
        "set logscale y\n"
        "set y2label 'efficiency ({2})'\n"
        "set y2range [0:1.5]\n"
        "set y2tics\n"
        "set ytics nomirror\n"
        "set key outside bottom center horizontal\n"
        "plot 'scaling.dat' using 1:2 with linespoints lw 2 pt 7 title 'step (measured)', \\\n"
        "     'scaling.dat' using 1:3 with linespoints lw 2 pt 5 title 'halo exchange in the step (measured)', \\\n"
        "     'scaling.dat' using 1:6 with linespoints lw 2 pt 13 title 'halo exchange alone (measured)', \\\n"
        "     'scaling.dat' using 1:4 with linespoints lw 2 dt 2 pt 4 title 'halo exchange (model, probed link)', \\\n"
        "     'scaling.dat' using 1:5 axes x1y2 with linespoints lw 2 pt 9 title 'efficiency'\n"
        "set terminal svg size 1200,760 font 'Sans,13' dynamic noenhanced\n"
        "set output 'scaling.svg'\n"
        "replot\n",
        png_terminal, title, mode == ScalingMode::strong ? "r0 t0 / (N tN)" : "t0 / tN");
}

}  // namespace stencil::distributed
