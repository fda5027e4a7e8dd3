// The sweep on the CPU backend at a tiny size: well-formed CSV and JSON, model and measured
// figures side by side.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "analysis/sweep.h"
#include "core/backend.h"

using namespace stencil;
using namespace stencil::analysis;
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

TEST_CASE("sweep on the CPU backend writes well-formed CSV and JSON", "[analysis]") {
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
    }
    REQUIRE_FALSE(j["fma_note"].get<std::string>().empty());
    // Plots: the scripts and data always; images when gnuplot ran.
    for (const char* gp : {"opb_vs_T.gp", "halo_vs_T.gp", "time_vs_T.gp", "bandwidth_vs_T.gp", "roofline.gp"})
        REQUIRE(fs::exists(dir / "plots" / gp));
    std::string why;
    if (gnuplot_png_terminal(&why)) {
        INFO(s.plots_note);
        REQUIRE(s.plots_note.find("failed") == std::string::npos);
        REQUIRE(fs::exists(dir / "plots" / "opb_vs_T.png"));
        REQUIRE(fs::exists(dir / "plots" / "roofline.svg"));
    } else {
        REQUIRE(s.plots_note == why);
    }
    fs::remove_all(dir);
}

TEST_CASE("sweep rejects bad options with one line", "[analysis]") {
    auto backend = make_cpu_backend();
    SweepOptions o;
    o.size = 2;
    REQUIRE_THROWS_WITH(run_sweep(*backend, o), Catch::Contains("too small"));
}
