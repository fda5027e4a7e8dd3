// The scaling sweep's table (distributed/scaling_report.h): rank counts, efficiencies against the
// first row in both modes (numbers chosen by hand), and the figure's data.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "distributed/scaling_report.h"

using namespace stencil::distributed;

namespace {
nlohmann::json run(int ranks, double seconds, bool ok = true) {
    return {{"ok", ok},
            {"problem", "cardiac2d"},
            {"kernel", "fused"},
            {"precision", "f64"},
            {"steps", 3},
            {"backend", "cpu"},
            {"halo_exchange", "mpi"},
            {"ranks", ranks},
            {"decomposition", "1x1"},
            {"grid", {16, 16}},
            {"max_abs_diff_vs_single_domain", 0.0},
            {"seconds_per_step", seconds},
            {"exchange_seconds_per_step", seconds / 10},
            {"halo_bytes_per_step", {{"total", 128 * (ranks - 1)}, {"model_total", 128 * (ranks - 1)}}}};
}
}  // namespace

TEST_CASE("scaling: rank counts are powers of two, then the world's size", "[distributed]") {
    REQUIRE(scaling_rank_counts(1) == std::vector<int>{1});
    REQUIRE(scaling_rank_counts(4) == std::vector<int>{1, 2, 4});
    REQUIRE(scaling_rank_counts(6) == std::vector<int>{1, 2, 4, 6});
    REQUIRE(parse_scaling_mode("weak") == ScalingMode::weak);
    REQUIRE_FALSE(parse_scaling_mode("Strong"));
}

TEST_CASE("scaling: efficiency strong r0 t0 / (N tN), weak t0 / tN", "[distributed]") {
    ScalingSweep s;
    s.rows = {scaling_row(run(1, 8.0)), scaling_row(run(2, 5.0)), scaling_row(run(4, 4.0))};
    s.set_efficiencies();
    REQUIRE(s.rows[0].efficiency == Approx(1.0));
    REQUIRE(s.rows[1].efficiency == Approx(0.8));
    REQUIRE(s.rows[2].efficiency == Approx(0.5));
    s.mode = ScalingMode::weak;
    s.set_efficiencies();
    REQUIRE(s.rows[1].efficiency == Approx(1.6));
    REQUIRE(s.rows[2].efficiency == Approx(2.0));
    const nlohmann::json j = s.to_json();
    REQUIRE(j["ok"] == true);
    REQUIRE(j["rows"].size() == 3);
    REQUIRE(j["rows"][2]["ranks"] == 4);
    REQUIRE(j["rows"][2]["halo_bytes_per_step"] == 384);
    // One data line per row under the header.
    const std::string data = s.plot_data();
    REQUIRE(std::count(data.begin(), data.end(), '\n') == 4);
    REQUIRE(s.plot_script("pngcairo").find("'scaling.svg'") != std::string::npos);
}

TEST_CASE("scaling: a row that differs from its single domain fails the sweep", "[distributed]") {
    ScalingSweep s;
    s.rows = {scaling_row(run(1, 1.0)), scaling_row(run(2, 1.0, false))};
    REQUIRE_FALSE(s.ok());
    REQUIRE_FALSE(ScalingSweep{}.ok());
}
