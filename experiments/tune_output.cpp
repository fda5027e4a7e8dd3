// tune.json and the plot of the search (tune.h): the data, a gnuplot script beside it, and the
// figure drawn where gnuplot runs (experiments/sweep_plots.h).
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <filesystem>

#include "experiments/sweep.h"
#include "experiments/sweep_plots.h"
#include "experiments/tune.h"

namespace stencil::experiments {

namespace {

// The configuration (quoted: "T=8", "block 32x4x2"), the ranked figure (a time per step: a launch
// that fuses K steps is divided by K), its low and high (min / max time; the model's bytes have
// no spread), and whether this is the best configuration. The plot puts the configurations side by
// side in the order tried (tiles, then block shapes or z-chunks, then K).
std::string tune_data(const TuneResult& r) {
    std::string d = r.timed ? "# configuration median_ms min_ms max_ms best sectors_per_request\n"
                            : "# configuration requested_bytes_per_output - - best sectors_per_request\n";
    for (size_t i = 0; i < r.tried.size(); ++i) {
        const TuneTrial& t = r.tried[i];
        if (!t.ok || (r.timed && !t.timed)) continue;
        const bool best = r.best && *r.best == i;
        // On the axis a block shape is its three numbers ("32x4x2"), a tile "T=8".
        const std::string label = fmt::format("\"{}\"", t.block ? t.label().substr(6) : t.label());
        if (r.timed)
            d += fmt::format("{} {} {} {} {} {}\n", label, t.ms_median / t.steps, t.ms_min / t.steps,
                             t.ms_max / t.steps, best ? 1 : 0, t.sectors_per_request);
        else
            d += fmt::format("{} {} {} {} {} {}\n", label, t.requested_bytes_per_output, t.requested_bytes_per_output,
                             t.requested_bytes_per_output, best ? 1 : 0, t.sectors_per_request);
    }
    return d;
}

std::string tune_script(const TuneResult& r, const std::string& term) {
    const std::string axis = r.timed ? "ms per step (median; bars: min to max)" : "requested bytes per output and step";
    const std::string how = r.timed ? "each checked, then timed" : "each checked; ranked by the model's exact count, no time on the CPU";
    return fmt::format(
        "set terminal {} size 1000,620 font ',13'\nset output 'tune.png'\n"
        "set title \"tune: {} r = {} {} N = {} on {} ({})\\n{{/*0.85 {}}}\"\n"
        "set xlabel 'configuration (tile T, block shape, z-chunk, K fused steps)'\nset ylabel \"{}\" noenhanced\n"
        "set key top right box opaque\nset grid\nset xtics rotate by -35 noenhanced\n"
        "set offsets 0.5, 0.5, 0, 0\nset lmargin 12\nset bmargin 7\n"
        "set y2label 'sectors per warp request (the model)'\nset y2tics\nset y2range [0:*]\nset rmargin 10\n"
        "plot 'tune.dat' using 0:2:3:4:xtic(1) with yerrorbars pt 7 ps 1.2 title 'checked configurations', \\\n"
        "     '' using 0:($5 > 0 ? $2 : 1/0) with points pt 6 ps 3 lw 2 title 'best', \\\n"
        "     '' using 0:6 axes x1y2 with points pt 2 ps 1.2 title 'sectors per request (right axis)'\n"
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
