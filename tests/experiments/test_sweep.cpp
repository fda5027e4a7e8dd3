// The sweep on the CPU backend at a tiny size: well-formed CSV and JSON, model and measured
// figures side by side.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "experiments/sweep.h"
#include "experiments/sweep_output.h"
#include "experiments/sweep_plots.h"
#include "core/backend.h"
#include "core/error.h"

#include <fmt/format.h>
#include <algorithm>

using namespace stencil;
using namespace stencil::analysis;
using namespace stencil::experiments;
namespace fs = std::filesystem;

namespace {
// Fields of one CSV line, with quotes.
std::vector<std::string> csv_fields(const std::string& line) {
    std::vector<std::string> f(1);
    bool q = false;
    for (size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (q) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') f.back() += '"', ++i;
            else if (c == '"') q = false;
            else f.back() += c;
        } else if (c == '"') q = true;
        else if (c == ',') f.emplace_back();
        else f.back() += c;
    }
    return f;
}
}  // namespace

// Long because one CPU sweep (the slow part) feeds every check of the files it writes: CSV, JSON
// and plots.
TEST_CASE("sweep on the CPU backend writes well-formed CSV and JSON", "[experiments]") {
    auto backend = make_cpu_backend();
    REQUIRE(backend);
    SweepOptions o;
    o.kernels = {KernelId::naive, KernelId::tiled, KernelId::register_tiled};
    o.tiles = {2, 4};  // tiled/register-tiled T = 2 is skipped (T <= 2r), with the reason
    o.size = 11;
    o.reps = 1;
    o.warmup = 0;
    int calls = 0;
    o.progress = [&](int, int, const std::string&) { ++calls; };
    const fs::path dir = fs::temp_directory_path() / "stencil_tests_analysis_sweep";
    fs::remove_all(dir);
    SweepResult s = run_sweep(*backend, o);
    write_sweep_outputs(s, dir.string(), true);

    REQUIRE(s.rows.size() == 6);
    REQUIRE(calls == 7);
    REQUIRE(s.backend == "cpu");

    std::ifstream csv(dir / "results.csv");
    REQUIRE(csv);
    std::string line;
    std::getline(csv, line);
    const size_t columns = csv_fields(line).size();
    REQUIRE(columns == csv_fields(csv_header()).size());
    int rows = 0, ok = 0, skipped = 0;
    while (std::getline(csv, line)) {
        const auto f = csv_fields(line);
        CAPTURE(line);
        REQUIRE(f.size() == columns);
        ++rows;
        ok += f[7] == "ok";
        skipped += f[7] == "skipped";
    }
    REQUIRE(rows == 6);
    REQUIRE(ok == 4);
    REQUIRE(skipped == 2);

    std::ifstream js(dir / "results.json");
    const auto j = nlohmann::json::parse(js);
    REQUIRE(j["results"].size() == 6);
    for (const auto& r : j["results"]) {
        CAPTURE(r.dump());
        if (r["status"] == "skipped") {
            REQUIRE(r["skipped"].get<std::string>().find("2r") != std::string::npos);
            continue;
        }
        REQUIRE(r["status"] == "ok");
        REQUIRE(r["check"]["ok"] == true);
        REQUIRE(r["model"]["opb"].get<double>() > 0);
        const auto& lv = r["measured"]["levels"];
        REQUIRE(lv.size() == 3);
        REQUIRE(lv[0]["source"] == "CPU trace");
        // the trace's bytes equal the model's exact count
        REQUIRE(lv[0]["read_bytes"].get<double>() == r["model"]["grid_load_bytes"].get<double>());
        REQUIRE(lv[2]["read_bytes"].is_null());
        REQUIRE_FALSE(lv[2]["note"].get<std::string>().empty());
        REQUIRE(r["time_ms"]["median"].get<double>() > 0);
        REQUIRE(lv[0]["measured"] == true);
        REQUIRE(lv[0]["model_read_bytes"].get<double>() == r["model"]["grid_load_bytes"].get<double>());
        // the run's own report: unknown is null on the CPU backend (never -1), the seed a string
        REQUIRE(r.contains("run"));
        REQUIRE(r["run"]["registers"].is_null());
        REQUIRE(r["run"]["occupancy"].is_null());
        REQUIRE(r["run"]["device_info"]["compute_capability"].is_null());
        REQUIRE(r["run"]["seed"].is_string());
    }
    REQUIRE_FALSE(j["fma_note"].get<std::string>().empty());
    // Plots: the scripts and data always; images when gnuplot ran. A CPU sweep draws what the
    // engine counted, and no time, bandwidth or roofline figure (its times are an emulator's).
    for (const char* gp : {"opb_vs_T.gp", "halo_vs_T.gp", "traffic_vs_T.gp"}) REQUIRE(fs::exists(dir / "plots" / gp));
    for (const char* gp : {"time_vs_T.gp", "bandwidth_vs_T.gp", "roofline.gp"}) REQUIRE_FALSE(fs::exists(dir / "plots" / gp));
    std::string why;
    if (gnuplot_png_terminal(&why)) {
        INFO(s.plots_note);
        REQUIRE(s.plots_note.find("failed") == std::string::npos);
        REQUIRE(fs::exists(dir / "plots" / "opb_vs_T.png"));
        REQUIRE(fs::exists(dir / "plots" / "traffic_vs_T.svg"));
    } else {
        REQUIRE(s.plots_note == why);
    }
    fs::remove_all(dir);
}

TEST_CASE("sweep rejects bad options with one line", "[experiments]") {
    auto backend = make_cpu_backend();
    SweepOptions o;
    o.size = 2;
    REQUIRE_THROWS_WITH(run_sweep(*backend, o), Catch::Contains("too small"));
}

TEST_CASE("sweep: nothing runnable or an unwritable folder fails before anything runs", "[experiments]") {
    auto backend = make_cpu_backend();
    int calls = 0;
    SweepOptions o;
    o.kernels = {KernelId::tiled};
    o.tiles = {11};
    o.size = 12;
    o.progress = [&](int, int, const std::string&) { ++calls; };
    REQUIRE_THROWS_WITH(run_sweep(*backend, o), Catch::Contains("nothing can run"));
    o.tiles = {4};
    for (const char* dir : {"/proc/stencil-lab-x", "/etc/passwd"}) {
        CAPTURE(dir);
        o.out_dir = dir;
        REQUIRE_THROWS_AS(run_sweep(*backend, o), UserError);
    }
    REQUIRE(calls == 0);
}

TEST_CASE("sweep CSV: counts are exact integers, raw sectors and requests beside their ratio", "[experiments]") {
    auto backend = make_cpu_backend();
    SweepOptions o;
    o.kernels = {KernelId::naive, KernelId::coarsened};
    o.tiles = {8};
    o.size = 13;
    o.reps = 1;
    o.warmup = 0;
    SweepResult s = run_sweep(*backend, o);
    const auto head = csv_fields(csv_header());
    auto col = [&](const char* name) {
        const auto it = std::find(head.begin(), head.end(), name);
        REQUIRE(it != head.end());
        return size_t(it - head.begin());
    };
    for (const auto& row : s.rows) {
        const auto f = csv_fields(csv_line(row));
        REQUIRE(f.size() == head.size());
        for (const char* c : {"grid_load_bytes", "grid_store_bytes", "grid_flops", "requested_read_bytes",
                              "requested_write_bytes", "model_requests", "model_sectors", "flops"}) {
            CAPTURE(c, f[col(c)]);
            REQUIRE_FALSE(f[col(c)].empty());
            REQUIRE(f[col(c)].find_first_not_of("0123456789") == std::string::npos);
        }
        // the exact whole-grid count, to the byte, from the model computed here
        const auto exact = exact_grid_traffic(row.request.kernel, 8, 1, Precision::f32, {13, 13, 13});
        REQUIRE(std::stoll(f[col("grid_load_bytes")]) == exact.load_bytes);
        const auto wp = warp_pattern(row.request.kernel, 8, 1, Precision::f32, {13, 13, 13});
        REQUIRE(std::stoll(f[col("model_requests")]) == wp.requests);
        REQUIRE(std::stoll(f[col("model_sectors")]) == wp.sectors);
        // the JSON keeps the raw counter fields (null on the CPU backend)
        const auto j = to_json(row);
        REQUIRE(j["measured"].contains("l1_global_load_sectors"));
        REQUIRE(j["measured"].contains("l1_global_load_requests"));
    }
}
