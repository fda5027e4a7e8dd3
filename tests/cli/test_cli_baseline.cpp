// `stencil-lab baseline` as a subprocess: where there is no GPU it exits non-zero with one line
// ("stencil-lab: no GPU: <why>"); its argument errors are one line on any machine (they are
// checked before the GPU is looked at); where a GPU is usable, a small run prints the JSON the
// lead's scripts read. No timing assertions.
#include <catch2/catch.hpp>

#include "run_cli.h"
#include <nlohmann/json.hpp>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

using namespace cli_test;


TEST_CASE("baseline without a GPU exits non-zero with one line", "[cli][baseline]") {
    if (has_gpu()) {
        WARN("a GPU is usable here: the no-GPU case does not apply");
        return;
    }
    const Result r = run("baseline --size 64 --reps 2");
    CAPTURE(r.code, r.out, r.err);
    REQUIRE((r.code == 2 && r.err_lines() == 1 && r.err.rfind("stencil-lab: no GPU: ", 0) == 0 && r.out.empty()));
}

TEST_CASE("baseline: argument errors give one line and exit 2", "[cli][baseline]") {
    const auto [args, says] = GENERATE(table<std::string, std::string>({
        {"baseline --size 2", "--size must be between 3 and 1625 (got '2')"},
        {"baseline --size 1626", "2^32"},
        {"baseline --reps 0", "--reps must be between 1 and 10000 (got '0')"},
        {"baseline --warmup -1", "--warmup must be between 0 and 1000 (got '-1')"},
    }));
    const Result r = run(args);
    CAPTURE(args, r.code, r.err);
    REQUIRE((r.code == 2 && r.err_lines() == 1 && contains(r.err, says)));
}

TEST_CASE("baseline on a GPU checks every configuration and prints one JSON object", "[cli][baseline]") {
    if (!has_gpu()) {
        WARN("no usable GPU here: the GPU case does not apply");
        return;
    }
    const Result r = run("baseline --size 48 --reps 2 --warmup 1 --json");
    CAPTURE(r.code, r.err);
    REQUIRE(r.code == 0);
    const auto doc = nlohmann::json::parse(r.out);
    CHECK(doc["all_checks_ok"].get<bool>());
    CHECK(doc["rows"].size() == 10);
    CHECK(doc["compared"].get<int>() == 9);
    CHECK(doc["copy_gbps"]["median"].get<double>() > 0);
}
