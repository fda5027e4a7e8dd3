// `stencil-lab model --decompose`: the decomposition model as the CLI prints it, the bytes pinned
// by hand for the simplest split (two 8x16x16 halves of a 16^3 fp32 grid, one 16x16 face each).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/cli/run_cli.h"

TEST_CASE("model --decompose: halo bytes and the predicted exchange, as JSON", "[distributed]") {
    const auto r = cli_test::run("model --decompose 2x1x1 --size 16 --link-gbps 1 --latency-us 10 --json");
    CAPTURE(r.out, r.err);
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    REQUIRE(j["ranks"] == 2);
    REQUIRE(j["halo_bytes_per_step"]["total"] == 2048);
    REQUIRE(j["per_rank"][1]["halo_bytes"] == 1024);
    REQUIRE(j["per_rank"][1]["owned"] == nlohmann::json::array({8, 16, 16}));
    REQUIRE(j["predicted_exchange_seconds"].get<double>() == Approx(1024e-9 + 10e-6));
}

TEST_CASE("model --decompose: bad input is one line and exit 2", "[distributed]") {
    const char* args = GENERATE("--decompose 2x1", "--decompose 2x1x1 --latency-us 5",
                                "--decompose 32x1x1 --size 16", "--decompose 2x1x1 --kernel tiled",
                                "--decompose 2x1x1 --link-gbps 0");
    CAPTURE(args);
    const auto r = cli_test::run(std::string("model ") + args);
    CAPTURE(r.err);
    REQUIRE(r.code == 2);
    REQUIRE(r.err_lines() == 1);
    REQUIRE(r.first_err_line().rfind("stencil-lab: ", 0) == 0);
}

TEST_CASE("model --problem cardiac2d --decompose: one ghost row or column of E per neighbour", "[distributed]") {
    // 2x2 on n = 64 in fp64: each rank owns 32x32 and sends a column and a row of 32 values.
    const auto r = cli_test::run("model --problem cardiac2d --decompose 2x2 --size 64 --precision f64 --link-gbps 1 "
                                 "--json");
    CAPTURE(r.out, r.err);
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    REQUIRE(j["problem"] == "cardiac2d");
    REQUIRE(j["decomposition"] == "2x2");
    REQUIRE(j["per_rank"][3]["owned"] == nlohmann::json::array({32, 32}));
    REQUIRE(j["per_rank"][3]["halo_bytes"] == 512);
    REQUIRE(j["halo_bytes_per_step"]["total"] == 2048);
    REQUIRE(j["predicted_exchange_seconds"].get<double>() == Approx(512e-9));
    const char* bad = GENERATE("--decompose 2x2x2", "--decompose 2x1 --radius 2", "--decompose 9x1 --size 8");
    CAPTURE(bad);
    const auto b = cli_test::run(std::string("model --problem cardiac2d ") + bad);
    REQUIRE(b.code == 2);
    REQUIRE(b.err_lines() == 1);
}
