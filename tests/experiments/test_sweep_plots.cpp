// The sweep's gnuplot scripts, checked as text: what a lecturer would object to on a slide that
// can be seen without drawing (the texts' figures called "textbook", each roofline point
// labelled, error bars from the recorded min / max, no GB/s or time figure for the CPU engine, the
// key below the plot), and `sweep --replot` reproducing a folder's scripts from its results.json.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "analysis/model.h"
#include "core/error.h"
#include "experiments/sweep.h"
#include "experiments/sweep_output.h"
#include "experiments/sweep_plots.h"

using namespace stencil;
using namespace stencil::experiments;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string slurp(const fs::path& p) {
    std::ifstream f(p);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

// A fresh, empty folder under the temporary directory.
fs::path scratch(const char* name) {
    const fs::path d = fs::temp_directory_path() / name;
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

const fs::path kCommitted[] = {fs::path(STENCIL_LAB_SOURCE_DIR) / "docs/results/h100-sweep-256-f32",
                               fs::path(STENCIL_LAB_SOURCE_DIR) / "docs/results/h100-sweep-256-f64"};

json committed_results(const fs::path& dir) { return json::parse(slurp(dir / "results.json")); }

// Every .gp written for the document, concatenated, and the folder.
std::string all_scripts(const json& doc, const fs::path& dir) {
    std::string all;
    for (const auto& gp : write_plot_scripts(doc, dir.string(), "pngcairo")) all += slurp(dir / gp);
    return all;
}

}  // namespace

TEST_CASE("plots of a GPU sweep: textbook, not seed; labelled roofline; min/max error bars",
          "[experiments][plots]") {
    const fs::path dir = scratch("stencil_tests_plots_gpu");
    const json doc = committed_results(kCommitted[0]);  // the H100, fp32, r = 1
    const auto scripts = write_plot_scripts(doc, dir.string(), "pngcairo");
    for (const char* gp : {"opb_vs_T.gp", "halo_vs_T.gp", "time_vs_T.gp", "bandwidth_vs_T.gp", "roofline.gp"}) {
        CAPTURE(gp);
        REQUIRE(std::find(scripts.begin(), scripts.end(), gp) != scripts.end());
        const std::string text = slurp(dir / gp);
        // No "seed" anywhere: the texts' figures are the textbook's.
        CHECK(text.find("seed") == std::string::npos);
        // The key at the bottom of the canvas, under a bottom margin sized for it, so the plot
        // keeps its width and the x label stays clear of the key.
        CHECK(text.find("set key at screen 0.5, 0.012 center bottom") != std::string::npos);
        CHECK(text.find("set bmargin at screen") != std::string::npos);
        CHECK(text.find("set key outside right") == std::string::npos);
    }
    // The texts' worked figures, as a lecturer would say them.
    const std::string opb = slurp(dir / "opb_vs_T.gp");
    const double t8 = analysis::interior_block_traffic(KernelId::tiled, 8, 1, Precision::f32).opb;
    CHECK(opb.find(fmt::format("textbook: {:.3g} at T = 8 (tiled)", t8)) != std::string::npos);
    CHECK(opb.find("textbook: 13/4, not 7/2") != std::string::npos);
    CHECK(slurp(dir / "halo_vs_T.gp").find("textbook: 8³: 296/512 = 58%") != std::string::npos);

    // Every timed configuration's point carries a label with its kernel and T.
    const std::string roof = slurp(dir / "roofline.gp");
    int timed = 0;
    for (const auto& r : doc["results"]) {
        if (!r["run"].value("timed", false)) continue;
        ++timed;
        const std::string label = fmt::format("\"{} T={}\"", r["kernel"].get<std::string>(), r["tile"].get<int>());
        CAPTURE(label);
        CHECK(roof.find(label) != std::string::npos);
    }
    REQUIRE(timed == 15);

    // Error bars: the time figure plots (median, min, max) columns, and timing.dat holds the
    // recorded min and max of each configuration.
    CHECK(slurp(dir / "time_vs_T.gp").find("using 1:2:3:4 with yerrorlines") != std::string::npos);
    CHECK(slurp(dir / "bandwidth_vs_T.gp").find("using 1:5:6:7 with yerrorlines") != std::string::npos);
    const std::string timing = slurp(dir / "timing.dat");
    const auto& naive = doc["results"][0];
    REQUIRE(naive["kernel"] == "naive");
    CHECK(timing.find(fmt::format("8 {:.6g} {:.6g} {:.6g}", naive["time_ms"]["median"].get<double>(),
                                  naive["time_ms"]["min"].get<double>(), naive["time_ms"]["max"].get<double>())) !=
          std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE("plots of a CPU sweep: no time or GB/s figure, the counted traffic instead", "[experiments][plots]") {
    auto backend = make_cpu_backend();
    REQUIRE(backend);
    SweepOptions o;
    o.kernels = {KernelId::naive, KernelId::tiled};
    o.tiles = {4, 6};
    o.size = 12;
    o.reps = 1;
    o.warmup = 0;
    const SweepResult s = run_sweep(*backend, o);
    const fs::path dir = scratch("stencil_tests_plots_cpu");
    const auto scripts = write_plot_scripts(to_json(s), dir.string(), "pngcairo");
    std::string all;
    for (const auto& gp : scripts) all += slurp(dir / gp);
    CHECK(std::find(scripts.begin(), scripts.end(), "traffic_vs_T.gp") != scripts.end());
    for (const char* gp : {"time_vs_T.gp", "bandwidth_vs_T.gp", "roofline.gp"}) {
        CAPTURE(gp);
        CHECK(std::find(scripts.begin(), scripts.end(), gp) == scripts.end());
    }
    CHECK(all.find("GB/s") == std::string::npos);
    CHECK(all.find("GFLOP/s") == std::string::npos);
    CHECK(all.find("ms per launch") == std::string::npos);
    // The title says what was measured, and by what.
    CHECK(slurp(dir / "traffic_vs_T.gp").find("counted by the CPU engine (an emulator") != std::string::npos);
    // The counted bytes per output cell equal the model's exact count on the CPU (the trace).
    const std::string traffic = slurp(dir / "traffic.dat");
    const double cells = 10.0 * 10 * 10;
    const auto exact = analysis::exact_grid_traffic(KernelId::tiled, 6, 1, Precision::f32, {12, 12, 12});
    const std::string per_cell = fmt::format("{:.6g}", double(exact.load_bytes) / cells);
    CHECK(traffic.find(fmt::format("6 {} {}", per_cell, per_cell)) != std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE("plots for r = 2, fp64: labels computed for them, none called textbook", "[experiments][plots]") {
    SweepResult s;
    s.backend = "cuda";
    s.radius = 2;
    s.precision = Precision::f64;
    s.device = "test";
    s.dims = {16, 16, 16};
    const fs::path dir = scratch("stencil_tests_plots_r2");
    const std::string all = all_scripts(to_json(s), dir);
    const int F = 12 * 2 + 1, B = 8;
    CHECK(all.find(fmt::format("{}/{} = {:.3g}", F, B, double(F) / B)) != std::string::npos);
    CHECK(all.find("13/4") == std::string::npos);
    CHECK(all.find("textbook") == std::string::npos);
    // The tiled T = 8 mark sits on the model curve: its y is the model's OP/B at T = 8.
    const double y = analysis::interior_block_traffic(KernelId::tiled, 8, 2, Precision::f64).opb;
    CHECK(all.find(fmt::format("at 8,{:.6g} point", y)) != std::string::npos);
    const analysis::Halo h3 = analysis::halo_3d(8, 2);
    CHECK(all.find(fmt::format("{}/{} = {:.0f}%", h3.halo_cells, h3.tile_cells, 100 * h3.fraction)) !=
          std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE("replot: a sweep folder's scripts and data come back byte for byte from results.json",
          "[experiments][plots]") {
    // A fresh CPU sweep: write it, then redraw a copy of its folder from results.json alone.
    auto backend = make_cpu_backend();
    SweepOptions o;
    o.kernels = {KernelId::naive, KernelId::register_tiled};
    o.tiles = {4, 8};
    o.size = 12;
    o.reps = 1;
    o.warmup = 0;
    SweepResult s = run_sweep(*backend, o);
    const fs::path a = scratch("stencil_tests_replot_a"), b = scratch("stencil_tests_replot_b");
    write_sweep_outputs(s, a.string(), true);
    fs::copy_file(a / "results.json", b / "results.json");
    fs::create_directories(b / "plots");
    write_text_file((b / "plots" / "stale_figure.gp").string(), "# left by older scripts\n");
    const PlotOutcome p = replot_sweep(b.string());
    INFO(p.note);
    int compared = 0;
    for (const auto& e : fs::directory_iterator(a / "plots")) {
        const auto ext = e.path().extension();
        if (ext != ".gp" && ext != ".dat") continue;
        CAPTURE(e.path().filename().string());
        REQUIRE(slurp(e.path()) == slurp(b / "plots" / e.path().filename()));
        ++compared;
    }
    CHECK(compared >= 6);
    CHECK_FALSE(fs::exists(b / "plots" / "stale_figure.gp"));
    CHECK(slurp(a / "results.json") == slurp(b / "results.json"));  // replot never rewrites the data
    fs::remove_all(a);
    fs::remove_all(b);
}

TEST_CASE("replot: the committed H100 figures were drawn by the current scripts", "[experiments][plots]") {
    // If this fails, the scripts changed: run `stencil-lab sweep --replot docs/results/h100-sweep-256-f32`
    // (and -f64), look at the figures, and commit them.
    for (const fs::path& dir : kCommitted) {
        CAPTURE(dir.string());
        const fs::path out = scratch("stencil_tests_replot_committed");
        const auto scripts = write_plot_scripts(committed_results(dir), out.string(), "pngcairo");
        for (const auto& e : fs::directory_iterator(out)) {
            CAPTURE(e.path().filename().string());
            REQUIRE(fs::exists(dir / "plots" / e.path().filename()));
            CHECK(slurp(e.path()) == slurp(dir / "plots" / e.path().filename()));
        }
        for (const auto& gp : scripts) {
            const std::string stem = gp.substr(0, gp.size() - 3);
            CHECK(fs::exists(dir / "plots" / (stem + ".png")));
            CHECK(fs::exists(dir / "plots" / (stem + ".svg")));
        }
        fs::remove_all(out);
    }
}

TEST_CASE("replot: a folder without results.json is one clear line", "[experiments][plots]") {
    const fs::path d = scratch("stencil_tests_replot_empty");
    REQUIRE_THROWS_WITH(replot_sweep(d.string()), Catch::Contains("no results.json"));
    write_text_file((d / "results.json").string(), "{ not json");
    REQUIRE_THROWS_WITH(replot_sweep(d.string()), Catch::Contains("not valid JSON"));
    write_text_file((d / "results.json").string(), "{\"x\": 1}");
    REQUIRE_THROWS_WITH(replot_sweep(d.string()), Catch::Contains("not a sweep's results.json"));
    fs::remove_all(d);
}

TEST_CASE("plots tell one OP/B story each, with the limits of the kernels they show", "[experiments][plots]") {
    const fs::path dir = scratch("stencil_tests_plots_stories");
    const auto scripts = write_plot_scripts(committed_results(kCommitted[0]), dir.string(), "pngcairo");
    for (const char* gp : {"opb_vs_T.gp", "opb_tiled_vs_T.gp", "opb_loaded_vs_T.gp", "opb_beyond_vs_T.gp"})
        REQUIRE(std::find(scripts.begin(), scripts.end(), gp) != scripts.end());
    // The textbook's four: their model columns only (naive 2, tiled 3, coarsened 4, register-tiled 5).
    const std::string four = slurp(dir / "opb_vs_T.gp");
    CHECK(four.find("using 1:5 with lines") != std::string::npos);
    CHECK(four.find("using 1:6 with lines") == std::string::npos);
    CHECK(four.find("conv27") == std::string::npos);
    // Tiled against T: its axes, the single-step limit it approaches, its T <= 10 bound.
    const std::string tiled = slurp(dir / "opb_tiled_vs_T.gp");
    CHECK(tiled.find("set xrange [2:11]") != std::string::npos);
    CHECK(tiled.find("tiled: T <= 10 (T^3 <= 1024 threads)") != std::string::npos);
    CHECK(tiled.find("single-step limit") != std::string::npos);
    CHECK(tiled.find("coarsened (model)") == std::string::npos);
    // Streaming and temporal on their own axis, each K's limit K (12r+1) / (2 x 4).
    const std::string beyond = slurp(dir / "opb_beyond_vs_T.gp");
    CHECK(beyond.find("set ylabel 'FLOP per byte moved'") != std::string::npos);
    for (int K = 2; K <= 4; ++K)
        CHECK(beyond.find(fmt::format("K = {} limit {:.3g}", K, K * 13.0 / 8)) != std::string::npos);
    CHECK(beyond.find("one step a pass") != std::string::npos);
    CHECK(beyond.find("single-step limit") == std::string::npos);
    // Every curve of the data stays under its own limit.
    std::istringstream data(slurp(dir / "opb_beyond.dat"));
    std::string line;
    std::getline(data, line);  // the header names the columns: streaming_K1, temporal_K1..K4
    int checked = 0;
    while (std::getline(data, line)) {
        std::istringstream row(line);
        double T = 0;
        row >> T;
        const double limits[] = {13.0 / 8, 13.0 / 8, 2 * 13.0 / 8, 3 * 13.0 / 8, 4 * 13.0 / 8};
        for (double lim : limits) {
            std::string v;
            row >> v;
            if (v == "NaN") continue;
            CHECK(std::stod(v) <= lim);
            ++checked;
        }
    }
    CHECK(checked > 40);
    fs::remove_all(dir);
}
