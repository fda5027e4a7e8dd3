// A saved check report read back (checker/report_read.h): every field check --json writes comes
// back as it was, so the report written again is the same document; what is not one submission's
// report is refused with the reason.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>

#include "checker/checker.h"
#include "checker/report_read.h"
#include "core/error.h"

using namespace stencil::checker;
using stencil::UserError;

namespace {

// A report with every optional part present: a race and a bad cell, the explain chain, a finding
// with its hint, a timing and a load count, a NaN where the JSON writes a string.
CheckResult full_result() {
    CheckResult r;
    r.verdict = Verdict::race;
    r.file = "exercises/tiled/stencil.cu";
    r.exercise = "tiled";
    r.tile = 8;
    r.backend = "cpu";
    r.seed = 18446744073709551557ull;  // above 2^63: kept as a string
    r.sizes = {3, 5, 17, 47};
    r.drawn_sizes = {47};
    r.smallest_failing_size = 5;
    r.seconds = 2.5;
    SourceRef store{"stencil.cu", 25, "st.shared.f32", "store", std::array<int, 3>{0, 0, 1}, std::array<int, 3>{2, 2, 2}};
    SourceRef load{"stencil.cu", 17, "ld.shared.f32", "load", std::nullopt, std::array<int, 3>{3, 2, 2}};
    r.findings.push_back({Verdict::race, "a race on tile[2][2][2]", {store, load}, {5, 17}, 2, "Which threads read it?", "barrier_missing"});
    r.findings.push_back({Verdict::wrong_result, "a bad cell", {}, {47}, 0, "", ""});
    Evidence& e = r.evidence;
    e.message = "N=5 in_order schedule: a race";
    e.n = 5;
    e.tile = 8;
    e.run = "in_order schedule";
    e.bad_cells = 12;
    e.first_bad = BadCellEvidence{1, 2, 3, 0.25, std::numeric_limits<double>::quiet_NaN(), 1e-5,
                                  CellClass::next_to_boundary, "NaN"};
    e.slice_map = "z = 3\n.x.\n...\n";
    e.race = RaceEvidence{{0, 0, 1}, 1, {2, 2, 2}, {3, 2, 2}, "race message"};
    e.line = SourceLine{"stencil.cu", 25, "st.shared.f32"};
    e.sources = {store};
    e.explain.push_back({"out[40] = 0.25 was wrong", SourceRef{"stencil.cu", 30, "", "", std::nullopt, std::nullopt}});
    e.explain.push_back({"<- the input, untouched", std::nullopt});
    e.cause = "barrier_missing";
    e.stencil = EffectiveStencilView{"out(x, y, z) = c0 in(x, y, z) + c1 in(x+1, y, z)",
                                     "out(x, y, z) = c0 in(x, y, z) + c1 in(x-1, y, z)",
                                     {{"c0 in(x, y, z)", 7, false}, {"c1 in(x+1, y, z)", 8, true}},
                                     {"c1 multiplies in(x+1, y, z) at line 8"},
                                     {8}};
    e.compiler_output = "warning: unused";
    e.child_output = "runner: done";
    r.tests = {{"N=3 in_order", true, "ok", 3, 0}, {"N=5 in_order", false, "race", 5, 1}, {"N=47", false, "bad", 47, 2}};
    r.warnings = {"over the load budget"};
    r.timing = Timing{64, 10, 1.5, 1.25, 1.2, "the lab's kernel: kernels/tiled.cuh"};
    r.loads = LoadCount{64, 3.5, 3.375, false, "CPU backend trace", 3.375};
    return r;
}

std::string temp_path(const std::string& name) {
    return (std::filesystem::temp_directory_path() / ("stencil-test-report-read-" + name)).string();
}

}  // namespace

TEST_CASE("check report: read back, written again, the same document", "[exercise][report]") {
    const nlohmann::json once = to_json(full_result());
    const CheckResult back = check_result_from_json(once);
    CHECK(to_json(back) == once);
    CHECK(back.seed == 18446744073709551557ull);
    REQUIRE(back.evidence.first_bad.has_value());
    CHECK(std::isnan(back.evidence.first_bad->got));
    CHECK(back.evidence.first_bad->cell == CellClass::next_to_boundary);
    CHECK(back.findings.at(0).hint_text == "Which threads read it?");
    CHECK(back.tests.at(1).finding == 1);
    REQUIRE(back.loads.has_value());
    CHECK(back.loads->lab_loads_per_output == 3.375);

    SECTION("a pass with nothing optional") {
        CheckResult pass;
        pass.verdict = Verdict::pass;
        pass.file = "k.cu";
        pass.exercise = "naive";
        pass.backend = "cuda";
        const nlohmann::json j = to_json(pass);
        CHECK(to_json(check_result_from_json(j)) == j);
    }
}

TEST_CASE("check report: what is not one submission's report is refused, saying why", "[exercise][report]") {
    const nlohmann::json good = to_json(full_result());
    auto refusal = [](const nlohmann::json& j) {
        try {
            check_result_from_json(j);
        } catch (const UserError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    CHECK(refusal(nlohmann::json{{"results", nlohmann::json::array()}, {"passed", 0}}).find("batch") != std::string::npos);
    CHECK(refusal(nlohmann::json::array()).find("not what check --json writes") != std::string::npos);
    nlohmann::json bad_verdict = good;
    bad_verdict["verdict"] = "fine";
    CHECK(refusal(bad_verdict).find("unknown verdict \"fine\"") != std::string::npos);
    nlohmann::json no_tests = good;
    no_tests.erase("tests");
    CHECK(refusal(no_tests).find("missing or of the wrong type") != std::string::npos);
    nlohmann::json bad_seed = good;
    bad_seed["seed"] = "twelve";
    CHECK(refusal(bad_seed).find("seed") != std::string::npos);

    SECTION("a file: unreadable, not JSON, or good") {
        CHECK_THROWS_WITH(read_check_report(temp_path("none.json")), Catch::Contains("cannot be read"));
        const std::string not_json = temp_path("not.json");
        std::ofstream(not_json) << "{ verdict";
        CHECK_THROWS_WITH(read_check_report(not_json), Catch::Contains("not a check report: not JSON"));
        const std::string saved = temp_path("saved.json");
        std::ofstream(saved) << good.dump(2);
        CHECK(to_json(read_check_report(saved)) == good);
        std::remove(not_json.c_str());
        std::remove(saved.c_str());
    }
}
