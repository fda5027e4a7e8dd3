// `stencil-lab run|model --problem cardiac2d` as a user meets it (the built binary, as a subprocess):
// bad input is one line and exit 2 before any work; a good run checks and says so, as text and JSON.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "tests/cli/run_cli.h"

using namespace cli_test;

namespace {
void require_usage_error(const std::string& args, const std::string& says) {
    CAPTURE(args);
    const Result r = run(args);
    CAPTURE(r.code, r.err, r.out);
    REQUIRE(r.code == 2);
    REQUIRE(r.err_lines() == 1);
    REQUIRE(r.first_err_line().rfind("stencil-lab: ", 0) == 0);
    REQUIRE(contains(r.first_err_line(), says));
    REQUIRE(r.out.empty());
}
}  // namespace

TEST_CASE("cardiac2d cli: an unknown kernel names the problem's kernels", "[cli][contract]") {
    require_usage_error("run --problem cardiac2d --kernel tiled --backend cpu",
                        "unknown kernel 'tiled' for --problem cardiac2d (choose naive, fused, shared, shared-all, "
                        "sliding-rows, shuffle)");
}

TEST_CASE("cardiac2d cli: a mesh too small or too large is refused with the range", "[cli][contract]") {
    require_usage_error("run --problem cardiac2d --kernel fused --size 7 --backend cpu", "between 8 and 16384");
    require_usage_error("run --problem cardiac2d --kernel fused --size 16385 --backend cpu", "between 8 and 16384");
}

TEST_CASE("cardiac2d cli: steps out of range say the cap", "[cli][contract]") {
    require_usage_error("run --problem cardiac2d --kernel fused --steps 0 --backend cpu", "between 1 and 100000");
    require_usage_error("run --problem cardiac2d --kernel fused --steps 100001 --backend cpu", "between 1 and 100000");
}

TEST_CASE("cardiac2d cli: a model tile out of range is refused with the range", "[cli][contract]") {
    require_usage_error("model --problem cardiac2d --tile 40", "between 2 and 32");
}

TEST_CASE("cardiac2d cli: a run on the CPU checks the kernel against the reference", "[cli]") {
    const Result r = run("run --problem cardiac2d --kernel sliding-rows --size 24 --steps 8 --backend cpu");
    CAPTURE(r.code, r.out, r.err);
    REQUIRE(r.code == 0);
    REQUIRE(contains(r.out, "one step from step 20: all cells within bound"));
    REQUIRE(contains(r.out, "8 steps: max |E - E_ref|"));
    const Result j = run("run --problem cardiac2d --kernel shuffle --size 24 --steps 8 --precision f64 --backend cpu --json");
    CAPTURE(j.out, j.err);
    REQUIRE(j.code == 0);
    const auto js = nlohmann::json::parse(j.out);
    REQUIRE(js["ok"] == true);
    REQUIRE(js["backend"] == "cpu");
    REQUIRE(js["check"]["one_step"]["ok"] == true);
    REQUIRE(js["timing"].is_null());
    REQUIRE(js["statistics"]["l2_E"].get<double>() ==
            Approx(js["statistics"]["reference"]["l2_E"].get<double>()).epsilon(1e-12));
}

TEST_CASE("cardiac2d cli: the model prints both ghost-cell assignments", "[cli]") {
    const Result r = run("model --problem cardiac2d --json");
    CAPTURE(r.out, r.err);
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    REQUIRE(j["tile"] == 16);
    REQUIRE(j["interior_threads"]["edge_threads"] == 60);
    REQUIRE(j["interior_threads"]["ghost_loads"] == 64);
    REQUIRE(j["thread_per_cell"]["idle_threads"] == 68);
    const Result t = run("model --problem cardiac2d");
    REQUIRE(contains(t.out, "why they differ"));
}

TEST_CASE("cardiac2d cli: versions lists the problem's kernels", "[cli]") {
    const Result r = run("versions --problem cardiac2d --json");
    CAPTURE(r.out, r.err);
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    REQUIRE(j["versions"].size() == 6);
    REQUIRE(j["versions"][2]["kernel"] == "shared");
    REQUIRE(j["versions"][2]["problem"] == "cardiac2d");
}
