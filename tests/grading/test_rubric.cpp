// Rubrics and scores without running a check: the default rubric of every exercise adds up; every
// way a rubric can be wrong is one line naming the file and the key; a check right on some sizes
// earns those sizes' points; hidden sizes follow the rubric's rule (drawn from the seed, or above
// a size), whatever sizes the checker runs; without a GPU the time item scales the others up, in
// whole points that add up to the total.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include "checker/exercises.h"
#include "checker/findings.h"
#include "core/error.h"
#include "grading/platform_results.h"
#include "grading/rubric.h"
#include "grading/score.h"
#include "tests/grading/platform_specs.h"

using namespace stencil::grading;
using nlohmann::json;
using stencil::checker::CheckResult;
using stencil::checker::Verdict;

namespace {

// A naive check on the CPU backend: fixed sizes 3..31, two drawn from the seed (one above 64), as
// the checker reports them; `fail` lists the sizes that fail.
CheckResult naive_result(std::vector<int> fail, Verdict verdict) {
    CheckResult r;
    r.verdict = verdict;
    r.exercise = "naive";
    r.backend = "cpu";
    r.file = "stencil.cu";
    r.sizes = {3, 5, 9, 13, 17, 18, 31, 23, 68};
    r.drawn_sizes = {23, 68};
    for (int n : r.sizes) {
        const bool bad = std::find(fail.begin(), fail.end(), n) != fail.end();
        r.tests.push_back({"N=" + std::to_string(n), !bad, bad ? "wrong" : "ok", n});
    }
    stencil::checker::LoadCount lc;
    lc.n = 18;
    lc.loads_per_output = 7;
    lc.budget = 7;
    lc.within_budget = true;
    r.measured_loads = lc;  // the checker keeps the count it measured, and shows it next to a pass
    if (verdict == Verdict::pass) {
        r.loads = lc;
    } else {
        r.evidence.n = fail.empty() ? 0 : fail.front();
        r.evidence.message = "N=" + std::to_string(r.evidence.n) + ": wrong";
    }
    return r;
}

}  // namespace

namespace stencil {
// A wrong_result case's message as the judge writes it, with its size's own numbers.
inline std::string fmt_size_message(int n) {
    return "N=" + std::to_string(n) + " in_order schedule: " + std::to_string(n * 3) + " of " + std::to_string(n * n * n) +
           " cells wrong_result (0 boundary changed); first at (x=1, y=1, z=1): expected 0.25, got 0." +
           std::to_string(n);
}
}  // namespace stencil

namespace {

double item_points(const Score& s, ItemKind k) {
    double p = 0;
    for (const auto& t : s.tests) p += t.item == k ? t.points : 0;
    return p;
}

void require_refused(const json& j, const std::string& says) {
    CAPTURE(j.dump(), says);
    try {
        parse_rubric(j, "r.json", "naive");
        FAIL("accepted");
    } catch (const stencil::UserError& e) {
        const std::string m = e.what();
        CAPTURE(m);
        REQUIRE(m.find("rubric r.json: ") == 0);
        REQUIRE(m.find(says) != std::string::npos);
        REQUIRE(m.find('\n') == std::string::npos);
    }
}

}  // namespace

TEST_CASE("rubric: every exercise's default adds up and reads back as itself", "[grading]") {
    for (const auto& ex : stencil::checker::exercises()) {
        CAPTURE(ex.name);
        const Rubric r = default_rubric(ex.name);
        double sum = 0;
        for (const Item& i : r.items) sum += i.points;
        REQUIRE(sum == r.total);
        REQUIRE(to_json(parse_rubric(to_json(r), "default", ex.name)) == to_json(r));
    }
}

TEST_CASE("rubric: a wrong rubric is one line naming the file and the key", "[grading]") {
    const json good = to_json(default_rubric("naive"));
    json j = good;
    j["extra"] = 1;
    require_refused(j, "extra: unknown key");
    j = good;
    j["items"]["visible"]["weight"] = 3;
    require_refused(j, "items.visible.weight: unknown key");
    j = good;
    j["items"]["style"] = {{"points", 1}};
    require_refused(j, "items.style: unknown key");
    j = good;
    j["items"]["visible"]["points"] = 41;
    require_refused(j, "items: the points add up to 101, not to the total 100");
    j = good;
    j["items"]["hidden"]["visibility"] = "secret";
    require_refused(j, "items.hidden.visibility: 'secret' is not one of visible, hidden, after_due_date, after_published");
    j = good;
    j["exercise"] = "nope";
    require_refused(j, "exercise: unknown exercise 'nope'");
    j = good;
    j["exercise"] = "tiled";
    require_refused(j, "the rubric is for 'tiled', not 'naive'");
    j = good;
    j["leaderboard"] = {"speed"};
    require_refused(j, "leaderboard[0]: 'speed' is not one of loads_per_output, time_ratio");
    j = good;
    j["items"]["loads"]["points"] = -10;
    require_refused(j, "items.loads.points: must be a number of at least 0");
    j = good;
    j["items"]["time"]["zero_at_ratio"] = 1.0;
    require_refused(j, "zero_at_ratio: must be above full_at_ratio");
}

TEST_CASE("score: a kernel right on some sizes gets those sizes' points", "[grading]") {
    const Rubric r = default_rubric("naive");  // 40 visible, 30 hidden, 10 loads, 10 clean, 10 time
    SECTION("a pass: every point; the time item, without a GPU, scales the others up") {
        const Score s = score_check(r, naive_result({}, Verdict::pass));
        REQUIRE(s.points == Approx(100));
        REQUIRE(s.max_points == 100);
        REQUIRE(item_points(s, ItemKind::visible) == 45);  // 40 of 90 in whole points of 100 (points.h)
        REQUIRE(item_points(s, ItemKind::time) == 0);
    }
    SECTION("wrong above N = 64 only (naive_big_n_wrong): the visible points, the other hidden size's, and "
            "the loads and the clean run (judged on the visible sizes)") {
        const Score s = score_check(r, naive_result({68}, Verdict::wrong_result));
        REQUIRE(item_points(s, ItemKind::visible) == 45);
        REQUIRE(item_points(s, ItemKind::hidden) == 16);  // 23 of {23, 68}: 33 points as 16 + 17
        REQUIRE(item_points(s, ItemKind::loads) == 11);
        REQUIRE(item_points(s, ItemKind::clean) == 11);
        REQUIRE(s.points == 83);
        REQUIRE(s.gradable);
        // nothing in the output tells that a hidden test failed: it reads as a pass would
        REQUIRE(s.output.find("68") == std::string::npos);
        REQUIRE(s.output.find("hidden") == std::string::npos);
        REQUIRE(s.output == score_check(r, naive_result({}, Verdict::pass)).output);
    }
    SECTION("a compile error: nothing to grade, not gradable") {
        CheckResult c = naive_result({}, Verdict::compile_error);
        c.tests.clear();
        const Score s = score_check(r, c);
        REQUIRE(s.points == 0);
        REQUIRE_FALSE(s.gradable);
        double max = 0;
        for (const auto& t : s.tests) max += t.max_points;
        REQUIRE(max == 100);
    }
}

TEST_CASE("score: hidden is a rule, not a list of sizes", "[grading]") {
    Rubric r = default_rubric("naive");
    REQUIRE(r.hidden_size(23, true));
    REQUIRE_FALSE(r.hidden_size(23, false));
    REQUIRE(r.hidden_size(128, false));  // a large case a later checker adds is hidden too
    REQUIRE_FALSE(r.hidden_size(64, false));
    r.hidden_drawn = false;
    r.hidden_above = 16;
    REQUIRE_FALSE(r.hidden_size(23 - 10, true));
    REQUIRE(r.hidden_size(17, false));
}

TEST_CASE("score: on a GPU the time item counts, and the leaderboard has both columns", "[grading]") {
    const Rubric r = default_rubric("naive");
    CheckResult c = naive_result({}, Verdict::pass);
    c.backend = "cuda";
    stencil::checker::Timing t;
    t.n = 256;
    t.student_ms = 2.0;
    t.reference_ms = 1.0;
    t.ratio = 2.0;  // halfway between 1.1 (all) and 3.0 (none): (3 - 2) / 1.9 of 10 points
    c.timing = t;
    const Score s = score_check(r, c);
    REQUIRE(item_points(s, ItemKind::time) == 5);  // 10 / 1.9 = 5.26, in whole points
    REQUIRE(item_points(s, ItemKind::visible) == Approx(40));
    REQUIRE(s.leaderboard.size() == 2);
    REQUIRE(s.leaderboard[1].name == "time_ratio");
    REQUIRE(s.leaderboard[1].value == 2.0);
}

TEST_CASE("score: a stencil written as data has no lab kernel to time: on a GPU its time item is left out",
          "[grading]") {
    const Rubric r = default_rubric("heat2d");
    CheckResult c = naive_result({}, Verdict::pass);
    c.exercise = "heat2d";
    c.backend = "cuda";  // passed on the GPU, with no timing (the runner has no kernel to time against)
    const Score s = score_check(r, c);
    CHECK(s.points == 100);  // the others scaled up to the total, as without a GPU
    CHECK(item_points(s, ItemKind::time) == 0);
    c.exercise = "naive";  // a lab problem on the GPU without its timing: the time item is lost
    CHECK(score_check(default_rubric("naive"), c).points < 100);
}

TEST_CASE("platform results: each file conforms to its platform's documented fields", "[grading]") {
    const Rubric r = default_rubric("naive");
    for (const Verdict v : {Verdict::pass, Verdict::wrong_result}) {
        const Score s = score_check(r, naive_result(v == Verdict::pass ? std::vector<int>{} : std::vector<int>{3, 68}, v));
        const json g = to_gradescope(s);
        CAPTURE(g.dump(1));
        REQUIRE(platform_specs::gradescope_violation(g) == "");
        double sum = 0;
        for (const auto& t : g["tests"]) sum += t["score"].get<double>();
        REQUIRE(sum == Approx(g["score"].get<double>()));
        const json p = to_prairielearn(s);
        REQUIRE(platform_specs::prairielearn_violation(p, p.dump().size()) == "");
        REQUIRE(p["score"].get<double>() == Approx(s.points / 100).margin(1e-4));
    }
    // A PrairieLearn result stays under 1 MB whatever the outputs hold.
    Score big = score_failure(r, std::string(3'000'000, 'x'), true);
    const json p = to_prairielearn(big);
    REQUIRE(p.dump().size() <= kPrairieLearnMaxBytes);
    REQUIRE(platform_specs::prairielearn_violation(p, p.dump().size()) == "");
}

TEST_CASE("platform results: each finding once, its failing sizes' tests naming it", "[grading]") {
    using stencil::checker::CaseFinding;
    const Rubric rubric = default_rubric("naive");
    // wrong at every size with the same finding; and a race seen only at the hidden size 68
    CheckResult c = naive_result({3, 5, 9, 13, 17, 18, 31, 23, 68}, Verdict::race);
    std::vector<CaseFinding> cases;
    for (int n : c.sizes) {
        CaseFinding f;
        f.size = n;
        f.verdict = n == 68 ? Verdict::race : Verdict::wrong_result;
        f.evidence.n = n;
        f.evidence.run = "in_order schedule";
        f.evidence.message = n == 68 ? "N=68 in_order schedule: global-memory race on out[9] with no barrier"
                                     : stencil::fmt_size_message(n);
        cases.push_back(f);
    }
    stencil::checker::take_smallest_counterexample(c, cases);
    stencil::checker::summarise(c, cases);
    REQUIRE(c.findings.size() == 2);
    const Score s = score_check(rubric, c);
    const auto student_text = [](const json& tests, const std::string& output, const char* key) {
        std::string t = output;
        for (const auto& test : tests) t += "\n" + test[key].get<std::string>();
        return t;
    };
    const auto count = [](const std::string& text, const std::string& what) {
        size_t n = 0;
        for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
        return n;
    };
    const json g = to_gradescope(s);
    const json p = to_prairielearn(s);
    const json k = to_classroom(s, "abc");
    std::string classroom = k["output"];
    for (const auto& [name, item] : k["items"].items())
        for (const auto& line : item["lines"]) classroom += "\n" + line.get<std::string>();
    for (const std::string& text : {student_text(g["tests"], g["output"], "output"),
                                    student_text(p["tests"], p["output"], "output"), classroom}) {
        CAPTURE(text);
        REQUIRE(count(text, "cells wrong_result (") == 1);   // in the output, with its visible sizes
        REQUIRE(count(text, "global-memory race on") == 1);  // in the first hidden test it failed
        // the hidden size named by its test's name only (PrairieLearn's tests here have no names)
        REQUIRE((text.find("68") == std::string::npos || text.find("68") == text.find("N=68") + 2));
    }
    const std::string out = g["output"];
    CAPTURE(out);
    CHECK(out.find("wrong_result at N = 3, 5, 9, 13, 17, 18, 31") != std::string::npos);
    // the race seen at the hidden size only is not in the output, nor is any count of hidden sizes
    CHECK(out.find("race") == std::string::npos);
    CHECK(out.find("hidden") == std::string::npos);
    CHECK(out.find("passed at no visible size") != std::string::npos);
}

TEST_CASE("score: a kernel failing only hidden sizes shows nothing of it before the due date", "[grading]") {
    const Rubric r = default_rubric("naive");
    // on a GPU the checker times it as it would a full pass (measured_timing): the time test is visible
    CheckResult c = naive_result({68}, Verdict::wrong_result);
    c.backend = "cuda";
    c.measured_timing = stencil::checker::Timing{256, 20, 1.0, 1.0, 1.0, "the lab's kernel"};
    // a rerun of a case without a size of its own (compute-sanitizer) is hidden when its case is
    c.tests.push_back({"compute-sanitizer --tool memcheck (N=23)", true, "no errors", 0});
    const Score s = score_check(r, c);
    for (const auto& t : s.tests) {
        CAPTURE(t.name, t.output);
        if (t.item == ItemKind::time) REQUIRE(t.visibility == Visibility::visible);
        if (t.visibility == Visibility::visible) REQUIRE(t.output.find("23") == std::string::npos);
        if (t.visibility == Visibility::visible) REQUIRE(t.output.find("68") == std::string::npos);
    }
    REQUIRE(item_points(s, ItemKind::loads) == 10);
    REQUIRE(item_points(s, ItemKind::time) == 10);
    REQUIRE(s.output.find("hidden") == std::string::npos);
}

TEST_CASE("rubric: an exercise folder's own rubric.json is its default", "[grading][rubric]") {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("stencil-rubric-folder-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::copy(std::string(STENCIL_LAB_SOURCE_DIR) + "/exercises/heat2d", dir, fs::copy_options::recursive);
    CHECK(default_rubric(dir.string()).total == 100);  // none yet: the lab's default
    std::ofstream(dir / "rubric.json") << R"({"exercise": "heat2d", "total": 20,
        "items": {"visible": {"points": 15, "visibility": "visible"}, "loads": {"points": 5, "visibility": "visible"}}})";
    const std::string id = dir.string() + "/";  // another spelling of the folder: read once more
    const Rubric r = default_rubric(id);
    CHECK(r.total == 20);
    CHECK(r.items.size() == 2);
    std::ofstream(dir / "rubric.json") << R"({"exercise": "heat2d", "total": 20, "colour": 1})";
    CHECK_THROWS_AS(default_rubric(dir.string() + "//"), stencil::UserError);
    fs::remove_all(dir);
}

TEST_CASE("score: on the GPU, loads, clean, time and the leaderboard are the same whatever the hidden sizes gave",
          "[grading]") {
    // A GPU run without CUPTI: the load count is the CPU engine's (counted when the count size
    // passed), the timing measured whatever the other sizes gave; the checker warns that the GPU
    // could not count or time next to a pass only. None of that may tell a hidden failure apart.
    const Rubric r = default_rubric("naive");
    stencil::checker::Timing t;
    t.n = 256;
    t.student_ms = 2.0;
    t.reference_ms = 1.0;
    t.ratio = 2.0;
    const auto gpu_run = [&](CheckResult c) {
        c.backend = "cuda";
        c.measured_timing = t;
        if (c.verdict == Verdict::pass) {
            c.timing = t;
            c.warnings.push_back("no load count: the GPU's counters could not be read (CUPTI unavailable)");
            c.warnings.push_back("no timing: the lab's kernel: not built for this GPU");
        }
        return c;
    };
    const Score all = score_check(r, gpu_run(naive_result({}, Verdict::pass)));
    const Score hidden_failed = score_check(r, gpu_run(naive_result({68}, Verdict::wrong_result)));
    REQUIRE(item_points(hidden_failed, ItemKind::hidden) < item_points(all, ItemKind::hidden));  // it did fail
    for (ItemKind k : {ItemKind::visible, ItemKind::loads, ItemKind::clean, ItemKind::time}) {
        CAPTURE(to_string(k));
        REQUIRE(item_points(all, k) > 0);
        REQUIRE(item_points(hidden_failed, k) == item_points(all, k));
        for (size_t i = 0; i < all.tests.size(); ++i)
            if (all.tests[i].item == k) {
                REQUIRE(hidden_failed.tests[i].output == all.tests[i].output);
                REQUIRE(hidden_failed.tests[i].visibility == all.tests[i].visibility);
            }
    }
    REQUIRE(all.leaderboard.size() == 2);
    REQUIRE(hidden_failed.leaderboard.size() == all.leaderboard.size());
    for (size_t i = 0; i < all.leaderboard.size(); ++i) {
        REQUIRE(hidden_failed.leaderboard[i].name == all.leaderboard[i].name);
        REQUIRE(hidden_failed.leaderboard[i].value == all.leaderboard[i].value);
    }
    REQUIRE(hidden_failed.output.find("warning") == std::string::npos);
    REQUIRE(all.output.find("warning") == std::string::npos);  // the machine's, not the kernel's
    // a kernel failing a visible size is neither counted nor timed for the rubric
    const Score visible_failed = score_check(r, gpu_run(naive_result({13}, Verdict::wrong_result)));
    REQUIRE(item_points(visible_failed, ItemKind::time) == 0);
    REQUIRE(item_points(visible_failed, ItemKind::loads) == 0);
    REQUIRE(visible_failed.leaderboard.empty());
}
