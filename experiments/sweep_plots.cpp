// The sweep's gnuplot scripts and their data, from a results.json document.
//
// Sections:
//   [input]     the document read into PlotInput (one shape for fresh and committed sweeps)
//   [style]     what every figure shares: size, fonts, the key below the plot, the title
//   [opb]       OP/B against T
//   [halo]      halo share against T
//   [timing]    time and bandwidth against T, error bars from min / max (GPU only)
//   [roofline]  the roofline, each point labelled, labels spread so they do not overlap (GPU only)
//   [traffic]   the CPU engine's counted bytes per output cell against the model (CPU only)
//
// Slide rules the scripts follow: the key sits below the plot (the plot keeps the width); a
// two-line title gets the top margin it needs; a label never lies on its own line (it sits above
// a horizontal line, or beside a point with an offset); "textbook" marks the texts' own figures.
#include "experiments/sweep_plots.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>

#include "analysis/model.h"
#include "core/error.h"
#include "kernels/versions.h"

namespace stencil::experiments {

namespace fs = std::filesystem;
using namespace analysis;
using nlohmann::json;

// ---- [input] ------------------------------------------------------------------------------------

namespace {

struct PlotRow {
    KernelId kernel{};
    int tile = 0;
    bool timed = false;
    double ms_min = 0, ms_median = 0, ms_max = 0, gbps = 0, gflops = 0;
    std::optional<double> opb_requested, opb_l2, opb_dram;  // FLOP / byte read, per level
    std::optional<double> opb_rw_requested, opb_rw_dram;    // FLOP / (read + write) byte
    std::optional<double> requested_read_bytes;             // measured (trace or counters)
    bool requested_measured = false;
    double model_read_bytes = 0;  // the model's exact whole-grid count
};

struct PlotInput {
    std::string backend, device;
    int n = 0, radius = 1;
    Precision precision = Precision::f32;
    double copy_gbps = 0;
    std::optional<double> fma_gflops;
    std::string fma_note;
    std::vector<KernelId> kernels;  // in the order they first appear
    std::vector<PlotRow> rows;      // those that ran
    bool gpu() const { return backend == "cuda"; }
    double interior_cells() const {
        const double m = std::max(0, n - 2 * radius);
        return m * m * m;
    }
};

std::optional<double> number(const json& j, const char* key) {
    if (!j.is_object() || !j.contains(key) || !j[key].is_number()) return std::nullopt;
    const double v = j[key].get<double>();
    return std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
}

const json& level_of(const json& row, const std::string& name) {
    static const json none = json::object();
    if (!row.contains("measured") || !row["measured"].contains("levels")) return none;
    for (const auto& l : row["measured"]["levels"])
        if (l.value("level", "") == name) return l;
    return none;
}

PlotRow read_row(const json& r, const KernelVersion& v) {
    PlotRow p;
    p.kernel = v.id;
    p.tile = r.value("tile", 0);
    const json& run = r.contains("run") ? r["run"] : json::object();
    p.timed = run.is_object() && run.value("timed", false) && r.contains("time_ms");
    if (p.timed) {
        p.ms_min = number(r["time_ms"], "min").value_or(0);
        p.ms_median = number(r["time_ms"], "median").value_or(0);
        p.ms_max = number(r["time_ms"], "max").value_or(0);
        p.gbps = number(r, "gbps").value_or(0);
        p.gflops = number(r, "gflops").value_or(0);
    }
    const json &req = level_of(r, "requested"), &l2 = level_of(r, "L2"), &dram = level_of(r, "DRAM");
    p.opb_requested = number(req, "opb_read");
    p.opb_l2 = number(l2, "opb_read");
    p.opb_dram = number(dram, "opb_read");
    p.opb_rw_requested = number(req, "opb_read_write");
    p.opb_rw_dram = number(dram, "opb_read_write");
    p.requested_read_bytes = number(req, "read_bytes");
    p.requested_measured = req.value("measured", false);
    if (r.contains("model")) p.model_read_bytes = number(r["model"], "grid_load_bytes").value_or(0);
    return p;
}

PlotInput read_input(const json& doc) {
    if (!doc.is_object() || !doc.contains("results") || !doc["results"].is_array())
        throw UserError("not a sweep's results.json (no \"results\" list)");
    PlotInput in;
    in.backend = doc.value("backend", "");
    in.device = doc.value("device", "");
    if (doc.contains("grid") && doc["grid"].is_array() && !doc["grid"].empty()) in.n = doc["grid"][0].get<int>();
    in.radius = doc.value("radius", 1);
    const auto p = parse_precision(doc.value("precision", "f32"));
    if (!p) throw UserError("results.json: unknown precision '" + doc.value("precision", "") + "'");
    in.precision = *p;
    in.copy_gbps = number(doc, "copy_gbps").value_or(0);
    in.fma_gflops = number(doc, "fma_gflops");
    in.fma_note = doc.value("fma_note", "");
    for (const auto& r : doc["results"]) {
        const KernelVersion* v = find_version(r.value("kernel", ""));
        if (!v) throw UserError("results.json: unknown kernel '" + r.value("kernel", "") + "'");
        if (std::find(in.kernels.begin(), in.kernels.end(), v->id) == in.kernels.end()) in.kernels.push_back(v->id);
        if (r.value("status", "") == "skipped") continue;
        in.rows.push_back(read_row(r, *v));
    }
    return in;
}

// ---- [style] ------------------------------------------------------------------------------------

// Colour-blind-safe (ColorBrewer Dark2), one per kernel version.
const char* kColors[] = {"#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d"};
const char* color(KernelId k) { return kColors[int(k) % std::size(kColors)]; }

std::string val(std::optional<double> v) { return v && std::isfinite(*v) ? fmt::format("{:.6g}", *v) : "NaN"; }

// A string inside a gnuplot double-quoted string.
std::string quoted(const std::string& s) {
    std::string q;
    for (char c : s) {
        if (c == '"' || c == '\\') q += '\\';
        q += c;
    }
    return q;
}

// Everything a figure shares. The key sits at the bottom of the canvas in `key_columns` columns
// and `key_rows` rows, below the x label (the bottom margin is sized for both), so the plot keeps
// the full width; a subtitle is a second, smaller title line with the margin it needs.
std::string script_head(const std::string& name, const std::string& term, const std::string& title,
                        const std::string& subtitle, int key_columns, int key_rows) {
    std::string s = fmt::format(
        "# {0}.gp: written by `stencil-lab sweep` from results.json; edit and run `gnuplot {0}.gp` to\n"
        "# redraw, or `stencil-lab sweep --replot DIR` to rewrite it with the lab's current scripts.\n"
        "set encoding utf8\n"
        "set terminal {1} size 1200,760 font 'Sans,13' noenhanced\n"
        "set output '{0}.png'\n"
        "set datafile missing 'NaN'\n"
        "set grid lc rgb '#d0d0d0'\n"
        "set border lw 1.2\n"
        "set lmargin 12\nset rmargin 6\n",
        name, term);
    if (subtitle.empty())
        s += fmt::format("set title \"{}\" font 'Sans,16'\nset tmargin 3\n", quoted(title));
    else
        s += fmt::format("set title \"{}\\n{}\" font 'Sans,15'\nset tmargin 5\n", quoted(title), quoted(subtitle));
    // Canvas 760 px: the x tics and label take ~100 px, each key row ~24 px, the box ~12 px.
    s += fmt::format("set bmargin at screen {:.3f}\n", (104.0 + 24.0 * key_rows + 12.0) / 760.0);
    s += fmt::format("set key at screen 0.5, 0.012 center bottom horizontal maxcols {} width 2 samplen 3 "
                     "spacing 1.2 box lc rgb '#b0b0b0'\n",
                     key_columns);
    return s;
}
std::string script_tail(const std::string& name) {
    return fmt::format("set terminal svg size 1200,760 font 'Sans,13' dynamic noenhanced\n"
                       "set output '{}.svg'\nreplot\n",
                       name);
}
// Joins plot clauses; with nothing to plot, plots nothing (1/0) so the axes still draw.
std::string plot_command(const std::vector<std::string>& clauses) {
    if (clauses.empty()) return "plot 1/0 notitle\n";
    std::string s = "plot ";
    for (size_t i = 0; i < clauses.size(); ++i) s += (i ? ", \\\n     " : "") + clauses[i];
    return s + "\n";
}
std::string precision_text(Precision p) { return p == Precision::f32 ? "fp32" : "fp64"; }

// The texts' own figures are for the 7-point stencil in fp32: only then are labels "textbook".
bool textbook_case(const PlotInput& in) { return in.radius == 1 && in.precision == Precision::f32; }

struct Script {
    std::string name, data, data_file, gp;
};

// ---- [opb] --------------------------------------------------------------------------------------

// The model's OP/B for every T the formula allows (tile_fits without the hardware's limits: 2r+1 ..
// 32; naive: any; temporal: multiples of 8, which gnuplot joins), one column per kernel.
std::string opb_model_data(const PlotInput& in) {
    // The curves go on past the tiles a block can hold (tiled's T^3 threads stop at T = 10).
    constexpr DeviceLimits kNoHardwareLimits{1 << 30, 1LL << 40, 1 << 30};
    std::string d = "# T  model_opb(";
    for (const auto& v : kernel_versions()) d += fmt::format("{}{}", &v == &kernel_versions()[0] ? "" : " ", v.name);
    d += "), NaN where T is not allowed\n";
    for (int T = 1; T <= 32; ++T) {
        d += fmt::format("{}", T);
        for (const auto& v : kernel_versions()) {
            const bool ok = tile_fits(v.id, T, in.radius, bytes_of(in.precision), kNoHardwareLimits);
            d += ok ? fmt::format(" {:.6g}", interior_block_traffic(v.id, T, in.radius, in.precision).opb) : " NaN";
        }
        d += "\n";
    }
    return d;
}

// One convention on this chart, the model's: FLOP per byte *read* at every level, so a DRAM point
// says how much of the model's reuse the caches caught. One block per kernel (gnuplot's index);
// any_level[l]: whether level l (requested, L2, DRAM) was measured anywhere.
std::string opb_measured_data(const PlotInput& in, bool any_level[3]) {
    std::string d = "# per kernel block: T requested_opb L2_opb DRAM_opb (FLOP / byte read) (NaN: not measured)\n";
    for (KernelId k : in.kernels) {
        d += fmt::format("# {}\n", version(k).name);
        for (const auto& row : in.rows)
            if (row.kernel == k) {
                d += fmt::format("{} {} {} {}\n", row.tile, val(row.opb_requested), val(row.opb_l2), val(row.opb_dram));
                any_level[0] |= row.opb_requested.has_value() && row.requested_measured;
                any_level[1] |= row.opb_l2.has_value();
                any_level[2] |= row.opb_dram.has_value();
            }
        d += "NaN NaN NaN NaN\n\n\n";
    }
    return d;
}

// One story per figure, as the viewer's OP/B chart tells them (viewer/core/opb_view.h): the
// textbook's four, tiled against T, every kernel per byte loaded, and the kernels beyond the
// textbook on their own axis (FLOP per byte moved). Each draws the limits its kernels obey.
struct OpbStory {
    const char* name;      // the figure's file stem
    const char* title;
    std::vector<KernelId> kernels;
    double x_lo, x_hi;
    bool log_y;
};

// The versions whose bytes are per block loaded (no z-chunk of their own, one step a launch): the
// "every kernel per byte loaded" story draws them all, so a new version of that kind appears in it.
std::vector<KernelId> per_block_versions() {
    std::vector<KernelId> ks;
    for (const KernelVersion& v : kernel_versions())
        if (v.z_chunk == 0 && v.max_fused_steps == 1) ks.push_back(v.id);
    return ks;
}

std::vector<OpbStory> loaded_stories() {
    return {{"opb_vs_T", "OP/B against T: naive, tiled, coarsened, register-tiled",
             {KernelId::naive, KernelId::tiled, KernelId::coarsened, KernelId::register_tiled}, 1, 33, true},
            {"opb_tiled_vs_T", "OP/B of the tiled kernel against T", {KernelId::naive, KernelId::tiled}, 2, 11, false},
            {"opb_loaded_vs_T", "OP/B against T: every kernel per byte loaded",
             per_block_versions(), 1, 33,
             true}};
}

bool among(const std::vector<KernelId>& ks, KernelId k) { return std::find(ks.begin(), ks.end(), k) != ks.end(); }

// The largest T the tiled kernel's block holds (T^3 <= 1024 threads), at r.
int tiled_largest_tile(int r, Precision p) {
    int largest = 0;
    for (const auto& t : tile_table(KernelId::tiled, r, p, 64))
        if (t.fits) largest = t.tile;
    return largest;
}

// Long because it is one gnuplot script, written top to bottom: the axes, the limits, the curves,
// the texts' figures and the key.
Script opb_story(const PlotInput& in, const std::string& term, const OpbStory& story, const bool any_level[3]) {
    const int r = in.radius, B = bytes_of(in.precision), F = flops_per_point(r);
    const double limit = double(F) / B;
    int entries = 0;
    for (const auto& v : kernel_versions()) entries += among(story.kernels, v.id);
    for (int l = 0; l < 3; ++l) entries += any_level[l];
    std::string gp = script_head(
        story.name, term, fmt::format("{}: r = {}, {}", story.title, r, precision_text(in.precision)),
        in.gpu() ? "lines: the model (FLOP per byte loaded); points: measured on the GPU at three levels"
                 : "lines: the model; points: the loads the CPU engine counted (an emulator: no caches, no L2/DRAM)",
        4, (entries + 3) / 4);
    gp += "set xlabel 'T (IN_TILE_DIM; naive: block edge)'\nset ylabel 'FLOP per byte loaded'\n";
    gp += fmt::format("set xrange [{}:{}]\nlimit = {:.6g}\n", story.x_lo, story.x_hi, limit);
    // The axis fitted to the curves shown and their limit; room above the limit for its label,
    // which sits above the line (never on it).
    double lowest = limit;
    for (KernelId k : story.kernels)
        for (int T = std::max(1, (int)story.x_lo); T <= (int)story.x_hi; ++T)
            if (tile_fits(k, T, r, B, DeviceLimits{1 << 30, 1LL << 40, 1 << 30}))
                lowest = std::min(lowest, interior_block_traffic(k, T, r, in.precision).opb);
    if (story.log_y)
        gp += fmt::format("set logscale y\nset format y '%g'\nset yrange [{:.6g}:limit*2.2]\n", lowest * 0.6);
    else
        gp += "set yrange [0:limit*1.25]\n";
    gp += fmt::format("set arrow from {0},limit to {1},limit nohead dt 2 lw 1.5 lc rgb 'gray30'\n", story.x_lo,
                      story.x_hi);
    const bool tb = textbook_case(in);
    gp += fmt::format("set label \"single-step limit (12r+1)/{} B = {}/{} = {:.3g} FLOP/B{}\" at {:.6g},limit*{} left tc "
                      "rgb 'gray20'\n",
                      B, F, B, limit, tb ? fmt::format("  (textbook: 13/4, not {}/2)", point_count(r)) : "",
                      story.x_lo + (story.x_hi - story.x_lo) * 0.02, story.log_y ? "1.25" : "1.05");
    // The tiled kernel's own bound: its block is its tile, T^3 threads of at most 1024. Its label in
    // the chart's empty part: under the curves right of the line (log axes), or left of it between
    // the curve and the measured DRAM points (tiled against T).
    if (among(story.kernels, KernelId::tiled)) {
        const int largest = tiled_largest_tile(r, in.precision);
        if (largest > 0 && largest < story.x_hi)
            gp += fmt::format("set arrow from {0},graph 0 to {0},graph 1 nohead dt 3 lw 1.5 lc rgb '{1}'\n"
                              "set label \"tiled: T <= {0} (T^3 <= 1024 threads)\" at {0},graph {2} {3} offset "
                              "{4},0 tc rgb '{1}'\n",
                              largest, color(KernelId::tiled), story.log_y ? "0.06" : "0.55",
                              story.log_y ? "left" : "right", story.log_y ? "0.6" : "-0.6");
    }
    // The texts' worked figures, circled at their (T, value), each named by a label in an empty
    // part of the chart with an arrow to its point.
    struct Mark {
        KernelId k;
        int T;
        double label_T, label_scale;
        const char* align;
    };
    const bool zoomed = story.x_hi < 20;  // tiled against T: the label below-right of its point
    for (const Mark& m : {Mark{KernelId::tiled, 8, zoomed ? 8.3 : 11.0, zoomed ? 0.55 : 1 / 5.5, "left"},
                          Mark{KernelId::coarsened, 32, 31.0, 0.5, "right"}}) {
        if (!among(story.kernels, m.k) || m.T > story.x_hi || m.T <= 2 * r || !tile_fits(m.k, m.T, r, B)) continue;
        const double y = interior_block_traffic(m.k, m.T, r, in.precision).opb;
        const double ly = y * m.label_scale;
        gp += fmt::format("set label '' at {0},{1:.6g} point pt 6 ps 2.6 lw 2 lc rgb 'black'\n"
                          "set label \"{2}{1:.3g} at T = {0} ({3})\" at {4:.6g},{5:.6g} {6}\n"
                          "set arrow from {4:.6g},{7:.6g} to {0},{8:.6g} head size 0.6,20 lw 1.2 lc rgb 'gray20'\n",
                          m.T, y, tb ? "textbook: " : "", version(m.k).name, m.label_T, ly, m.align,
                          ly * (story.log_y ? 1.12 : 1.04), y * (story.log_y ? 0.86 : 0.95));
    }
    std::vector<std::string> clauses;
    int col = 2;
    for (const auto& v : kernel_versions()) {
        if (among(story.kernels, v.id))
            clauses.push_back(fmt::format("'opb_model.dat' using 1:{} with lines lw {} dt {} lc rgb '{}' title '{} (model)'",
                                          col, col == 2 ? 2.5 : 3.5 - 0.5 * (col - 2), col - 1, color(v.id), v.name));
        ++col;
    }
    const char* level_names[3] = {"requested", "L2", "DRAM"};
    const int level_pt[3] = {7, 5, 9};
    for (size_t i = 0; i < in.kernels.size(); ++i)
        for (int l = 0; l < 3; ++l)
            if ((any_level[l] || l == 0) && among(story.kernels, in.kernels[i]))
                clauses.push_back(fmt::format("'opb_measured.dat' index {} using 1:{} with points pt {} ps 1.6 lc "
                                              "rgb '{}' notitle",
                                              i, l + 2, level_pt[l], color(in.kernels[i])));
    // The key's entries for the levels: one black marker each (colour says the kernel).
    for (int l = 0; l < 3; ++l)
        if (any_level[l])
            clauses.push_back(fmt::format("NaN with points pt {} ps 1.6 lc rgb 'black' title 'measured: {}'",
                                          level_pt[l], level_names[l]));
    gp += plot_command(clauses) + script_tail(story.name);
    return {story.name, "", "", gp};
}

// Beyond the textbook, on its own axis: FLOP per byte moved (loads and stores) per cell update of
// the z-chunked kernels, streaming and temporal's K = 1..4 fused steps; K steps make K updates per
// byte moved, so each K has its own limit, K (12r+1) / (2 sizeof(real)).
std::vector<Script> opb_beyond_figure(const PlotInput& in, const std::string& term) {
    const int r = in.radius, B = bytes_of(in.precision), F = flops_per_point(r);
    struct Curve {
        KernelId k;
        int K;
    };
    std::vector<Curve> curves;
    for (const auto& v : kernel_versions())
        if (v.z_chunk > 0)
            for (int K = 1; K <= std::max(1, v.max_fused_steps); ++K) curves.push_back({v.id, K});
    Script data{"", "# T, then per curve FLOP per byte moved (NaN: no model at that T):", "opb_beyond.dat", ""};
    for (const auto& c : curves) data.data += fmt::format(" {}_K{}", version(c.k).name, c.K);
    data.data += "\n";
    double top = 0;
    for (int T = 1; T <= 64; ++T) {
        std::string row = std::to_string(T);
        bool any = false;
        for (const auto& c : curves) {
            double v = NAN;
            const bool fits = tile_fits(c.k, T, r, B) && smem_bytes(c.k, T, r, B, c.K) <= DeviceLimits{}.max_static_smem_per_block;
            if (fits) {
                try {
                    const UpdateTraffic u = update_traffic(c.k, T, r, in.precision, c.K);
                    if (u.requested_bytes > 0) v = F / u.requested_bytes;
                } catch (const std::exception&) {  // T <= 2rK: no output left
                }
            }
            any = any || std::isfinite(v);
            (row += ' ') += val(std::isfinite(v) ? std::optional<double>(v) : std::nullopt);
        }
        if (any) data.data += row + "\n";
    }
    int max_k = 1;
    for (const auto& c : curves) max_k = std::max(max_k, c.K);
    top = max_k * double(F) / (2.0 * B);
    std::string gp = script_head(
        "opb_beyond_vs_T", term,
        fmt::format("Streaming and temporal: FLOP per byte moved, r = {}, {}", r, precision_text(in.precision)),
        "loads and stores of a cell update; K fused steps do K updates per byte moved, so each K has its own limit",
        4, ((int)curves.size() + 3) / 4);
    gp += fmt::format("set xlabel 'T (the tile rows)'\nset ylabel 'FLOP per byte moved'\nset xrange [0:66]\n"
                      "set yrange [0:{:.6g}]\n",
                      top * 1.15);
    int col = 2;
    std::vector<std::string> clauses;
    // Temporal's K = 1..4 in the viewer's colours for them (Okabe-Ito), apart from streaming's.
    static const char* kKColours[4] = {"#0072b2", "#009e73", "#d55e00", "#cc79a7"};
    for (const auto& c : curves) {
        const double lim = c.K * double(F) / (2.0 * B);
        const bool temporal = version(c.k).max_fused_steps > 1;
        const std::string colour = temporal ? kKColours[(c.K - 1) % 4] : color(c.k);
        // Each limit's label at the left end above its line, where the curves (from T = 8) have not
        // begun; one step's at the right end, above the curves that approach it.
        if (c.K > 1)
            gp += fmt::format("set arrow from 0,{0:.6g} to 66,{0:.6g} nohead dt 2 lw 1.2 lc rgb '{1}'\n"
                              "set label \"K = {2} limit {0:.3g}\" at 0.6,{0:.6g} left offset 0,0.6 tc rgb '{1}'\n",
                              lim, colour, c.K);
        else if (!temporal)  // one step a pass: streaming's limit is temporal K = 1's too
            gp += fmt::format("set arrow from 0,{0:.6g} to 66,{0:.6g} nohead dt 2 lw 1.2 lc rgb 'gray30'\n"
                              "set label \"one step a pass: (12r+1)/(2x{1}) = {0:.3g}\" at 65,{0:.6g} right offset "
                              "0,0.6 tc rgb 'gray20'\n",
                              lim, B);
        clauses.push_back(fmt::format("'opb_beyond.dat' using 1:{} with linespoints pt 7 ps 0.8 lw 2.5 dt {} lc rgb '{}' "
                                      "title '{}'",
                                      col++, temporal && c.K % 2 == 0 ? 2 : 1, colour,
                                      temporal ? fmt::format("temporal K = {}", c.K) : std::string(version(c.k).name)));
    }
    gp += plot_command(clauses) + script_tail("opb_beyond_vs_T");
    return {data, {"opb_beyond_vs_T", "", "", gp}};
}

std::vector<Script> opb_figure(const PlotInput& in, const std::string& term) {
    bool any_level[3] = {false, false, false};
    Script model{"", opb_model_data(in), "opb_model.dat", ""};
    Script meas{"", opb_measured_data(in, any_level), "opb_measured.dat", ""};
    std::vector<Script> out{model, meas};
    for (const auto& story : loaded_stories()) out.push_back(opb_story(in, term, story, any_level));
    for (auto& s : opb_beyond_figure(in, term)) out.push_back(std::move(s));
    return out;
}

// ---- [halo] -------------------------------------------------------------------------------------

Script halo_figure(const PlotInput& in, const std::string& term) {
    const int r = in.radius;
    Script s{"halo_vs_T", fmt::format("# T halo_fraction_3D halo_fraction_2D (radius {})\n", r), "halo.dat", ""};
    for (int T = 2 * r + 1; T <= 64; ++T)
        s.data += fmt::format("{} {:.6g} {:.6g}\n", T, halo_3d(T, r).fraction, halo_2d(T, r).fraction);
    std::string gp = script_head("halo_vs_T", term, fmt::format("Halo share of the input tile (r = {})", r),
                                 "halo cells: loaded into the tile but not computed there", 2, 1);
    gp += "set xlabel 'T (input tile edge)'\nset ylabel 'halo cells / tile cells'\nset yrange [0:1.05]\n"
          "set xrange [0:66]\n";
    // The texts' two points (8³ and 32²), computed for this r. 8³ is labelled to its right, where
    // the curves have fallen away; 32² lies between the two curves, so its label sits above both
    // with an arrow down to it.
    for (auto [T, is3d] : {std::pair{8, true}, std::pair{32, false}}) {
        if (T <= 2 * r) continue;
        const Halo h = is3d ? halo_3d(T, r) : halo_2d(T, r);
        const std::string text = fmt::format("{}{}{}: {}/{} = {:.0f}%", r == 1 ? "textbook: " : "", T,
                                             is3d ? "³" : "²", h.halo_cells, h.tile_cells, 100 * h.fraction);
        gp += fmt::format("set label '' at {},{:.6g} point pt 7 ps 1.5\n", T, h.fraction);
        if (is3d)
            gp += fmt::format("set label \"{}\" at {},{:.6g} offset 1.2,0.9\n", text, T, h.fraction);
        else
            gp += fmt::format("set label \"{0}\" at {1},{2:.6g} left\n"
                              "set arrow from {1}+0.5,{2:.6g}-0.02 to {3},{4:.6g}+0.015 head size 1,20 lc rgb "
                              "'gray20'\n",
                              text, T + 4, halo_3d(T, r).fraction + 0.18, T, h.fraction);
    }
    gp += plot_command({"'halo.dat' using 1:2 with lines lw 2.5 lc rgb '#d95f02' title '3D tile (T³ cells)'",
                        "'halo.dat' using 1:3 with lines lw 2.5 lc rgb '#7570b3' title '2D tile (T² cells, one plane)'"});
    s.gp = gp + script_tail("halo_vs_T");
    return s;
}

// ---- [timing] -----------------------------------------------------------------------------------

// Median with min / max as error bars; GB/s bars follow from the times (fast = high).
std::vector<Script> timing_figures(const PlotInput& in, const std::string& term) {
    Script data{"", "", "timing.dat", ""};
    data.data = "# per kernel block: T ms_median ms_min ms_max gbps gbps_at_max_ms gbps_at_min_ms\n";
    for (KernelId k : in.kernels) {
        data.data += fmt::format("# {}\n", version(k).name);
        for (const auto& row : in.rows)
            if (row.kernel == k && row.timed && row.ms_median > 0) {
                const double bytes_per_ms = row.gbps * row.ms_median;  // GB/s x ms
                data.data += fmt::format("{} {:.6g} {:.6g} {:.6g} {:.6g} {:.6g} {:.6g}\n", row.tile, row.ms_median,
                                         row.ms_min, row.ms_max, row.gbps,
                                         row.ms_max > 0 ? bytes_per_ms / row.ms_max : row.gbps,
                                         row.ms_min > 0 ? bytes_per_ms / row.ms_min : row.gbps);
            }
        data.data += "NaN NaN NaN NaN NaN NaN NaN\n\n\n";
    }
    std::vector<Script> out{data};
    for (int bw = 0; bw < 2; ++bw) {
        const std::string name = bw ? "bandwidth_vs_T" : "time_vs_T";
        std::string gp = script_head(
            name, term,
            bw ? fmt::format("Effective bandwidth on {} (N = {}, {})", in.device, in.n, precision_text(in.precision))
               : fmt::format("Time per launch on {} (N = {}, {})", in.device, in.n, precision_text(in.precision)),
            bw ? "one read + one write per cell / median time; bars: from the fastest and slowest launch"
               : "median of the timed launches; bars: the fastest and the slowest launch",
            4, (int(in.kernels.size()) + 3) / 4);
        gp += "set xlabel 'T (IN_TILE_DIM; naive: block edge)'\nset xrange [0:34]\n";
        if (bw) {
            gp += "set ylabel 'GB/s'\n";
            if (in.copy_gbps > 0)
                gp += fmt::format("copy = {:.6g}\nset yrange [0:copy*1.2]\n"
                                  "set arrow from graph 0, first copy to graph 1, first copy nohead lw 2 dt 2 lc rgb "
                                  "'black'\nset label sprintf('device-to-device copy: %.0f GB/s', copy) at graph "
                                  "0.98, first copy*1.06 right\n",
                                  in.copy_gbps);
            else
                gp += "set yrange [0:*]\n";
        } else {
            // Log time: the slowest tile is ~100x the others; a linear axis would flatten them.
            gp += "set ylabel 'ms per launch (log scale)'\nset logscale y\nset format y '%g'\n";
        }
        std::vector<std::string> clauses;
        for (size_t i = 0; i < in.kernels.size(); ++i)
            clauses.push_back(fmt::format("'timing.dat' index {} using 1:{} with yerrorlines pt 7 ps 1.3 lw 2 lc rgb "
                                          "'{}' title '{}'",
                                          i, bw ? "5:6:7" : "2:3:4", color(in.kernels[i]), version(in.kernels[i]).name));
        gp += plot_command(clauses) + script_tail(name);
        out.push_back({name, "", "", gp});
    }
    return out;
}

// ---- [roofline] ---------------------------------------------------------------------------------

// Spreads label heights (log10 units) so that no two are closer than `gap`, each as near its point
// as that allows: clusters of labels that would overlap are merged and centred on their points.
std::vector<double> spread_labels(const std::vector<double>& wanted, double gap) {
    std::vector<size_t> order(wanted.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return wanted[a] < wanted[b]; });
    struct Cluster {
        double low, sum;
        size_t first, count;
    };
    std::vector<Cluster> cl;
    for (size_t k = 0; k < order.size(); ++k) {
        cl.push_back({wanted[order[k]], wanted[order[k]], k, 1});
        while (cl.size() >= 2) {
            Cluster& a = cl[cl.size() - 2];
            const Cluster& b = cl.back();
            if (a.low + double(a.count) * gap <= b.low) break;
            a.count += b.count;
            a.sum += b.sum;
            a.low = a.sum / double(a.count) - gap * double(a.count - 1) / 2;
            cl.pop_back();
        }
    }
    std::vector<double> placed(wanted.size());
    for (const auto& c : cl)
        for (size_t m = 0; m < c.count; ++m) placed[order[c.first + m]] = c.low + gap * double(m);
    return placed;
}

struct RooflinePoint {
    double x, y;
    std::string label;
    KernelId k;
};

// Each point's label in a column to the right of the points, spread vertically (a gap of one text
// line in log units: the plot is ~520 px high over log10(top/10) decades), with a thin leader line
// from the point to its label.
std::string roofline_labels(const std::vector<RooflinePoint>& pts, double top) {
    if (pts.empty()) return {};
    double xmax = 0;
    std::vector<double> ly;
    for (const auto& p : pts) {
        xmax = std::max(xmax, p.x);
        ly.push_back(std::log10(p.y));
    }
    const auto placed = spread_labels(ly, 19.0 / 520.0 * std::log10(top / 10));
    // Far enough right that the ceiling (rising with x) passes above the column, not through it.
    const double xl = xmax * 5;
    std::string gp;
    for (size_t i = 0; i < pts.size(); ++i) {
        const double yl = std::pow(10, placed[i]);
        gp += fmt::format("set arrow from {:.6g},{:.6g} to {:.6g},{:.6g} nohead lw 0.8 lc rgb '#909090'\n",
                          pts[i].x * 1.08, pts[i].y, xl / 1.08, yl);
        gp += fmt::format("set label \"{}\" at {:.6g},{:.6g} left font 'Sans,11' tc rgb '{}'\n", pts[i].label, xl, yl,
                          color(pts[i].k));
    }
    return gp;
}

Script roofline_figure(const PlotInput& in, const std::string& term) {
    // One byte convention on both axes: the ceiling is a copy's bandwidth, which counts read +
    // write, so x is FLOP per byte read + written (DRAM when the counters measured it, else the
    // requested level's, labelled as such).
    std::vector<RooflinePoint> pts;
    bool any_dram = false, any_requested = false;
    for (const auto& row : in.rows) {
        if (!row.timed || row.gflops <= 0) continue;
        const auto x = row.opb_rw_dram ? row.opb_rw_dram : row.opb_rw_requested;
        if (!x) continue;
        (row.opb_rw_dram ? any_dram : any_requested) = true;
        pts.push_back({*x, row.gflops, fmt::format("{} T={}", version(row.kernel).name, row.tile), row.kernel});
    }
    Script s{"roofline", "# opb_rw gflops kernel_index (per kernel block)\n", "roofline.dat", ""};
    for (size_t i = 0; i < in.kernels.size(); ++i) {
        s.data += fmt::format("# {}\n", version(in.kernels[i]).name);
        for (const auto& p : pts)
            if (p.k == in.kernels[i]) s.data += fmt::format("{:.6g} {:.6g}\n", p.x, p.y);
        s.data += "NaN NaN\n\n\n";
    }
    const std::string xwhat = any_dram && any_requested ? "DRAM where measured, else requested"
                              : any_dram                ? "DRAM"
                                                        : "requested (no DRAM counters)";
    std::string gp = script_head("roofline", term, fmt::format("Roofline on {} ({})", in.device, precision_text(in.precision)),
                                 fmt::format("x: FLOP per {} byte read + written; ceiling: the copy bandwidth "
                                             "measured in this run{}",
                                             xwhat, in.fma_gflops ? " and the FMA peak" : ""),
                                 5, (int(in.kernels.size()) + 1 + 4) / 5);
    const double bw = in.copy_gbps > 0 ? in.copy_gbps : 1;
    const double top = in.fma_gflops ? *in.fma_gflops * 2.5 : bw * 200;
    gp += fmt::format("set logscale xy\nset format x '%g'\nset format y '%g'\n"
                      "set xlabel 'FLOP / ({} bytes read + written)'\nset ylabel 'GFLOP/s'\n"
                      "set xrange [0.05:100]\nset yrange [10:{:.6g}]\nbw = {:.6g}\n",
                      any_dram ? "DRAM" : "requested", top, bw);
    if (in.fma_gflops) {
        gp += fmt::format("peak = {:.6g}\nroof(x) = (bw*x < peak) ? bw*x : peak\n", *in.fma_gflops);
        gp += "set label sprintf('FMA peak %.0f GFLOP/s', peak) at graph 0.97, first peak*1.35 right\n";
    } else {
        gp += "roof(x) = bw*x\n";
        gp += fmt::format("set label \"{}\" at graph 0.02, graph 0.95 tc rgb 'red'\n", quoted(in.fma_note));
    }
    // The copy label above the slope (log-log: the line rises at 45° in data units; the label is
    // tilted to follow it approximately and kept clear of it).
    gp += "set label sprintf('copy %.0f GB/s', bw) at 0.09, bw*0.09*2.6 rotate by 38\n";
    gp += roofline_labels(pts, top);
    std::vector<std::string> clauses{fmt::format("roof(x) with lines lw 2.5 lc rgb 'black' title 'ceiling'")};
    for (size_t i = 0; i < in.kernels.size(); ++i)
        clauses.push_back(fmt::format("'roofline.dat' index {} using 1:2 with points pt 7 ps 1.5 lc rgb '{}' title '{}'",
                                      i, color(in.kernels[i]), version(in.kernels[i]).name));
    s.gp = gp + plot_command(clauses) + script_tail("roofline");
    return s;
}

// ---- [traffic] ----------------------------------------------------------------------------------

// What the CPU engine measures: the loads each configuration issued, counted from its trace, per
// output cell, beside the model's exact count. No times: the engine's speed is not a GPU's.
Script traffic_figure(const PlotInput& in, const std::string& term) {
    const double cells = std::max(1.0, in.interior_cells());
    Script s{"traffic_vs_T", "# per kernel block: T counted_bytes_per_cell model_bytes_per_cell\n", "traffic.dat", ""};
    for (KernelId k : in.kernels) {
        s.data += fmt::format("# {}\n", version(k).name);
        for (const auto& row : in.rows)
            if (row.kernel == k)
                s.data += fmt::format("{} {} {:.6g}\n", row.tile,
                                      row.requested_measured ? val(*row.requested_read_bytes / cells) : "NaN",
                                      row.model_read_bytes / cells);
        s.data += "NaN NaN NaN\n\n\n";
    }
    std::string gp = script_head(
        "traffic_vs_T", term,
        fmt::format("Bytes loaded per output cell (N = {}, r = {}, {})", in.n, in.radius, precision_text(in.precision)),
        "counted by the CPU engine (an emulator: its times say nothing about a GPU, so none are drawn)", 4,
        (int(in.kernels.size()) + 2 + 3) / 4);
    gp += fmt::format("set xlabel 'T (IN_TILE_DIM; naive: block edge)'\nset ylabel 'bytes loaded / output cell'\n"
                      "set xrange [0:34]\nset logscale y\nset format y '%g'\n"
                      "set arrow from 0,{0} to 34,{0} nohead dt 2 lc rgb 'gray30'\n"
                      "set label 'one load per cell: {0} B' at 1,{0}*1.25 left tc rgb 'gray20'\n",
                      bytes_of(in.precision));
    // One key entry per kernel (its colour), and one each for what a line and a point mean.
    std::vector<std::string> clauses;
    for (size_t i = 0; i < in.kernels.size(); ++i) {
        clauses.push_back(fmt::format("'traffic.dat' index {} using 1:3 with lines lw 2 dt 2 lc rgb '{}' notitle", i,
                                      color(in.kernels[i])));
        clauses.push_back(fmt::format("'traffic.dat' index {} using 1:2 with points pt 7 ps 1.6 lc rgb '{}' title '{}'",
                                      i, color(in.kernels[i]), version(in.kernels[i]).name));
    }
    clauses.push_back("NaN with lines lw 2 dt 2 lc rgb 'black' title 'model'");
    clauses.push_back("NaN with points pt 7 ps 1.6 lc rgb 'black' title 'counted'");
    s.gp = gp + plot_command(clauses) + script_tail("traffic_vs_T");
    return s;
}

}  // namespace

std::vector<std::string> write_plot_scripts(const json& results, const std::string& dir, const std::string& term) {
    const PlotInput in = read_input(results);
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) throw UserError(fmt::format("cannot create {}: {}", dir, ec.message()));
    std::vector<Script> all = opb_figure(in, term);
    all.push_back(halo_figure(in, term));
    if (in.gpu()) {
        for (auto& s : timing_figures(in, term)) all.push_back(std::move(s));
        all.push_back(roofline_figure(in, term));
    } else {
        all.push_back(traffic_figure(in, term));
    }
    std::vector<std::string> scripts;
    for (const auto& s : all) {
        if (!s.data_file.empty()) write_text_file((fs::path(dir) / s.data_file).string(), s.data);
        if (!s.name.empty()) {
            write_text_file((fs::path(dir) / (s.name + ".gp")).string(), s.gp);
            scripts.push_back(s.name + ".gp");
        }
    }
    return scripts;
}

}  // namespace stencil::experiments
