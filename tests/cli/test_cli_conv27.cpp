// `stencil-lab model` and `run` for conv27: the model gives the useful (star) and the executed
// (dense cube) FLOPs and OP/B side by side, as numbers in --json; `run` checks it on the CPU backend.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "run_cli.h"

using namespace cli_test;

TEST_CASE("model --kernel conv27 --json carries useful and executed FLOPs and OP/B", "[cli]") {
    const Result r = run("model --kernel conv27 --size 64 --json");
    CAPTURE(r.code, r.err);
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    for (const char* key : {"flops_per_point", "executed_flops_per_point", "executed_points", "opb", "executed_opb",
                            "dram_opb", "executed_dram_opb"}) {
        CAPTURE(key);
        REQUIRE(j[key].is_number());
    }
    REQUIRE(j["flops_per_point"] == 13);
    REQUIRE(j["executed_points"] == 27);
    REQUIRE(j["executed_flops_per_point"] == 53);
    // f32, 27 loads of 4 B per output; DRAM: each cell read once and written once.
    REQUIRE(j["opb"].get<double>() == Approx(13.0 / 108));
    REQUIRE(j["executed_opb"].get<double>() == Approx(53.0 / 108));
    REQUIRE(j["dram_opb"].get<double>() == Approx(13.0 / 8));
    REQUIRE(j["executed_dram_opb"].get<double>() == Approx(53.0 / 8));
    // The whole 64^3 grid: 62^3 interior outputs.
    REQUIRE(j["grid"]["flops"].get<long long>() == 62LL * 62 * 62 * 13);
    REQUIRE(j["grid"]["executed_flops"].get<long long>() == 62LL * 62 * 62 * 53);
    REQUIRE(j["grid"]["load_bytes"].get<long long>() == 62LL * 62 * 62 * 27 * 4);
}

TEST_CASE("model --kernel conv27 prints both FLOP counts and both OP/B", "[cli]") {
    const Result r = run("model --kernel conv27 --radius 2 --precision f64 --size 32");
    CAPTURE(r.code, r.err, r.out);
    REQUIRE(r.code == 0);
    // r = 2: 13 points, 25 useful FLOP; 125 points, 249 executed; 8-byte values.
    REQUIRE(contains(r.out, "useful (the star) 12r + 1 = 25"));
    REQUIRE(contains(r.out, "2 (2r+1)^3 - 1 = 249"));
    REQUIRE(contains(r.out, "useful 25 / 16 B = 1.562, executed 249 / 16 B = 15.56"));
}

TEST_CASE("run --kernel conv27 checks on the CPU backend", "[cli]") {
    const Result r = run("run --kernel conv27 --nx 19 --ny 13 --nz 11 --radius 2 --backend cpu --reps 1 --json");
    CAPTURE(r.code, r.out, r.err);
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    REQUIRE(j["ok"].get<bool>());
    REQUIRE(j["kernel"] == "conv27");
    // The rates: executed FLOPs are the cube's, 249 for the star's 25 at r = 2.
    REQUIRE(j["executed_gflops"].get<double>() == Approx(j["gflops"].get<double>() * 249 / 25));
}
