// The sweep: run_kernel for each configuration, the model beside it, CSV / JSON, gnuplot.
#include "analysis/sweep.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "backends/cpu/cpu_backend.h"
#include "core/error.h"
#include "core/field.h"
#include "core/weights.h"

namespace stencil::analysis {

namespace fs = std::filesystem;

std::vector<int> default_sweep_tiles(KernelId k, int radius, Precision p) {
    const auto runnable = runnable_tiles(k, radius, p);
    std::vector<int> want;
    switch (k) {
        case KernelId::naive: want = {8}; break;
        case KernelId::tiled: want = {3, 4, 5, 6, 7, 8, 9, 10}; break;
        default: want = {8, 16, 32}; break;
    }
    std::vector<int> out;
    for (int t : want)
        if (std::find(runnable.begin(), runnable.end(), t) != runnable.end()) out.push_back(t);
    return out;
}

namespace {

template <class real>
simt::Counts trace_counts(const LaunchRequest& req, std::uint64_t seed) {
    const auto in = random_field<real>(req.dims, seed);
    auto out = poisoned_output(in, req.radius);
    CpuOptions opt;
    opt.exec.trace.count = true;
    const auto run = run_cpu(req, random_weights(req.radius, seed), in.data.data(), out.data.data(), opt);
    return run.report.counts;
}

}  // namespace

void check_output_dir(const std::string& dir) {
    std::error_code ec;
    const fs::path d(dir);
    if (fs::exists(d, ec) && !fs::is_directory(d, ec))
        throw UserError(fmt::format("--out {}: exists and is not a folder", dir));
    fs::create_directories(d, ec);
    if (ec) throw UserError(fmt::format("--out {}: cannot create the folder: {}", dir, ec.message()));
    // Writable? Try a file (permissions alone do not tell: read-only mounts, /proc, root).
    const fs::path probe = d / ".stencil-lab-write-test";
    {
        std::ofstream f(probe, std::ios::trunc);
        if (!(f << "x") || !f.flush())
            throw UserError(fmt::format("--out {}: the folder is not writable", dir));
    }
    fs::remove(probe, ec);
}

SweepResult run_sweep(Backend& backend, const SweepOptions& o) {
    if (o.size < 1) throw UserError(fmt::format("--size {} must be positive", o.size));
    const GridDims dims{o.size, o.size, o.size};
    if (auto e = grid_error(dims, o.radius)) throw UserError(*e);
    if (o.radius < 1 || o.radius > kMaxRadius)
        throw UserError(fmt::format("radius {} is outside 1..{}", o.radius, kMaxRadius));
    if (o.reps < 1) throw UserError("--reps must be at least 1");
    if (o.warmup < 0) throw UserError("warm-up launches cannot be negative");
    // A folder that cannot be written must fail now, not after the whole sweep has run.
    if (!o.out_dir.empty()) check_output_dir(o.out_dir);

    std::vector<KernelId> kernels = o.kernels;
    if (kernels.empty())
        for (const auto& v : kernel_versions()) kernels.push_back(v.id);

    SweepResult res;
    res.backend = backend.kind() == BackendKind::cuda ? "cuda" : "cpu";  // to_string lives in stencil_backends
    res.device = backend.device().name;
    res.dims = dims;
    res.radius = o.radius;
    res.precision = o.precision;
    res.fma_gflops = o.fma_gflops;
    res.fma_note = o.fma_gflops ? o.fma_note
                   : !o.fma_note.empty() ? o.fma_note
                   : backend.kind() == BackendKind::cpu
                       ? "FMA throughput not measured on the CPU backend (the emulator's speed is "
                         "no GPU ceiling)"
                       : "FMA throughput not measured (no microbenchmark result was supplied)";

    // The configurations, in table order.
    std::vector<SweepRow> rows;
    for (KernelId k : kernels) {
        const std::vector<int> tiles =
            o.tiles.empty() ? default_sweep_tiles(k, o.radius, o.precision) : o.tiles;
        for (int T : tiles) {
            SweepRow row;
            row.request = {k, T, o.radius, o.precision, dims};
            if (k != KernelId::naive && T <= 2 * o.radius) {
                row.skipped = fmt::format("{}: tile T={} leaves no output cells (T must exceed 2r)",
                                          version(k).name, T);
            } else if (T < 1) {
                row.skipped = fmt::format("tile {} must be at least 1", T);
            } else {
                row.model = model(k, T, o.radius, o.precision);
                row.exact = exact_grid_traffic(k, T, o.radius, o.precision, dims);
                if (auto e = tile_error(k, T, o.radius, o.precision, backend.limits()))
                    row.skipped = *e;
                else if (auto c = backend.cannot_run(row.request))
                    row.skipped = *c;
            }
            rows.push_back(std::move(row));
        }
    }
    if (rows.empty()) throw UserError("sweep: no configuration to run");
    // Every configuration skipped: nothing would be measured, so say why instead of writing
    // empty results.
    if (std::all_of(rows.begin(), rows.end(), [](const SweepRow& r) { return !r.skipped.empty(); }))
        throw UserError(fmt::format("sweep: nothing can run: all {} configuration(s) are skipped ({} T={}: {})",
                                    rows.size(), version(rows[0].request.kernel).name,
                                    rows[0].request.tile, rows[0].skipped));

    const int total = int(rows.size());
    std::vector<double> copies;
    for (int i = 0; i < total; ++i) {
        SweepRow& row = rows[i];
        const auto& req = row.request;
        const std::string what =
            fmt::format("{} T={} r={} {} N={}", version(req.kernel).name, req.tile, req.radius,
                        to_string(req.precision), o.size);
        if (o.progress) o.progress(i, total, what);
        if (!row.skipped.empty()) continue;

        RunOptions ro;
        ro.request = req;
        ro.seed = o.seed;
        ro.warmup = o.warmup;
        ro.reps = o.reps;
        row.run = run_kernel(backend, ro);
        if (row.run->timed && row.run->copy_gbps > 0) copies.push_back(row.run->copy_gbps);

        const WarpPattern wp = warp_pattern(req.kernel, req.tile, req.radius, req.precision, dims);
        row.model_sectors_per_request = wp.sectors_per_request;
        row.model_requests = wp.requests;
        row.model_sectors = wp.sectors;

        std::optional<simt::Counts> counts;
        if (backend.kind() == BackendKind::cpu && o.trace_level1 && row.run->ok)
            counts = req.precision == Precision::f32 ? trace_counts<float>(req, o.seed)
                                                     : trace_counts<double>(req, o.seed);
        HardwareCounters hw;
        if (!row.run->ok)
            hw = counters_unavailable("the check failed: nothing was measured");
        else if (o.counters)
            hw = o.counters(req);
        else
            hw = counters_unavailable(
                !o.counters_unavailable_reason.empty() ? o.counters_unavailable_reason
                : backend.kind() == BackendKind::cpu
                    ? "the CPU backend has no caches to count: L2 and DRAM bytes need the GPU's "
                      "hardware counters"
                    : "hardware counters were not collected in this build");
        row.measured = measure(req.kernel, req.tile, req.radius, req.precision, dims,
                               counts ? &*counts : nullptr, hw);
    }
    if (o.progress) o.progress(total, total, "done");
    if (!copies.empty()) {
        std::sort(copies.begin(), copies.end());
        res.copy_gbps = copies[copies.size() / 2];
    }
    res.rows = std::move(rows);
    return res;
}

// ---- CSV / JSON ------------------------------------------------------------------------------

namespace {

nlohmann::json num(std::optional<double> v) {
    return v && std::isfinite(*v) ? nlohmann::json(*v) : nlohmann::json(nullptr);
}
std::string csvnum(std::optional<double> v) {
    return v && std::isfinite(*v) ? fmt::format("{:.6g}", *v) : std::string();
}
std::string csvtext(std::string s) {
    std::replace(s.begin(), s.end(), '\n', ' ');
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}
std::string status(const SweepRow& r) {
    if (!r.skipped.empty()) return "skipped";
    if (!r.run) return "not run";
    if (r.run->cancelled) return "cancelled";
    return r.run->ok ? "ok" : "check failed";
}
}  // namespace

nlohmann::json to_json(const SweepRow& r) {
    nlohmann::json j;
    const auto& q = r.request;
    j["kernel"] = version(q.kernel).name;
    j["tile"] = q.tile;
    j["radius"] = q.radius;
    j["precision"] = std::string(to_string(q.precision));
    j["grid"] = {q.dims.nx, q.dims.ny, q.dims.nz};
    j["status"] = status(r);
    if (!r.skipped.empty()) {
        j["skipped"] = r.skipped;
        return j;
    }
    const Model& m = r.model;
    j["model"] = {
        {"flops_per_point", m.flops_per_point},
        {"loads_per_block", m.loads_per_block},
        {"outputs_per_block", m.outputs_per_block},
        {"opb", m.opb},
        {"opb_textbook", m.opb_textbook},
        {"opb_limit", m.opb_limit},
        {"halo_fraction", m.halo.fraction},
        {"smem_bytes", m.smem_bytes},
        {"threads_per_block", m.threads_per_block},
        {"sectors_per_request", r.model_sectors_per_request},
        {"grid_load_bytes", r.exact.load_bytes},
        {"grid_store_bytes", r.exact.store_bytes},
        {"grid_flops", r.exact.flops},
        {"grid_opb", r.exact.opb},
    };
    if (r.measured) {
        nlohmann::json lv = nlohmann::json::array();
        for (const auto& l : r.measured->levels) {
            nlohmann::json e = {{"level", l.level},
                                {"read_bytes", num(l.read_bytes)},
                                {"write_bytes", num(l.write_bytes)},
                                {"opb_read", num(l.opb)},
                                {"opb_read_write", num(l.opb_rw)},
                                {"measured", l.measured},
                                {"source", l.source},
                                {"note", l.note}};
            if (l.model_read_bytes) {
                e["model_read_bytes"] = num(l.model_read_bytes);
                e["model_write_bytes"] = num(l.model_write_bytes);
            }
            lv.push_back(e);
        }
        const auto& mm = *r.measured;
        j["measured"] = {{"flops", mm.flops},
                         {"flops_source", mm.flops_source},
                         {"levels", lv},
                         // flat copies for readers that look for these names (the viewer)
                         {"requested_bytes", num(mm.level("requested").read_bytes)},
                         {"l2_read_bytes", num(mm.level("L2").read_bytes)},
                         {"dram_read_bytes", num(mm.level("DRAM").read_bytes)},
                         {"l1_global_load_sectors", num(mm.l1_sectors)},
                         {"l1_global_load_requests", num(mm.l1_requests)},
                         {"sectors_per_request", num(mm.sectors_per_request)}};
    }
    if (r.run) {
        j["check"] = {{"ok", r.run->ok}, {"line", r.run->check_line()}};
        j["run"] = r.run->to_json();
        j["time_ms"] = {{"min", r.run->ms.min}, {"median", r.run->ms.median}, {"max", r.run->ms.max}};
        j["gbps"] = r.run->gbps;
        j["gflops"] = r.run->gflops;
        j["copy_gbps"] = r.run->copy_gbps;
        j["copy_ratio"] = r.run->copy_ratio;
    }
    return j;
}

nlohmann::json to_json(const SweepResult& s) {
    nlohmann::json j;
    j["backend"] = s.backend;
    j["device"] = s.device;
    j["grid"] = {s.dims.nx, s.dims.ny, s.dims.nz};
    j["radius"] = s.radius;
    j["precision"] = std::string(to_string(s.precision));
    j["copy_gbps"] = s.copy_gbps;
    j["fma_gflops"] = num(s.fma_gflops);
    j["fma_note"] = s.fma_note;
    j["plots"] = s.plots_note;
    if (s.backend == "cpu")
        j["note"] = "CPU backend: times are the PTX engine's, not a GPU's; L2/DRAM levels need "
                    "the GPU's counters";
    j["results"] = nlohmann::json::array();
    for (const auto& r : s.rows) j["results"].push_back(to_json(r));
    return j;
}

// Integer counts (bytes, sectors, requests, FLOPs) are written as integers, exactly; ratios with
// 6 significant digits. A counter value is a whole number; should one not be, it is written as is.
std::string csvint(std::optional<double> v) {
    if (!v || !std::isfinite(*v)) return std::string();
    if (*v == std::floor(*v) && std::fabs(*v) < 9.0e15) return fmt::format("{}", (long long)*v);
    return fmt::format("{}", *v);  // shortest exact round trip
}

std::string csv_header() {
    return "kernel,tile,radius,precision,nx,ny,nz,status,check,flops_per_point,loads_per_block,"
           "outputs_per_block,model_opb,model_opb_textbook,model_opb_limit,halo_fraction,"
           "smem_bytes,threads_per_block,model_requests,model_sectors,model_sectors_per_request,"
           "grid_load_bytes,grid_store_bytes,grid_flops,flops,requested_source,requested_read_bytes,"
           "requested_write_bytes,requested_opb,requested_opb_rw,l2_read_bytes,l2_write_bytes,"
           "l2_opb,l2_opb_rw,dram_read_bytes,dram_write_bytes,dram_opb,dram_opb_rw,l1_global_load_sectors,"
           "l1_global_load_requests,measured_sectors_per_request,time_ms_min,time_ms_median,"
           "time_ms_max,gbps,gflops,copy_gbps,copy_ratio,note";
}

std::string csv_line(const SweepRow& r) {
    const auto& q = r.request;
    std::string s = fmt::format("{},{},{},{},{},{},{},{},", version(q.kernel).name, q.tile, q.radius,
                                to_string(q.precision), q.dims.nx, q.dims.ny, q.dims.nz, status(r));
    s += (r.run ? csvtext(r.run->check_line()) : std::string()) + ",";
    if (!r.skipped.empty()) {
        const std::string head = csv_header();
        s += std::string(size_t(std::count(head.begin(), head.end(), ',') - 9), ',');
        return s + csvtext(r.skipped);
    }
    const Model& m = r.model;
    s += fmt::format("{},{},{},{},{},{},{},{},{},", m.flops_per_point, m.loads_per_block,
                     m.outputs_per_block, csvnum(m.opb), csvnum(m.opb_textbook),
                     csvnum(m.opb_limit), csvnum(m.halo.fraction), m.smem_bytes,
                     m.threads_per_block);
    s += fmt::format("{},{},{},{},{},{},", r.model_requests ? std::to_string(r.model_requests) : "",
                     r.model_requests ? std::to_string(r.model_sectors) : "",
                     r.model_requests ? csvnum(r.model_sectors_per_request) : "", r.exact.load_bytes,
                     r.exact.store_bytes, r.exact.flops);
    auto lv = [&](const char* name) -> const LevelMetric* {
        return r.measured ? &r.measured->level(name) : nullptr;
    };
    auto get = [](const LevelMetric* l, std::optional<double> LevelMetric::*f) {
        return l ? l->*f : std::nullopt;
    };
    const LevelMetric *req = lv("requested"), *l2 = lv("L2"), *dram = lv("DRAM");
    s += csvint(r.measured ? std::optional<double>(r.measured->flops) : std::nullopt) + ",";
    s += (req ? csvtext(req->source) : std::string()) + ",";
    s += fmt::format("{},{},{},{},", csvint(get(req, &LevelMetric::read_bytes)),
                     csvint(get(req, &LevelMetric::write_bytes)), csvnum(get(req, &LevelMetric::opb)),
                     csvnum(get(req, &LevelMetric::opb_rw)));
    for (const LevelMetric* l : {l2, dram})
        s += fmt::format("{},{},{},{},", csvint(get(l, &LevelMetric::read_bytes)),
                         csvint(get(l, &LevelMetric::write_bytes)), csvnum(get(l, &LevelMetric::opb)),
                         csvnum(get(l, &LevelMetric::opb_rw)));
    s += fmt::format("{},{},{},", csvint(r.measured ? r.measured->l1_sectors : std::nullopt),
                     csvint(r.measured ? r.measured->l1_requests : std::nullopt),
                     csvnum(r.measured ? r.measured->sectors_per_request : std::nullopt));
    if (r.run && r.run->timed)
        s += fmt::format("{:.6g},{:.6g},{:.6g},{:.6g},{:.6g},{:.6g},{:.4g},", r.run->ms.min,
                         r.run->ms.median, r.run->ms.max, r.run->gbps, r.run->gflops,
                         r.run->copy_gbps, r.run->copy_ratio);
    else
        s += ",,,,,,,";
    std::string note;
    if (r.measured) note = r.measured->level("DRAM").note;
    if (r.run && !r.run->ok) note = r.run->check_line();
    return s + csvtext(note);
}

// ---- plots -----------------------------------------------------------------------------------

std::optional<std::string> gnuplot_png_terminal(std::string* why) {
    if (std::system("command -v gnuplot > /dev/null 2>&1") != 0) {
        if (why) *why = "gnuplot is not installed (apt install gnuplot-nox); plots skipped";
        return std::nullopt;
    }
    FILE* p = popen("gnuplot -e 'set terminal' 2>&1", "r");
    std::string text;
    if (p) {
        char buf[512];
        while (fgets(buf, sizeof buf, p)) text += buf;
        pclose(p);
    }
    if (text.find("pngcairo") != std::string::npos) return std::string("pngcairo");
    if (text.find(" png ") != std::string::npos || text.find("png  ") != std::string::npos)
        return std::string("png");
    if (why) *why = "this gnuplot has no PNG terminal; plots skipped";
    return std::nullopt;
}

namespace {

// The first line of gnuplot's log that says something (its error), for the one-line report.
std::string slurp_first_line(const fs::path& p) {
    std::ifstream f(p);
    std::string line, last;
    while (std::getline(f, line)) {
        if (line.find_first_not_of(" \t^") == std::string::npos) continue;
        last = line;
        if (line.find("rror") != std::string::npos || line.find("warning") != std::string::npos) break;
    }
    return last;
}

void write_file(const fs::path& p, const std::string& text) {
    std::ofstream f(p, std::ios::trunc);
    if (!f) throw UserError("cannot write " + p.string());
    f << text;
}

const char* kColors[4] = {"#1b9e77", "#d95f02", "#7570b3", "#e7298a"};

std::string script_head(const std::string& name, const std::string& term, const std::string& title) {
    return fmt::format(
        "# {0}.gp: written by `stencil-lab sweep`; edit and run `gnuplot {0}.gp` to redraw.\n"
        "set terminal {1} size 1000,650 font 'Sans,11'\n"
        "set output '{0}.png'\n"
        "set title \"{2}\"\n"
        "set datafile missing 'NaN'\n"
        "set key outside right top\n"
        "set grid\n",
        name, term, title);
}
std::string script_tail(const std::string& name) {
    return fmt::format("set terminal svg size 1000,650 font 'Sans,11' dynamic\n"
                       "set output '{}.svg'\nreplot\n",
                       name);
}
// Drops the trailing ", \\" of a plot command; with nothing to plot, plots nothing (1/0).
void trim_plot(std::string& plot) {
    const auto at = plot.rfind(',');
    if (at == std::string::npos) plot += "1/0 notitle";
    else plot.resize(at);
}
std::string val(std::optional<double> v) { return v && std::isfinite(*v) ? fmt::format("{:.6g}", *v) : "NaN"; }

}  // namespace

std::vector<std::string> write_plot_scripts(const SweepResult& s, const std::string& dir,
                                            const std::string& term) {
    fs::create_directories(dir);
    const fs::path d(dir);
    std::vector<std::string> scripts;
    const int r = s.radius;
    const int B = bytes_of(s.precision);

    std::vector<KernelId> kernels;
    for (const auto& row : s.rows)
        if (std::find(kernels.begin(), kernels.end(), row.request.kernel) == kernels.end())
            kernels.push_back(row.request.kernel);

    // (1) OP/B against T: model curves (every T the formula allows, 2r+1 .. 32) and measured
    //     points per level. One data block per kernel (index i in gnuplot).
    {
        std::string model_dat = "# T  model_opb(naive tiled coarsened register-tiled), NaN where T is not allowed\n";
        for (int T = 1; T <= 32; ++T) {
            model_dat += fmt::format("{}", T);
            for (const auto& v : kernel_versions()) {
                const bool ok = v.id == KernelId::naive || T > 2 * r;
                model_dat += ok ? fmt::format(" {:.6g}", interior_block_traffic(v.id, T, r, s.precision).opb)
                                : std::string(" NaN");
            }
            model_dat += "\n";
        }
        write_file(d / "opb_model.dat", model_dat);
        // One convention on this chart, the model's: FLOP per byte *read* at every level, so a
        // DRAM point says how much of the model's reuse the caches caught (the roofline below
        // counts read + write, as its copy ceiling does).
        std::string meas = "# per kernel block: T requested_opb L2_opb DRAM_opb (FLOP / byte read at each "
                           "level, the model's convention) (NaN: not measured)\n";
        for (KernelId k : kernels) {
            meas += fmt::format("# {}\n", version(k).name);
            for (const auto& row : s.rows)
                if (row.request.kernel == k && row.measured)
                    meas += fmt::format("{} {} {} {}\n", row.request.tile,
                                        val(row.measured->level("requested").opb),
                                        val(row.measured->level("L2").opb),
                                        val(row.measured->level("DRAM").opb));
            meas += "NaN NaN NaN NaN\n\n\n";
        }
        write_file(d / "opb_measured.dat", meas);
        std::string gp = script_head("opb_vs_T", term,
                                     fmt::format("OP/B against T (r = {}, {}): model lines, measured points", r,
                                                 to_string(s.precision)));
        gp += "set xlabel 'T (IN\\_TILE\\_DIM; naive: block edge)'\nset ylabel 'FLOP per byte loaded'\n"
              "set logscale y\nset xrange [1:33]\n";
        // Every label is computed from the model for this sweep's r and precision and placed at
        // its (T, value); the texts' figures (r = 1, fp32) are marked as the seed's only then.
        const bool seed = r == 1 && s.precision == Precision::f32;
        const int F = flops_per_point(r), P = point_count(r);
        gp += fmt::format("limit = {:.6g}\n", double(F) / B);
        gp += "set arrow from 1,limit to 33,limit nohead dt 2 lc rgb 'gray30'\n";
        gp += fmt::format("set label \"limit (12r+1)/{} B = {}/{} = {:.3g} (r = {}, {}{})\" at 2,limit*1.08 "
                          "tc rgb 'gray30'\n",
                          B, F, B, double(F) / B, r, to_string(s.precision),
                          seed ? fmt::format("; seed: 13/4, not {}/2", P) : std::string());
        auto mark = [&](KernelId k, int T, const char* what) {
            if (T <= 2 * r || !tile_fits(k, T, r, B)) return std::string();
            const double y = interior_block_traffic(k, T, r, s.precision).opb;
            return fmt::format("set label '' at {0},{1:.6g} point pt 7 ps 1.5 lc rgb 'black'\n"
                               "set label \"{2}{3} T = {0}: {1:.3g}\" at {0},{1:.6g} offset 1,-1\n",
                               T, y, seed ? "seed: " : "", what);
        };
        gp += mark(KernelId::tiled, 8, "tiled");
        gp += mark(KernelId::coarsened, 32, "coarsened");
        std::string plot = "plot ";
        int col = 2;
        for (const auto& v : kernel_versions()) {
            plot += fmt::format("'opb_model.dat' using 1:{} with lines lw {} dt {} lc rgb '{}' title '{} (model)', \\\n     ",
                                col, col == 2 ? 2 : 5 - col / 2, col - 1, kColors[col - 2], v.name);
            ++col;
        }
        const char* level_names[3] = {"requested", "L2", "DRAM"};
        const int level_pt[3] = {7, 5, 9};
        for (size_t i = 0; i < kernels.size(); ++i)
            for (int l = 0; l < 3; ++l)
                plot += fmt::format("'opb_measured.dat' index {} using 1:{} with points pt {} ps 1.4 lc rgb '{}' "
                                    "title '{} {}', \\\n     ",
                                    i, l + 2, level_pt[l], kColors[int(kernels[i])], version(kernels[i]).name,
                                    level_names[l]);
        trim_plot(plot);
        gp += plot + "\n" + script_tail("opb_vs_T");
        write_file(d / "opb_vs_T.gp", gp);
        scripts.push_back("opb_vs_T.gp");
    }

    // (2) Halo fraction against T: the 3D tile, one 2D plane, with the texts' two points.
    {
        std::string dat = fmt::format("# T halo_fraction_3D halo_fraction_2D (radius {})\n", r);
        for (int T = 2 * r + 1; T <= 64; ++T)
            dat += fmt::format("{} {:.6g} {:.6g}\n", T, halo_3d(T, r).fraction, halo_2d(T, r).fraction);
        write_file(d / "halo.dat", dat);
        std::string gp = script_head("halo_vs_T", term,
                                     fmt::format("Halo share of the input tile (r = {})", r));
        gp += "set xlabel 'T (input tile edge)'\nset ylabel 'halo cells / tile cells'\nset yrange [0:1]\n";
        // The texts' two points (003: 8^3 and 32^2), computed for this r, at their (T, fraction).
        for (auto [T, is3d] : {std::pair{8, true}, std::pair{32, false}}) {
            if (T <= 2 * r) continue;
            const Halo h = is3d ? halo_3d(T, r) : halo_2d(T, r);
            gp += fmt::format("set label \"{}{}^{}: {}/{} = {:.0f}%\" at {},{:.6g} point pt 7 ps 1.3 offset 1,0\n",
                              r == 1 ? "seed: " : "", T, is3d ? 3 : 2, h.halo_cells, h.tile_cells,
                              100 * h.fraction, T, h.fraction);
        }
        gp += "plot 'halo.dat' using 1:2 with lines lw 2 title '3D tile T^3', \\\n"
              "     'halo.dat' using 1:3 with lines lw 2 title '2D tile T^2 (one plane)'\n";
        gp += script_tail("halo_vs_T");
        write_file(d / "halo_vs_T.gp", gp);
        scripts.push_back("halo_vs_T.gp");
    }

    // (3) Time and effective bandwidth against T, with the copy bandwidth.
    {
        std::string dat = "# per kernel block: T time_ms_median gbps copy_gbps\n";
        for (KernelId k : kernels) {
            dat += fmt::format("# {}\n", version(k).name);
            for (const auto& row : s.rows)
                if (row.request.kernel == k && row.run && row.run->timed)
                    dat += fmt::format("{} {:.6g} {:.6g} {:.6g}\n", row.request.tile, row.run->ms.median,
                                       row.run->gbps, row.run->copy_gbps);
            dat += "NaN NaN NaN NaN\n\n\n";
        }
        write_file(d / "timing.dat", dat);
        for (int which = 0; which < 2; ++which) {
            const std::string name = which ? "bandwidth_vs_T" : "time_vs_T";
            std::string gp = script_head(
                name, term,
                which ? fmt::format("Effective bandwidth on {} (N = {})", s.device, s.dims.nx)
                      : fmt::format("Time per launch on {} (N = {})", s.device, s.dims.nx));
            gp += "set xlabel 'T'\n";
            gp += which ? "set ylabel 'GB/s (one read + one write per cell)'\n" : "set ylabel 'ms (median)'\n";
            if (which && s.copy_gbps > 0)
                gp += fmt::format("copy = {:.6g}\nset arrow from graph 0, first copy to graph 1, first copy "
                                  "nohead lw 2 dt 2 lc rgb 'black'\nset label sprintf('copy %.0f GB/s', copy) "
                                  "at graph 0.02, first copy*1.03\nset yrange [0:copy*1.15]\n",
                                  s.copy_gbps);
            std::string plot = "plot ";
            for (size_t i = 0; i < kernels.size(); ++i)
                plot += fmt::format("'timing.dat' index {} using 1:{} with linespoints pt 7 lw 2 lc rgb '{}' "
                                    "title '{}', \\\n     ",
                                    i, which ? 3 : 2, kColors[int(kernels[i])], version(kernels[i]).name);
            trim_plot(plot);
            gp += plot + "\n" + script_tail(name);
            write_file(d / (name + ".gp"), gp);
            scripts.push_back(name + ".gp");
        }
    }

    // (4) Roofline: measured copy bandwidth and (when measured) FMA throughput as ceilings; each
    //     configuration at its OP/B (DRAM when measured, else requested) and achieved GFLOP/s.
    {
        // One byte convention on both axes of the roofline: the ceiling is a copy's bandwidth,
        // which counts read + write, so x is FLOP per byte read + written (DRAM when the counters
        // measured it, else the requested level's read + write bytes, labelled as such).
        std::string dat = "# per kernel block: opb_rw (FLOP / (read + write bytes)) gflops T "
                          "level(0 requested, 2 DRAM)\n";
        bool any_dram = false, any_requested = false;
        for (KernelId k : kernels) {
            dat += fmt::format("# {}\n", version(k).name);
            for (const auto& row : s.rows)
                if (row.request.kernel == k && row.run && row.run->timed && row.measured) {
                    auto dram = row.measured->level("DRAM").opb_rw;
                    auto req = row.measured->level("requested").opb_rw;
                    const auto x = dram ? dram : req;
                    (dram ? any_dram : any_requested) = true;
                    dat += fmt::format("{} {:.6g} {} {}\n", val(x), row.run->gflops, row.request.tile,
                                       dram ? 2 : 0);
                }
            dat += "NaN NaN NaN NaN\n\n\n";
        }
        write_file(d / "roofline.dat", dat);
        const std::string xwhat = any_dram && any_requested ? "DRAM where measured, else requested"
                                  : any_dram                ? "DRAM"
                                                            : "requested (no DRAM counters)";
        std::string gp = script_head("roofline", term,
                                     fmt::format("Roofline, {} ({})\\nx: {} FLOP per byte read + written; "
                                                 "ceiling: copy bandwidth (read + write)",
                                                 s.device, to_string(s.precision), xwhat));
        gp += fmt::format("set logscale xy\nset xlabel 'FLOP / ({} bytes read + written)'\n"
                          "set ylabel 'GFLOP/s'\nset xrange [0.05:100]\n",
                          any_dram ? "DRAM" : "requested");
        const double bw = s.copy_gbps > 0 ? s.copy_gbps : 1;
        gp += fmt::format("bw = {:.6g}\n", bw);
        if (s.fma_gflops) {
            gp += fmt::format("peak = {:.6g}\nroof(x) = (bw*x < peak) ? bw*x : peak\n", *s.fma_gflops);
            gp += "set label sprintf('FMA %.0f GFLOP/s', peak) at graph 0.65, first peak*1.15\n";
        } else {
            gp += "roof(x) = bw*x\n";
            gp += fmt::format("set label \"{}\" at graph 0.02, graph 0.95 tc rgb 'red'\n", s.fma_note);
        }
        gp += fmt::format("set label sprintf('copy %.0f GB/s', bw) at 0.1, bw*0.1*1.4 rotate by 30\n");
        std::string plot = "plot roof(x) with lines lw 2 lc rgb 'black' title 'ceiling (measured copy bandwidth"
                           + std::string(s.fma_gflops ? ", FMA peak" : "") + ")', \\\n     ";
        for (size_t i = 0; i < kernels.size(); ++i)
            plot += fmt::format("'roofline.dat' index {} using 1:2 with points pt 7 ps 1.5 lc rgb '{}' title '{}', \\\n     ",
                                i, kColors[int(kernels[i])], version(kernels[i]).name);
        trim_plot(plot);
        gp += plot + "\n" + script_tail("roofline");
        write_file(d / "roofline.gp", gp);
        scripts.push_back("roofline.gp");
    }
    return scripts;
}

void write_sweep_outputs(SweepResult& s, const std::string& dir, bool plots) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) throw UserError(fmt::format("cannot create {}: {}", dir, ec.message()));
    const fs::path d(dir);
    s.files.clear();

    std::string csv = csv_header() + "\n";
    for (const auto& r : s.rows) csv += csv_line(r) + "\n";
    write_file(d / "results.csv", csv);
    s.files.push_back("results.csv");

    if (!plots) {
        s.plots_note = "plots not requested";
    } else {
        std::string why;
        const auto term = gnuplot_png_terminal(&why);
        const fs::path pd = d / "plots";
        if (!term) {
            // Still leave the data and scripts, so the plots can be drawn elsewhere.
            for (const auto& gp : write_plot_scripts(s, pd.string(), "pngcairo"))
                s.files.push_back("plots/" + gp);
            s.plots_note = why;
        } else {
            std::vector<std::string> failures;
            for (const auto& gp : write_plot_scripts(s, pd.string(), *term)) {
                s.files.push_back("plots/" + gp);
                const std::string stem = gp.substr(0, gp.size() - 3);
                const fs::path log = pd / (gp + ".log");
                std::error_code ec;
                for (const char* ext : {".png", ".svg"}) fs::remove(pd / (stem + ext), ec);
                const std::string cmd = fmt::format("cd '{}' && gnuplot '{}' > '{}.log' 2>&1",
                                                    pd.string(), gp, gp);
                const int rc = std::system(cmd.c_str());
                // gnuplot can exit 0 yet leave an empty image (and fail with a half-written one):
                // an image counts only when the run succeeded and both files have content.
                std::string bad;
                for (const char* ext : {".png", ".svg"}) {
                    const fs::path img = pd / (stem + ext);
                    if (!fs::exists(img, ec) || fs::file_size(img, ec) == 0)
                        bad = fmt::format("{}{} is missing or empty", stem, ext);
                }
                if (rc != 0 || !bad.empty()) {
                    std::string why = slurp_first_line(log);
                    if (why.empty()) why = rc != 0 ? fmt::format("gnuplot exited with {}", rc) : bad;
                    for (const char* ext : {".png", ".svg"}) fs::remove(pd / (stem + ext), ec);
                    failures.push_back(fmt::format("{} failed: {} (log: plots/{}.log)", gp, why, gp));
                    continue;
                }
                s.files.push_back("plots/" + stem + ".png");
                s.files.push_back("plots/" + stem + ".svg");
                fs::remove(log, ec);
            }
            s.plot_failures = failures;
            s.plots_note = failures.empty()
                               ? fmt::format("plots written with gnuplot ({} and svg)", *term)
                               : fmt::format("{} plot(s) failed; {}", failures.size(), failures.front());
        }
    }
    write_file(d / "results.json", to_json(s).dump(2) + "\n");
    s.files.push_back("results.json");
}

}  // namespace stencil::analysis
