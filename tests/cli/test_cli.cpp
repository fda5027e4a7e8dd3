// The `stencil-lab` binary's argument errors and its no-GPU answers, run as a subprocess: every
// mistake a student can make on the command line gives a non-zero exit and one line saying what
// is wrong. These need no GPU (CI has none); where one is present the no-GPU cases are skipped.
#include <catch2/catch.hpp>

#include "run_cli.h"
#include <nlohmann/json.hpp>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

using namespace cli_test;
namespace fs = std::filesystem;


TEST_CASE("run: argument errors give one line and exit 2", "[cli]") {
    struct Case {
        const char* args;
        const char* message;  // a part of the one line on stderr
    };
    // --backend cpu: the same errors must come before any kernel runs, on either backend.
    const Case c = GENERATE(
        Case{"run --kernel fancy", "unknown kernel 'fancy' (choose naive, tiled, coarsened, register-tiled, streaming, conv27, temporal)"},
        Case{"run --kernel tiled --tile 11", "needs 1331 threads per block"},
        Case{"run --kernel tiled --tile 2", "leaves no output cells"},
        Case{"run --kernel coarsened --tile 33", "needs 1089 threads per block"},
        Case{"run --kernel tiled --tile 11 --backend cpu", "needs 1331 threads per block"},
        Case{"run --kernel naive --radius 9", "--radius must be between 1 and 4 (got '9')"},
        Case{"run --kernel naive --radius 0", "--radius must be between 1 and 4 (got '0')"},
        Case{"run --kernel naive --size 2", "is too small for radius 1"},
        Case{"run --kernel naive --nx 40 --ny 40 --nz 4 --radius 2", "is too small for radius 2"},
        Case{"run --kernel naive --precision f16", "unknown precision 'f16'"},
        Case{"run --kernel tiled --tile 7 --radius 1 --precision f64 --size 12 --reps 0", "--reps must be between 1 and 10000 (got '0')"});
    CAPTURE(c.args);
    const Result r = run(c.args);
    CAPTURE(r.code, r.err, r.out);
    REQUIRE((r.code == 2 && r.err_lines() == 1 && contains(r.err, c.message) && r.out.empty()));
}

TEST_CASE("run: option conflicts are refused by the parser", "[cli]") {
    const char* args = GENERATE("run --kernel naive --size 32 --nx 16", "run --kernel naive --backend fpga",
                                "run", "run --kernel naive --size many");
    CAPTURE(args);
    const Result r = run(args);
    CAPTURE(r.code, r.err);
    // One line naming the rule (with a pointer to --help), exit 2 like every usage error.
    REQUIRE((r.code == 2 && r.err_lines() == 1 && r.first_err_line().rfind("stencil-lab: ", 0) == 0 && r.out.empty()));
}

TEST_CASE("run: the messages of the parser say what is wrong", "[cli]") {
    CHECK(contains(run("run --kernel naive --size 32 --nx 16").first_err_line(), "cannot be used together"));
    CHECK(contains(run("run --kernel naive --backend fpga").first_err_line(), "backend"));
    CHECK(contains(run("run").first_err_line(), "--kernel"));
}

TEST_CASE("run --backend cuda without a GPU says why in one line", "[cli]") {
    if (has_gpu()) {
        WARN("a GPU is usable here: the no-GPU case does not apply");
        return;
    }
    const Result r = run("run --kernel naive --backend cuda");
    CAPTURE(r.code, r.err);
    REQUIRE((r.code != 0 && r.err_lines() == 1 && contains(r.err, "--backend cuda: ") &&
             (contains(r.err, "driver") || contains(r.err, "GPU"))));
}

TEST_CASE("info succeeds with or without a GPU", "[cli]") {
    const Result r = run("info --copy-mib 16");
    CAPTURE(r.code, r.out, r.err);
    REQUIRE(r.code == 0);
    if (has_gpu()) {
        CHECK(contains(r.out, "compute capability"));
        CHECK(contains(r.out, "copy bandwidth"));
    } else {
        CHECK(contains(r.out, "GPU: none usable: "));
        CHECK(contains(r.out, "backends: cuda no"));
    }
    CHECK(contains(r.out, "cpu yes"));

    const Result j = run("info --json --copy-mib 16");
    REQUIRE(j.code == 0);
    const auto doc = nlohmann::json::parse(j.out);
    CHECK(doc["cpu"]["available"].get<bool>());
    CHECK(doc["cuda"]["available"].get<bool>() == has_gpu());
    if (!has_gpu()) CHECK(!doc["cuda"]["reason"].get<std::string>().empty());
}

TEST_CASE("run --backend cpu checks and times a kernel", "[cli]") {
    const Result r = run("run --kernel tiled --tile 6 --size 20 --backend cpu");
    CAPTURE(r.code, r.out, r.err);
    REQUIRE(r.code == 0);
    CHECK(contains(r.out, "check: ok"));
    CHECK(contains(r.out, "GB/s"));
    CHECK(r.err.empty());
}

TEST_CASE("run --json prints one object with the fields the scripts read", "[cli]") {
    const auto [kernel, tile] = GENERATE(table<const char*, int>(
        {{"naive", 4}, {"tiled", 8}, {"coarsened", 12}, {"register-tiled", 12}}));
    CAPTURE(kernel, tile);
    const Result r = run(std::string("run --kernel ") + kernel + " --tile " + std::to_string(tile) +
                         " --nx 23 --ny 17 --nz 11 --radius 2 --precision f64 --backend cpu --reps 2 --json");
    CAPTURE(r.code, r.out, r.err);
    REQUIRE(r.code == 0);
    REQUIRE(std::count(r.out.begin(), r.out.end(), '\n') == 1);
    const auto j = nlohmann::json::parse(r.out);
    for (const char* key : {"kernel", "tile", "radius", "precision", "nx", "ny", "nz", "backend", "ok",
                            "max_rel_err", "ms_min", "ms_median", "ms_max", "gbps", "gcells", "copy_gbps",
                            "copy_ratio", "block", "grid", "registers", "smem_bytes", "occupancy", "device"})
        CHECK(j.contains(key));
    CHECK(j["ok"].get<bool>());
    CHECK(j["kernel"] == kernel);
    CHECK(j["backend"] == "cpu");
    CHECK(j["nx"] == 23);
    CHECK(j["ms_median"].get<double>() > 0);
}
