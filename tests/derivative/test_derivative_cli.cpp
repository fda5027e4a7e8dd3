// `stencil-lab run --problem derivative` as a user meets it: bad input is one line and exit 2
// before any work, a run checks and reports the post's figures, --convergence measures the order,
// and `versions` / `model` list the derivative's kernels and tiles.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/cli/run_cli.h"

using cli_test::contains;
using cli_test::run;

namespace {
void require_usage_error(const std::string& args, const std::string& says) {
    const cli_test::Result r = run(args);
    CAPTURE(args, r.out, r.err);
    CHECK(r.code == 2);
    CHECK(r.err_lines() == 1);
    CHECK(r.out.empty());
    CHECK(contains(r.err, says));
}
}  // namespace

TEST_CASE("run --problem derivative: bad input is one line and exit 2", "[derivative][cli]") {
    const std::string run_d = "run --problem derivative --backend cpu ";
    require_usage_error(run_d + "--kernel nope", "unknown kernel 'nope' for --problem derivative (choose x-tile16x16");
    require_usage_error(run_d + "--kernel tiled", "unknown kernel 'tiled' for --problem derivative");
    require_usage_error(run_d + "--kernel x-spencils --size 100", "x extent 100 is not built");
    require_usage_error(run_d + "--kernel y-lpencils --size 16", "nx = 16 is not a multiple of the tile's 32 pencils");
    require_usage_error(run_d + "--kernel z-lpencils --size 256 --precision f64", "67584 B of shared memory");
    require_usage_error(run_d + "--kernel x-spencils --precision f16", "unknown precision 'f16'");
    require_usage_error(run_d + "--kernel x-spencils --tile 8", "--tile does not apply to --problem derivative");
    require_usage_error(run_d + "--kernel x-spencils --radius 2", "--radius does not apply to --problem derivative");
    require_usage_error(run_d + "--kernel x-spencils --convergence --precision f32", "--convergence measures fp64");
    require_usage_error(run_d + "--kernel x-spencils --convergence --size 64", "drop --size");
    require_usage_error("run --problem derivative --kernel x-spencils --backend tpu", "--backend");
}

TEST_CASE("run --problem derivative checks and reports the post's figures", "[derivative][cli]") {
    const cli_test::Result r = run("run --problem derivative --kernel y-lpencils --backend cpu --size 32 --json");
    CAPTURE(r.err);
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["ok"] == true);
    CHECK(j["check"]["failed_cells"] == 0);
    CHECK(j["tile"] == "32x32");
    CHECK(j["block"] == nlohmann::json::array({32, 4, 1}));
    CHECK(j["bytes"].get<double>() == 2.0 * 32 * 32 * 32 * 4);
    CHECK(j["effective_gbps"].get<double>() > 0);
    CHECK(j["post_k20c_gbps"].get<double>() == Approx(80.93).margin(0.01));
    CHECK(j["copy_gbps"].is_null());  // the copy ratio is the GPU's
    // the smooth field's error: 8th order at N = 32, (2 pi)^9 h^8 / 630 ~ 2e-8, above fp32 rounding
    CHECK(j["error_vs_exact"]["max"].get<double>() < 1e-3);
    const cli_test::Result text = run("run --problem derivative --kernel x-tile16x16 --backend cpu --size 32 --no-time");
    CHECK(text.code == 0);
    CHECK(contains(text.out, "all 32768 cells within the rounding bound"));
}

TEST_CASE("run --problem derivative --convergence measures order 8", "[derivative][cli][convergence]") {
    const cli_test::Result r = run("run --problem derivative --kernel z-spencils --backend cpu --precision f64 "
                                   "--convergence --json");
    CAPTURE(r.err);
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["convergence"].size() == 4);
    CHECK(j["order"].get<double>() > 7.5);
}

TEST_CASE("versions and model list the derivative's kernels and tiles", "[derivative][cli]") {
    const auto v = nlohmann::json::parse(run("versions --problem derivative --json").out);
    REQUIRE(v["versions"].size() == 7);
    CHECK(v["versions"][0]["kernel"] == "x-tile16x16");
    CHECK(v["versions"][1]["kernel"] == "x-spencils");
    CHECK(v["versions"][1]["threads_per_block"] == "64x4");
    CHECK(contains(v["versions"][1]["tiles"].dump(), "\"64x4\""));
    const auto m = nlohmann::json::parse(run("model --problem derivative --json").out);
    std::map<std::string, double> share;
    for (const auto& t : m["tiles"]) share[t["tile"]] = t["reload_share"];
    CHECK(share.at("16x16") == 0.5);
    CHECK(share.at("64x4") == 0);
}
