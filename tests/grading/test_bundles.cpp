// Issue 27's done-when: each platform's bundle, made by `stencil-lab autograder make`, run in a
// simulated platform root (a temporary folder laid out as the platform lays it out, given as
// STENCIL_LAB_PLATFORM_ROOT; the built stencil-lab on PATH) on a passing, a failing, a partly
// passing (right up to N = 64, zeros above) and a non-compiling submission, and on a lab answer
// sheet; each results file checked against its platform's documented fields (platform_specs.h).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <regex>
#include <vector>

#include "tests/grading/grading_test_support.h"
#include "tests/grading/platform_specs.h"

using namespace grading_test;
using nlohmann::json;

namespace {

struct Submission {
    const char* file;
    const char* kind;  // pass, fail, partial, compile
};
const Submission kSubmissions[] = {{"naive_ok.cu", "pass"},
                                   {"naive_zeros.cu", "fail"},
                                   {"naive_big_n_wrong.cu", "partial"},
                                   {"naive_syntax_error.cu", "compile"}};

// The bundle for the naive exercise, made once per platform (CPU backend: CI has no GPU). The
// build's stencil-lab ships no install tree: the bundle runs the one on PATH.
fs::path make(const TempDir& t, const std::string& platform, const std::string& extra = "--exercise naive --backend cpu") {
    const fs::path out = t.path / ("bundle-" + platform);
    const Shell r = sh("stencil-lab autograder make --stencil-lab-on-path --platform " + platform + " " + extra +
                       " --out " + out.string());
    CAPTURE(r.out);
    REQUIRE(r.code == 0);
    return out;
}

void fresh(const fs::path& dir) {
    fs::remove_all(dir);
    fs::create_directories(dir);
}

// The points each kind of submission gets out of 100 (no GPU: the time item's 10 scale the rest).
void require_points(const std::string& kind, double points, const std::string& where) {
    CAPTURE(kind, points, where);
    if (kind == std::string("pass")) REQUIRE(points == Approx(100).margin(0.05));
    if (kind == std::string("fail") || kind == std::string("compile")) REQUIRE(points == 0);
    if (kind == std::string("partial")) {
        // every visible size, the loads and the clean run (judged on the visible sizes: 45 + 11 + 11
        // of 100 once the time item's 10 are shared out) and some of the hidden sizes: not all, not none
        REQUIRE(points > 67);
        REQUIRE(points < 100);
    }
}

fs::path course_file(const TempDir& t) {
    const fs::path c = t.path / "course.json";
    if (!fs::exists(c)) REQUIRE(sh("stencil-lab lab course --out " + c.string()).code == 0);
    return c;
}

// Lab 2's key at the course's parameters, with one answer wrong: the sheet a student submits.
json lab2_sheet(const fs::path& course) {
    const Shell key = sh("stencil-lab lab key 2 --json --course " + course.string());
    REQUIRE(key.code == 0);
    json sheet = json::parse(key.out);
    sheet["answers"]["l2.limit"] = 100;
    return sheet;
}

}  // namespace

TEST_CASE("gradescope bundle: autograder.zip run in a simulated /autograder", "[grading][cli]") {
    TempDir t;
    const fs::path bundle = make(t, "gradescope");
    REQUIRE(fs::exists(bundle / "autograder.zip"));
    const fs::path root = t.path / "autograder";
    const auto modes = unzip(bundle / "autograder.zip", root / "source");
    REQUIRE(modes.at("setup.sh") == 0755);
    REQUIRE(modes.at("run_autograder") == 0755);
    REQUIRE(sh("bash -n " + (root / "source" / "setup.sh").string()).code == 0);
    fs::copy_file(root / "source" / "run_autograder", root / "run_autograder");  // as Gradescope does
    SECTION("a passing, a failing, a partly passing and a non-compiling submission")
    for (const Submission& s : kSubmissions) {
        CAPTURE(s.file);
        fresh(root / "submission");
        fs::remove_all(root / "results");
        fs::copy_file(corpus(s.file), root / "submission" / "stencil.cu");
        const Shell r = sh("cd " + root.string() + " && STENCIL_LAB_PLATFORM_ROOT=" + root.string() + " ./run_autograder");
        CAPTURE(r.out);
        REQUIRE(r.code == 0);
        const json res = read_json(root / "results" / "results.json");
        REQUIRE(platform_specs::gradescope_violation(res) == "");
        require_points(s.kind, res["score"].get<double>(), "gradescope");
        if (s.kind == std::string("fail") || s.kind == std::string("partial")) {
            // what the student reads (the output and every test's) holds the finding once, not once a size
            std::string seen = res["output"];
            for (const auto& test : res["tests"]) seen += "\n" + test["output"].get<std::string>();
            size_t count = 0;
            for (size_t p = seen.find("cells wrong_result ("); p != std::string::npos; p = seen.find("cells wrong_result (", p + 1))
                ++count;
            CAPTURE(seen);
            REQUIRE(count == 1);
        }
        if (s.kind == std::string("partial")) {
            bool visible_all = true, hidden_some_failed = false;
            for (const auto& test : res["tests"]) {
                const std::string name = test["name"];
                if (name.rfind("N = ", 0) == 0) visible_all = visible_all && test["status"] == "passed";
                if (name.rfind("hidden size ", 0) == 0) hidden_some_failed = hidden_some_failed || test["status"] == "failed";
                if (name.rfind("hidden size ", 0) == 0) REQUIRE(test["visibility"] == "after_due_date");
            }
            REQUIRE(visible_all);
            REQUIRE(hidden_some_failed);
        }
        if (s.kind == std::string("pass")) REQUIRE(res["leaderboard"][0]["name"] == "loads_per_output");
    }
    SECTION("two .cu files, or none: the results say what to submit, with no points") {
        fresh(root / "submission");
        fs::copy_file(corpus("naive_ok.cu"), root / "submission" / "a.cu");
        fs::copy_file(corpus("naive_ok.cu"), root / "submission" / "b.cu");
        sh("STENCIL_LAB_PLATFORM_ROOT=" + root.string() + " " + (root / "run_autograder").string());
        const json res = read_json(root / "results" / "results.json");
        REQUIRE(platform_specs::gradescope_violation(res) == "");
        REQUIRE(res["score"] == 0);
        REQUIRE(res["output"].get<std::string>().find("2 .cu files submitted (a.cu, b.cu)") != std::string::npos);
    }
    SECTION("a grader that dies (the box too small) still leaves a results file that says why") {
        // a stencil-lab on PATH that is killed as the OOM killer would kill it
        const fs::path fake = t.path / "fake-bin";
        fs::create_directories(fake);
        std::ofstream(fake / "stencil-lab") << "#!/bin/sh\nkill -9 $$\n";
        fs::permissions(fake / "stencil-lab", fs::perms(0755));
        fresh(root / "submission");
        fs::copy_file(corpus("naive_ok.cu"), root / "submission" / "stencil.cu");
        fs::remove_all(root / "results");
        sh("PATH=" + fake.string() + ":$PATH STENCIL_LAB_PLATFORM_ROOT=" + root.string() + " " +
           (root / "run_autograder").string());
        const json res = read_json(root / "results" / "results.json");
        REQUIRE(platform_specs::gradescope_violation(res) == "");
        REQUIRE(res["output"].get<std::string>().find("137 means it was killed") != std::string::npos);
    }
}

TEST_CASE("prairielearn bundle: the entry point in a simulated /grade", "[grading][cli]") {
    TempDir t;
    const fs::path bundle = make(t, "prairielearn");
    REQUIRE(fs::exists(bundle / "Dockerfile"));
    const json info = read_json(bundle / "question" / "info.json");
    REQUIRE(info["gradingMethod"] == "External");
    REQUIRE(info["externalGradingOptions"]["entrypoint"] == "/grade/tests/run.sh");
    REQUIRE(info["externalGradingOptions"]["timeout"].get<int>() <= 600);
    REQUIRE(fs::exists(bundle / "question" / "stencil.cu"));  // the skeleton the editor opens with
    const fs::path root = t.path / "grade";
    fs::create_directories(root);
    fs::copy(bundle / "question" / "tests", root / "tests", fs::copy_options::recursive);
    for (const Submission& s : kSubmissions) {
        CAPTURE(s.file);
        fresh(root / "student");
        fs::remove_all(root / "results");
        fs::copy_file(corpus(s.file), root / "student" / "stencil.cu");
        const Shell r = sh("STENCIL_LAB_PLATFORM_ROOT=" + root.string() + " " + (root / "tests" / "run.sh").string());
        CAPTURE(r.out);
        const std::string text = slurp(root / "results" / "results.json");
        const json res = json::parse(text, nullptr, false);
        REQUIRE(platform_specs::prairielearn_violation(res, text.size()) == "");
        const bool compile = s.kind == std::string("compile");
        REQUIRE(res["gradable"] == !compile);  // a file that does not compile costs no attempt
        if (!compile) require_points(s.kind, res["score"].get<double>() * 100, "prairielearn");
    }
}

TEST_CASE("classroom bundle: every workflow step run in a simulated checkout", "[grading][cli]") {
    TempDir t;
    const fs::path bundle = make(t, "classroom");
    const std::string yaml = slurp(bundle / ".github" / "workflows" / "classroom.yml");
    // The reporter's rules: the workflow is named "Autograding Tests", its one job
    // run-autograding-tests; each step has a test name, a command, a timeout and its points, and
    // the reporter lists every step.
    REQUIRE(yaml.find("name: Autograding Tests\n") != std::string::npos);
    REQUIRE(yaml.find("  run-autograding-tests:\n") != std::string::npos);
    std::vector<std::pair<std::string, double>> steps;  // command, points
    const std::regex step("command: (.*)\\n        timeout: ([0-9]+)\\n        max-score: ([0-9.]+)");
    for (std::sregex_iterator it(yaml.begin(), yaml.end(), step), end; it != end; ++it)
        steps.push_back({(*it)[1], std::stod((*it)[3])});
    REQUIRE(steps.size() == 4);  // visible, hidden, loads, clean (no GPU on GitHub's runners: no time)
    REQUIRE(yaml.find("runners: visible,hidden,loads,clean\n") != std::string::npos);
    REQUIRE(yaml.find("VISIBLE_RESULTS: \"${{steps.visible.outputs.result}}\"") != std::string::npos);
    double total = 0;
    for (const auto& s : steps) {
        REQUIRE(s.second == std::round(s.second));  // whole points per step
        total += s.second;
    }
    REQUIRE(total == 100);
    for (const Submission& s : kSubmissions) {
        CAPTURE(s.file);
        const fs::path repo = t.path / (std::string("repo-") + s.kind);
        fs::copy(bundle, repo, fs::copy_options::recursive);
        fs::copy_file(corpus(s.file), repo / "stencil.cu", fs::copy_options::overwrite_existing);
        double earned = 0;
        for (const auto& [command, points] : steps) {
            const Shell r = sh("cd " + repo.string() + " && " + command);
            CAPTURE(command, r.out);
            REQUIRE((r.code == 0 || r.code == 1));
            earned += r.code == 0 ? points : 0;
        }
        // Classroom's steps are all or nothing: the partial one earns every step but the hidden one
        if (s.kind == std::string("partial")) REQUIRE(earned == Approx(100 - steps[1].second));
        else require_points(s.kind, earned, "classroom");
    }
}

TEST_CASE("lab answer sheets: graded on each platform with the instructor's course, values kept back", "[grading][cli]") {
    TempDir t;
    const fs::path course = course_file(t);
    const json sheet = lab2_sheet(course);
    const std::string lab = "--lab 2 --course " + course.string();
    SECTION("gradescope") {
        const fs::path bundle = make(t, "gradescope", lab);
        const fs::path root = t.path / "gs";
        unzip(bundle / "autograder.zip", root / "source");
        fs::create_directories(root / "submission");
        std::ofstream(root / "submission" / "answers.json") << sheet.dump();
        sh("STENCIL_LAB_PLATFORM_ROOT=" + root.string() + " " + (root / "source" / "run_autograder").string());
        const json res = read_json(root / "results" / "results.json");
        REQUIRE(platform_specs::gradescope_violation(res) == "");
        int failed = 0, tests = 0;
        for (const auto& test : res["tests"]) {
            ++tests;
            if (test["status"] == "failed") {
                ++failed;
                REQUIRE(test["name"] == "l2.limit");
                // why, in words; not the expected value (course.json has no practice mode)
                REQUIRE(test["output"].get<std::string>().find("not within the question's tolerance") != std::string::npos);
                REQUIRE(test["output"].get<std::string>().find("expected") == std::string::npos);
            }
        }
        REQUIRE(failed == 1);
        REQUIRE(res["score"].get<double>() == tests - 1);
    }
    SECTION("prairielearn: a sheet that is not JSON is not gradable") {
        const fs::path bundle = make(t, "prairielearn", lab);
        const fs::path root = t.path / "pl";
        fs::create_directories(root);
        fs::copy(bundle / "question" / "tests", root / "tests", fs::copy_options::recursive);
        fs::create_directories(root / "student");
        std::ofstream(root / "student" / "answers.json") << sheet.dump();
        sh("STENCIL_LAB_PLATFORM_ROOT=" + root.string() + " " + (root / "tests" / "run.sh").string());
        std::string text = slurp(root / "results" / "results.json");
        json res = json::parse(text);
        REQUIRE(platform_specs::prairielearn_violation(res, text.size()) == "");
        REQUIRE(res["gradable"] == true);
        REQUIRE(res["score"].get<double>() < 1);
        REQUIRE(res["score"].get<double>() > 0.8);
        std::ofstream(root / "student" / "answers.json") << "{\"answers\": [1,";
        sh("STENCIL_LAB_PLATFORM_ROOT=" + root.string() + " " + (root / "tests" / "run.sh").string());
        text = slurp(root / "results" / "results.json");
        res = json::parse(text);
        REQUIRE(platform_specs::prairielearn_violation(res, text.size()) == "");
        REQUIRE(res["gradable"] == false);
    }
    SECTION("classroom: one step per question") {
        const fs::path bundle = make(t, "classroom", lab);
        REQUIRE(fs::exists(bundle / "answers.json"));
        REQUIRE(fs::exists(bundle / "QUESTIONS.md"));
        fs::copy(bundle, t.path / "repo", fs::copy_options::recursive);
        std::ofstream(t.path / "repo" / "answers.json") << sheet.dump();
        REQUIRE(sh("cd " + (t.path / "repo").string() + " && .stencil-lab/grade l2.opb-t8").code == 0);
        const Shell wrong = sh("cd " + (t.path / "repo").string() + " && .stencil-lab/grade l2.limit");
        REQUIRE(wrong.code == 1);
        REQUIRE(wrong.out.find("l2.limit: 0 of 1 points") != std::string::npos);
    }
}

TEST_CASE("autograder make: bad input is one line, exit 2, and nothing written", "[grading][cli]") {
    TempDir t;
    std::ofstream(t.path / "bad-key.json") << R"({"exercise": "naive", "items": {"visible": {"points": 100, "weight": 1}}})";
    std::ofstream(t.path / "bad-sum.json") << R"({"exercise": "naive", "total": 100, "items": {"visible": {"points": 60}}})";
    fs::create_directories(t.path / "full");
    std::ofstream(t.path / "full" / "x") << "x";
    struct Bad {
        std::string args, says;
    };
    const std::string out = " --out " + (t.path / "out").string();
    const std::vector<Bad> bad = {
        {"--platform moodle --exercise naive" + out, "unknown platform 'moodle'; one of: gradescope, prairielearn, classroom"},
        {"--platform gradescope --exercise nope" + out, "unknown exercise 'nope'"},
        {"--platform gradescope --exercise naive --rubric " + (t.path / "bad-key.json").string() + out,
         "items.visible.weight: unknown key"},
        {"--platform prairielearn --exercise naive --rubric " + (t.path / "bad-sum.json").string() + out,
         "the points add up to 60, not to the total 100"},
        {"--platform classroom --exercise naive --out " + (t.path / "no" / "such" / "dir").string(), "does not exist"},
        {"--platform classroom --exercise naive --out " + (t.path / "full").string(), "exists and is not empty"},
        {"--platform gradescope --lab 2" + out, "--course FILE is required"},
    };
    for (const Bad& b : bad) {
        const Shell r = sh("stencil-lab autograder make " + b.args);
        CAPTURE(b.args, r.out);
        REQUIRE(r.code == 2);
        REQUIRE(r.out.find(b.says) != std::string::npos);
        REQUIRE(std::count(r.out.begin(), r.out.end(), '\n') == 1);
        REQUIRE_FALSE(fs::exists(t.path / "out"));
    }
    // no temporary folder left behind either
    for (const auto& e : fs::directory_iterator(t.path)) REQUIRE(e.path().filename().string().find(".tmp-") == std::string::npos);
}
