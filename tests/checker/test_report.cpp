// The report of a check (checker/findings.h, report.cpp, hints.h): each distinct finding once, with
// every size it appeared at, in text and JSON; the smallest failing case's evidence; the hint that
// fits each finding, its text from the exercise's README; the --explain chain; the GPU path's
// lines (compute-sanitizer's memcheck report) and its note where it has none.
#include <catch2/catch.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

#include "checker/checker.h"
#include "checker/exercises.h"
#include "checker/findings.h"
#include "checker/hints.h"
#include "checker/sanitizer.h"
#include "core/parallel.h"
#include "tests/checker/checker_corpus.h"

using namespace stencil::checker;

namespace {

size_t count_of(const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
    return n;
}

std::string slurp(const std::string& path) {
    std::ifstream f(path);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

CheckOptions cpu(const std::string& exercise, std::uint64_t seed) {
    CheckOptions o;
    o.exercise = exercise;
    o.backend = "cpu";
    o.quick = true;
    o.large_case = false;
    o.seed = seed;
    return o;
}

// A race case as the judge leaves it: "N=<n> <run>: <the engine's sentence at that size>".
CaseFinding race_case(int n, int line) {
    CaseFinding c;
    c.verdict = Verdict::race;
    c.size = n;
    c.evidence.n = n;
    c.evidence.run = "in_order schedule";
    c.evidence.message = fmt::format("N={} in_order schedule: shared-memory race in block (0, 0, {}), barrier "
                                     "interval 0: thread (2, 2, 2) load and thread (1, 2, 2) store of tile[2][2][{}] "
                                     "with no __syncthreads() between them at stencil.cu:{} (ld.shared.f32)",
                                     n, n / 8, n % 7, line);
    c.evidence.line = SourceLine{"stencil.cu", line, "ld.shared.f32"};
    c.evidence.race = RaceEvidence{{0, 0, n / 8}, 0, {2, 2, 2}, {1, 2, 2}, ""};
    c.evidence.slice_map = fmt::format("  map at N={}\n", n);
    return c;
}

// A tiled check failing with a race at every size, as check_submission assembles it.
CheckResult race_result(std::vector<CaseFinding> cases) {
    CheckResult r;
    r.verdict = Verdict::race;
    r.exercise = "tiled";
    r.tile = 8;
    r.backend = "cpu";
    r.file = "stencil.cu";
    r.sizes = {3, 9, 13, 37, 18};
    for (int n : r.sizes) {
        bool failed = false;
        for (const auto& c : cases) failed = failed || c.size == n;
        r.tests.push_back({fmt::format("N={}", n), !failed, failed ? "the sentence" : "ok", n});
    }
    r.evidence = cases.front().evidence;  // the judge's: the first tested
    take_smallest_counterexample(r, cases);
    summarise(r, cases);
    return r;
}

}  // namespace

TEST_CASE("findings: the same finding at many sizes is one, with its sizes in test order", "[exercise][report]") {
    // 37 is tested before 18 (a drawn size comes after the fixed ones): the sizes keep that order
    const CheckResult r = race_result({race_case(9, 15), race_case(13, 15), race_case(37, 15), race_case(18, 15)});
    REQUIRE(r.findings.size() == 1);
    const Finding& f = r.findings.front();
    CHECK(f.sizes == std::vector<int>{9, 13, 37, 18});
    CHECK(f.message.rfind("shared-memory race in block (0, 0, 1)", 0) == 0);  // N = 9's, without "N=9 ...: "
    CHECK(r.smallest_failing_size == 9);
    CHECK(passed_sizes(r) == std::vector<int>{3});
    // another line is another finding; the tests point at theirs
    const CheckResult two = race_result({race_case(9, 15), race_case(13, 21), race_case(37, 15)});
    REQUIRE(two.findings.size() == 2);
    CHECK(two.findings[0].sizes == std::vector<int>{9, 37});
    CHECK(two.findings[1].sizes == std::vector<int>{13});
    CHECK(two.tests[2].finding == 2);
    CHECK(two.tests[3].finding == 1);
    CHECK(two.tests[0].finding == 0);  // passed
    // statements found for the smallest case after the verdict (a replay) are its finding's
    std::vector<CaseFinding> cases = {race_case(9, 15), race_case(13, 15)};
    CheckResult r2 = race_result(cases);
    r2.evidence.sources = {SourceRef{"stencil.cu", 10, "st.shared.f32", "store", {}, std::array<int, 3>{1, 2, 2}},
                           SourceRef{"stencil.cu", 15, "ld.shared.f32", "load", {}, std::array<int, 3>{2, 2, 2}}};
    summarise(r2, cases);
    REQUIRE(r2.findings.size() == 1);
    CHECK(r2.findings[0].sources.size() == 2);
    CHECK(to_text(r2).find("at stencil.cu:10 (store, st.shared.f32) by thread (1, 2, 2)") != std::string::npos);
}

TEST_CASE("findings: text and JSON print each finding once, with its sizes, lines and hint", "[exercise][report]") {
    const CheckResult r = race_result({race_case(9, 15), race_case(13, 15), race_case(37, 15), race_case(18, 15)});
    const std::string text = to_text(r);
    CAPTURE(text);
    CHECK(count_of(text, "shared-memory race in block") == 1);
    CHECK(text.find("race at N = 9, 13, 37, 18 (4 of 5 sizes): shared-memory race") != std::string::npos);
    CHECK(text.find("at stencil.cu:15 (where the CPU engine caught it, ld.shared.f32) by thread (2, 2, 2) of block "
                    "(0, 0, 1)") != std::string::npos);
    CHECK(text.find("hint 2 of exercises/tiled/README.md: All loads must be finished before anyone reads a "
                    "neighbour") != std::string::npos);
    CHECK(text.find("smallest failing case: N = 9, block (0, 0, 1) (in_order schedule)") != std::string::npos);
    CHECK(text.find("map at N=9") != std::string::npos);
    CHECK(text.find("passed at N = 3 (1 of 5 sizes)") != std::string::npos);
    CHECK(text.find("[FAIL]") == std::string::npos);

    const nlohmann::json j = to_json(r);
    CAPTURE(j.dump(1));
    REQUIRE(j["findings"].size() == 1);
    const auto& f = j["findings"][0];
    CHECK(f["verdict"] == "race");
    CHECK(f["sizes"] == nlohmann::json({9, 13, 37, 18}));
    CHECK(f["hint"] == 2);
    CHECK(f["sources"][0]["source_file"] == "stencil.cu");
    CHECK(f["sources"][0]["source_line"] == 15);
    CHECK(f["sources"][0]["thread"] == nlohmann::json({2, 2, 2}));
    CHECK(j["smallest_failing_size"] == 9);
    CHECK(j["passed_sizes"] == nlohmann::json({3}));
    CHECK(j["evidence"]["n"] == 9);
    // a failing size's test names its finding instead of repeating it
    std::string tests = j["tests"].dump();
    CHECK(tests.find("shared-memory race") == std::string::npos);
    CHECK(j["tests"][1]["finding"] == 1);
}

TEST_CASE("findings: a race at every size of a real check is printed once", "[exercise][report]") {
    const CheckResult r = check_submission(corpus("tiled_no_sync.cu"), cpu("tiled", 1));
    const std::string text = to_text(r);
    CAPTURE(text);
    REQUIRE(r.verdict == Verdict::race);
    REQUIRE(r.findings.size() >= 1);
    const Finding& f = r.findings.front();
    CHECK(f.verdict == Verdict::race);
    CHECK(f.sizes.size() == r.sizes.size());
    CHECK(f.hint == 2);
    REQUIRE_FALSE(f.sources.empty());
    CHECK(f.sources.front().line > 0);
    // the sentence once (the old report printed it once per size, again under race: and per [FAIL])
    CHECK(count_of(text, "with no __syncthreads() between them") == 1);
    CHECK(text.find(fmt::format("(all {} sizes)", r.sizes.size())) != std::string::npos);
    CHECK(text.find("hint 2 of exercises/tiled/README.md") != std::string::npos);
    const std::string json = to_json(r).dump();
    // the finding, and the smallest case's evidence (its message and its race's)
    CHECK(count_of(json, "with no __syncthreads() between them") == 3);
}

TEST_CASE("findings: the smallest failing size is the report's counterexample", "[exercise][report]") {
    // A seed whose drawn sizes put a failing one (past 20) after a larger failing one in test
    // order: then the first failing size tested is not the smallest.
    const Exercise& ex = *find_exercise("naive");
    const int tile = default_tile(ex);
    const std::vector<int> fixed = test_sizes(ex, tile, true);
    std::uint64_t seed = 0;
    for (std::uint64_t s = 1; s < 2000 && !seed; ++s) {
        std::vector<int> sizes = fixed;
        for (int n : random_sizes(ex, tile, stencil::mix_seed(s + 3), fixed, true)) sizes.push_back(n);
        std::vector<int> failing;
        for (int n : sizes)
            if (n > 20) failing.push_back(n);
        if (failing.size() >= 2 && failing.front() != *std::min_element(failing.begin(), failing.end())) seed = s;
    }
    REQUIRE(seed != 0);
    const CheckResult r = check_submission(corpus("naive_wrong_above_20.cu"), cpu("naive", seed));
    const std::string text = to_text(r);
    CAPTURE(seed, text);
    REQUIRE(r.verdict == Verdict::wrong_result);
    std::vector<int> failing, passing;
    for (int n : r.sizes) (n > 20 ? failing : passing).push_back(n);
    const int smallest = *std::min_element(failing.begin(), failing.end());
    REQUIRE(failing.front() != smallest);
    CHECK(r.smallest_failing_size == smallest);
    CHECK(r.evidence.n == smallest);  // its evidence and slice map, not the first tested one's
    REQUIRE(r.findings.size() == 1);
    CHECK(r.findings.front().sizes == failing);
    CHECK(passed_sizes(r) == passing);
    // the kernel doubles every output past N = 20: not the stencil's sum (its weights are right),
    // so none of the naive exercise's hints fits (hint 3 is about the weights)
    CHECK(r.findings.front().cause == "not_a_sum");
    CHECK(r.findings.front().hint == 0);
    CHECK(text.find(fmt::format("smallest failing case: N = {}", smallest)) != std::string::npos);
    std::string passed;
    for (int n : passing) passed += (passed.empty() ? "" : ", ") + std::to_string(n);
    CHECK(text.find("passed at N = " + passed) != std::string::npos);
    CHECK(to_json(r)["smallest_failing_size"] == smallest);
}

TEST_CASE("hints: every exercise's README numbers its hints, and every mapped hint exists", "[exercise][report]") {
    for (const Exercise& ex : exercises()) {
        CAPTURE(ex.name);
        const std::string readme = slurp(std::string(STENCIL_LAB_SOURCE_DIR) + "/" + readme_name(ex.name));
        REQUIRE(!parse_hints(readme).empty());
    }
    // each spec's [hints] names a cause a hint can be about and a hint its README has (the spec
    // reader refuses anything else: tests/checker/test_exercise_spec.cpp)
    for (const Exercise& ex : exercises()) {
        const auto hints = parse_hints(slurp(std::string(STENCIL_LAB_SOURCE_DIR) + "/" + readme_name(ex.name)));
        for (const auto& [cause, hint] : ex.hints) {
            CAPTURE(ex.name, cause, hint);
            CHECK(is_hint_cause(cause));
            REQUIRE(hint >= 1);
            REQUIRE(size_t(hint) <= hints.size());
        }
    }
    // the causes that matter most have a hint in every exercise with shared memory
    for (const Exercise& ex : exercises()) {
        CAPTURE(ex.name);
        if (!ex.is_star3d() || tile_has_halo(ex)) {
            CHECK(hint_for(ex.id, "race_shared") > 0);
            CHECK(hint_for(ex.id, "barrier_divergent") > 0);
        }
    }
    // a hint is chosen by cause: the tiled exercise's skipped load gets the load's hint, not the
    // barrier's; a cause the spec maps no hint to gets none (not the verdict's)
    CHECK(hint_for("tiled", "halo_load_skipped") == 1);
    CHECK(hint_for("tiled", "barrier_missing") == 2);
    CHECK(hint_for("tiled", "wrong_value") == 0);
    CHECK(hint_for("tiled", "") == 0);
    CHECK(hint_for("naive", "weight_pairing") == 3);
}

TEST_CASE("hints: numbered items are read whole, continuation lines joined", "[exercise][report]") {
    const std::string readme = "Intro.\n\n**Hints.**\n1. First, on\n   two lines.\n2. Second.\n\n```sh\n3. not a hint\n```\n";
    CHECK(parse_hints(readme) == std::vector<std::string>{"First, on two lines.", "Second."});
    CHECK(parse_hints("no hints here\n1. a list\n").empty());
    CHECK(is_hint_cause("weight_pairing"));
    CHECK(!is_hint_cause("wrong_result"));  // a verdict, not a cause
}

TEST_CASE("explain: the steps print as an indented chain, in JSON with their lines", "[exercise][report]") {
    CheckResult r = race_result({race_case(9, 15)});
    r.verdict = Verdict::wrong_result;
    r.evidence.explain = {
        {"out(1,1,1) = NaN", std::nullopt},
        {"<- tile[1][1][0] read at line 21", SourceRef{"stencil.cu", 21, "ld.shared.f32", "load", {}, {}}},
        {"never stored: thread (0,1,1)'s load was skipped because `i < N - 1` was false",
         SourceRef{"stencil.cu", 10, "st.shared.f32", "store", {}, std::array<int, 3>{0, 1, 1}}},
    };
    const std::string text = to_text(r);
    CAPTURE(text);
    CHECK(text.find("    out(1,1,1) = NaN\n"
                    "      <- tile[1][1][0] read at line 21\n"
                    "      <- never stored: thread (0,1,1)'s load was skipped because `i < N - 1` was false "
                    "(stencil.cu:10)\n") != std::string::npos);
    const nlohmann::json j = to_json(r);
    const auto& steps = j["evidence"]["explain"];
    REQUIRE(steps.size() == 3);
    CHECK(steps[0]["source_line"].is_null());
    CHECK(steps[1]["source_file"] == "stencil.cu");
    CHECK(steps[2]["source_line"] == 10);
    CHECK(steps[2]["text"].get<std::string>().rfind("never stored", 0) == 0);
}

TEST_CASE("GPU path: memcheck's lines become sources; other findings say the line is unknown", "[exercise][report]") {
    // compute-sanitizer's memcheck record (CUDA 12), and cuda-memcheck's older form
    const std::string report =
        "========= COMPUTE-SANITIZER\n"
        "========= Invalid __global__ read of size 4 bytes\n"
        "=========     at stencil_kernel(float *, float *, unsigned int)+0x2d0 in /tmp/stencil-check-x/stencil.cu:12\n"
        "=========     by thread (1,0,0) in block (0,2,0)\n"
        "=========     Address 0x7f3a8e000000 is out of bounds\n"
        "=========     and is 4 bytes before the nearest allocation at 0x7f3a8e000004 of size 1024 bytes\n"
        "=========     Saved host backtrace up to driver entry point at kernel launch time\n"
        "=========     Host Frame: [0x2f1e3b] in /lib/x86_64-linux-gnu/libcuda.so.1\n"
        "=========\n"
        "========= Invalid __global__ read of size 4 bytes\n"
        "=========     at stencil_kernel(float *, float *, unsigned int)+0x2d0 in /tmp/stencil-check-x/stencil.cu:12\n"
        "=========     by thread (2,0,0) in block (0,2,0)\n"
        "=========\n"
        "========= Invalid __global__ write of size 4 bytes\n"
        "=========     at 0x000000c8 in /tmp/stencil-check-x/stencil.cu:14:stencil_kernel(float*, float*, unsigned int)\n"
        "=========     by thread (3,1,0) in block (1,0,0)\n"
        "=========     Address 0x000370e8 is out of bounds\n"
        "=========\n"
        "========= Invalid __global__ read of size 4 bytes\n"
        "=========     at 0x00000010 in stencil-harness.cu:3:helper\n"
        "=========     by thread (0,0,0) in block (0,0,0)\n"
        "========= ERROR SUMMARY: 4 errors\n";
    const std::vector<SourceRef> s = sanitizer_sources(report, "stencil.cu");
    REQUIRE(s.size() == 2);  // line 12 once (its first thread), line 14; the harness's line left out
    CHECK(s[0].file == "stencil.cu");
    CHECK(s[0].line == 12);
    CHECK(s[0].role == "out-of-bounds read of __global__ memory");
    CHECK(s[0].thread == std::array<int, 3>{1, 0, 0});
    CHECK(s[0].block == std::array<int, 3>{0, 2, 0});
    CHECK(s[1].line == 14);
    CHECK(s[1].role.rfind("out-of-bounds write", 0) == 0);
    CHECK(s[1].block == std::array<int, 3>{1, 0, 0});
    CHECK(sanitizer_sources("========= Invalid __global__ read of size 4 bytes\n=========     at stencil_kernel+0x10\n",
                            "stencil.cu")
              .empty());  // no line info: nothing named

    // A GPU finding without a line says so, and what to run instead; one with lines does not.
    CheckResult r = race_result({race_case(9, 15)});
    r.backend = "cuda";
    r.findings.front().sources.clear();
    CHECK(to_text(r).find("the GPU path cannot name the line of this finding") != std::string::npos);
    CHECK(to_text(r).find("--backend cpu") != std::string::npos);
    CHECK(to_json(r)["findings"][0].contains("line_unknown"));
    r.findings.front().sources = s;
    CHECK(to_text(r).find("the GPU path cannot name the line") == std::string::npos);
    CHECK(to_text(r).find("at stencil.cu:12 (out-of-bounds read of __global__ memory) by thread (1, 0, 0) of block "
                          "(0, 2, 0)") != std::string::npos);
}

TEST_CASE("findings: the key leaves out sizes, runs and numbers, not what the sentence says", "[exercise][report]") {
    auto key = [](const std::string& message, int n, const std::string& run) {
        Evidence ev;
        ev.message = message;
        ev.n = n;
        ev.run = run;
        return finding_key(Verdict::race, ev);
    };
    const std::string a = key("N=3: the output differs between the in_order schedule and the reversed schedule, "
                              "unspecified values explored (1 cells), first at (x=1, y=1, z=1): nan vs -1.7556478e+33. "
                              "The result depends on the order",
                              3, "reversed schedule, unspecified values explored");
    const std::string b = key("N=69: the output differs between the in_order schedule and the random schedule (seed "
                              "123565), unspecified values explored (2634 cells), first at (x=1, y=1, z=1): nan vs "
                              "1253922.62. The result depends on the order",
                              69, "random schedule (seed 123565), unspecified values explored");
    CAPTURE(a, b);
    CHECK(a == b);
    // a 2D case's cell and a 3D case's
    CHECK(key("n=5 (7x7 with ghosts): first at (x=0, y=0)", 5, "") == key("n=9 (11x11 with ghosts): first at (x=2, y=1, z=0)", 9, ""));
    // another statement, another finding
    CHECK(key("N=3 r: a store at s.cu:10", 3, "r") != key("N=3 r: a load at s.cu:10", 3, "r"));
    CHECK(key("N=3 r: 0x1f", 3, "r") == key("N=5 r: 0x20", 5, "r"));
}

TEST_CASE("findings: a compile error's lines are its sources, printed once", "[exercise][report]") {
    CHECK(compiler_sources("s.cu:6: error: expected a \";\"\n      if (i) {\n      ^\ns.cu:6: error: again\n"
                           "s.cu:9: warning: unused\nnot a line: error: x\n")
              .size() == 2);
    CHECK(compiler_sources("e.cu:2: a byte that is not UTF-8 (0xe9 at offset 83)\n")[0].role == "refused");
    const CheckResult r = check_submission(corpus("naive_syntax_error.cu"), cpu("naive", 1));
    REQUIRE(r.verdict == Verdict::compile_error);
    REQUIRE(r.findings.size() == 1);
    REQUIRE(!r.findings[0].sources.empty());
    CHECK(r.findings[0].sources[0].file == "naive_syntax_error.cu");
    CHECK(r.findings[0].sources[0].line == 6);
    CHECK(to_json(r)["findings"][0]["sources"][0]["source_line"] == 6);
    const std::string text = to_text(r);
    CAPTURE(text);
    CHECK(count_of(text, "naive_syntax_error.cu:6") == 1);
}
