// tune.json and the plot of the search (tune.h): the data, a gnuplot script beside it, and the
// figure drawn where gnuplot runs (experiments/sweep_plots.h).
#include <fmt/format.h>

#include <filesystem>

#include "experiments/sweep.h"
#include "experiments/sweep_plots.h"
#include "experiments/tune.h"

namespace stencil::experiments {

namespace {

// T, the ranked figure, its low and high (min / max time; the model's bytes have no spread), and
// whether this is the best configuration.
std::string tune_data(const TuneResult& r) {
    std::string d = r.timed ? "# T median_ms min_ms max_ms best\n" : "# T requested_bytes_per_output - - best\n";
    for (size_t i = 0; i < r.tried.size(); ++i) {
        const TuneTrial& t = r.tried[i];
        if (!t.ok || (r.timed && !t.timed)) continue;
        const bool best = r.best && *r.best == i;
        if (r.timed) d += fmt::format("{} {} {} {} {}\n", t.tile, t.ms_median, t.ms_min, t.ms_max, best ? 1 : 0);
        else d += fmt::format("{} {} {} {} {}\n", t.tile, t.requested_bytes_per_output, t.requested_bytes_per_output,
                              t.requested_bytes_per_output, best ? 1 : 0);
    }
    return d;
}

std::string tune_script(const TuneResult& r, const std::string& term) {
    const std::string axis = r.timed ? "ms per launch (median; bars: min to max)" : "requested bytes per output";
    const std::string how = r.timed ? "each checked, then timed" : "each checked; ranked by the model's exact count, no time on the CPU";
    return fmt::format(
        "set terminal {} size 1000,620 font ',13'\nset output 'tune.png'\n"
        "set title \"tune: {} r = {} {} N = {} on {} ({})\\n{{/*0.85 {}}}\"\n"
        "set xlabel 'T'\nset ylabel \"{}\" noenhanced\nset key top right box opaque\nset grid\n"
        "set offsets 1, 1, 0, 0\nset lmargin 12\n"
        "plot 'tune.dat' using 1:2:3:4 with yerrorbars pt 7 ps 1.2 title 'checked configurations', \\\n"
        "     '' using ($5 > 0 ? $1 : 1/0):2 with points pt 6 ps 3 lw 2 title 'best'\n"
        "set terminal svg size 1000,620 font ',13'\nset output 'tune.svg'\nreplot\n",
        term, version(r.kernel).name, r.radius, to_string(r.precision), r.size, r.device, r.backend, how, axis);
}

}  // namespace

TuneOutputs write_tune_outputs(const TuneResult& r, const std::string& dir) {
    check_output_dir(dir);
    TuneOutputs out;
    write_text_file(dir + "/tune.json", r.to_json().dump(1) + "\n");
    out.files.push_back("tune.json");
    std::string why;
    const auto term = gnuplot_png_terminal(&why);
    write_text_file(dir + "/tune.dat", tune_data(r));
    write_text_file(dir + "/tune.gp", tune_script(r, term ? *term : "pngcairo"));
    out.files.insert(out.files.end(), {"tune.dat", "tune.gp"});
    if (!term) {
        out.plot_note = "no plot drawn: " + why;
        return out;
    }
    if (const std::string failure = draw_gnuplot_script(dir, "tune.gp"); !failure.empty()) {
        out.plot_note = failure;
        return out;
    }
    out.files.insert(out.files.end(), {"tune.png", "tune.svg"});
    out.plot_note = "plot written (tune.png, tune.svg)";
    return out;
}

}  // namespace stencil::experiments
