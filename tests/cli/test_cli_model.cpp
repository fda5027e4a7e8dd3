// `stencil-lab model`: input errors (one line, rc 2), tiles that cannot run, speed at any valid
// size, and the curriculum tables (--bounds, --registers, --derivatives, --ghost).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <chrono>

#include "run_cli.h"

using namespace cli_test;

TEST_CASE("model: bad input is one line and exit 2", "[cli]") {
    struct Case {
        const char* args;
        const char* message;
    };
    const Case c = GENERATE(Case{"model --kernel tiled --tile 0", "--tile must be between 1 and 1024 (got '0')"},
                            Case{"model --kernel tiled --tile 11", "cannot run"},
                            Case{"model --kernel tiled --tile 1024", "cannot run"},
                            Case{"model --kernel tiled --tile 100000", "--tile must be between 1 and 1024"},
                            Case{"model --kernel naive --tile 1000 --size 3", "cannot run"},
                            Case{"model --kernel naive --size 2", "too small"},
                            Case{"model --kernel naive --size 2000", "too large"},
                            Case{"model --kernel naive --radius 7", "--radius must be between 1 and 4 (got '7')"},
                            Case{"model", "--kernel is required"});
    CAPTURE(c.args);
    const auto t0 = std::chrono::steady_clock::now();
    const Result r = run(c.args);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    CAPTURE(r.code, r.err, r.out);
    REQUIRE(r.code == 2);
    REQUIRE(r.err_lines() == 1);
    REQUIRE(contains(r.err, c.message));
    REQUIRE(r.out.empty());
    REQUIRE(s < 2.0);
}

TEST_CASE("model: --explain-invalid prints the model, marked", "[cli]") {
    const Result r = run("model --kernel tiled --tile 11 --explain-invalid --size 32");
    CAPTURE(r.err);
    REQUIRE(r.code == 0);
    REQUIRE(r.out.rfind("cannot run: ", 0) == 0);
    REQUIRE(contains(r.out, "1331"));
}

TEST_CASE("model: any valid size answers in well under a second", "[cli]") {
    for (const char* args : {"model --kernel naive --size 1000 --json", "model --kernel tiled --tile 10 --size 1200 --json",
                             "model --kernel register-tiled --tile 32 --radius 4 --precision f64 --size 999 --json"}) {
        CAPTURE(args);
        const auto t0 = std::chrono::steady_clock::now();
        const Result r = run(args);
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        REQUIRE(r.code == 0);
        REQUIRE(s < 1.5);
        const auto j = nlohmann::json::parse(r.out);
        REQUIRE(j["warp_pattern"]["requests"].get<long long>() > 0);
    }
}

TEST_CASE("model --bounds, --registers, --ghost, --derivatives print the seed figures", "[cli]") {
    const auto b = nlohmann::json::parse(run("model --bounds --json").out);
    REQUIRE(b.size() == 8);
    for (const auto& row : b) {
        const int k = row["size"], d = row["dims"];
        const int closed = row["shape"] == "star" ? 2 * d * k + 1 : (d == 2 ? k * k : k * k * k);
        REQUIRE(row["points"].get<int>() == closed);
        REQUIRE(row["opb"].get<double>() == Approx(closed / 2.0));
    }
    const auto g = nlohmann::json::parse(run("model --ghost 16 --json").out);
    REQUIRE(g["ghost_ring_cells"].get<long long>() == 16 * 4 - 4);
    REQUIRE(g["interior_cells"].get<long long>() == 14 * 14);
    const auto reg = nlohmann::json::parse(run("model --registers --json").out);
    REQUIRE(reg.size() == 3);
    REQUIRE(reg[0]["registers"].get<int>() == 2 * 1 + 1);
    REQUIRE(reg[1]["registers"].get<int>() == 2 * 2 + 1);
    REQUIRE(reg[2]["registers"].get<int>() == 3 * 9);
    const auto der = nlohmann::json::parse(run("model --derivatives --json").out);
    const long long seed[4][2] = {{4, 5}, {-1, 5}, {4, 105}, {-1, 280}};
    for (int i = 0; i < 4; ++i) {
        REQUIRE(der["eighth_order"]["weights"][i]["num"].get<long long>() == seed[i][0]);
        REQUIRE(der["eighth_order"]["weights"][i]["den"].get<long long>() == seed[i][1]);
    }
    for (const auto& o : der["eighth_order"]["order"]) REQUIRE(o.get<double>() == Approx(8.0).margin(0.1));
    for (const auto& o : der["central_difference"]["order"]) REQUIRE(o.get<double>() == Approx(2.0).margin(0.02));
    REQUIRE(run("model --ghost 2").code == 2);
}
