// `run --block BXxBYxBZ`: naive on the textbook's 32x4x2 (and any shape CUDA allows) through the
// CLI; every other version, a malformed or oversized shape, --tile beside it and another problem
// are refused in one line with exit 2 before any kernel runs.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "run_cli.h"

using namespace cli_test;

TEST_CASE("run --block: refusals in one line, exit 2", "[cli]") {
    struct Case {
        const char* args;
        const char* message;
    };
    const Case c = GENERATE(
        Case{"run --kernel tiled --block 32x4x2 --backend cpu", "--block applies to naive only: tiled's block follows"},
        Case{"run --kernel streaming --block 16x16x1", "--block applies to naive only"},
        Case{"run --kernel naive --block 32x4", "--block '32x4': expected BXxBYxBZ"},
        Case{"run --kernel naive --block 32x0x2", "expected BXxBYxBZ"},
        Case{"run --kernel naive --block 32x32x2", "2048 threads"},
        Case{"run --kernel naive --block 1x1x65", "at most 1024 x 1024 x 64"},
        Case{"run --kernel naive --block 8x8x8 --tile 4", "--block and --tile both shape the block"},
        Case{"run --problem cardiac2d --kernel naive --block 32x4x2", "--block does not apply to --problem cardiac2d"});
    CAPTURE(c.args);
    const Result r = run(c.args);
    CAPTURE(r.code, r.err, r.out);
    REQUIRE((r.code == 2 && r.err_lines() == 1 && contains(r.err, c.message) && r.out.empty()));
}

TEST_CASE("run --block 32x4x2 on the CPU backend: checked, and the launch is that block", "[cli]") {
    const Result r = run("run --kernel naive --block 32x4x2 --radius 2 --backend cpu --nx 40 --ny 9 --nz 7 --no-time --json");
    CAPTURE(r.code, r.err, r.out);
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    REQUIRE((j["ok"] == true && j["block"] == nlohmann::json::array({32, 4, 2}) &&
             j["user_block"] == nlohmann::json::array({32, 4, 2}) && j["grid"] == nlohmann::json::array({2, 3, 4})));
    // Without --block the row's T^3 block, and no user_block (bench/peers.py names the row by it).
    const Result t = run("run --kernel naive --tile 4 --backend cpu --size 9 --no-time --json");
    REQUIRE(t.code == 0);
    const auto k = nlohmann::json::parse(t.out);
    REQUIRE((k["block"] == nlohmann::json::array({4, 4, 4}) && !k.contains("user_block")));
}
