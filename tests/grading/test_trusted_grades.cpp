// Issue 46's done-when, "grades a course can trust": a regrade of the same file is byte-identical
// (timing fields aside), two files draw different hidden sizes, no student-visible field names a
// hidden size, the maxima add up to the total exactly on every platform, a nested submission
// grades, `make` from a build tree exits 2, PrairieLearn's UUID stays across makes. Also the parts
// they rest on, without a check: points in whole units, the seeds, the ELF reader and the install
// tree's check, the statement's HTML, finding a submission.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "checker/checker.h"
#include "checker/exercises.h"
#include "checker/field_exercises.h"
#include "core/error.h"
#include "grading/elf_needs.h"
#include "grading/job.h"
#include "grading/markdown_html.h"
#include "grading/points.h"
#include "grading/rubric.h"
#include "grading/seeds.h"
#include "grading/tree_check.h"
#include "core/sha256.h"
#include "tests/grading/grading_test_support.h"
#include "tests/grading/platform_specs.h"

using namespace grading_test;
using namespace stencil::grading;
using nlohmann::json;

namespace {

const std::string kSecret = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

// A Gradescope root with the naive bundle unpacked, made with a fixed course secret.
struct GradescopeRoot {
    TempDir t;
    fs::path root;
    GradescopeRoot() {
        std::ofstream(t.path / "secret") << kSecret << "\n";
        const Shell m = sh("stencil-lab autograder make --stencil-lab-on-path --platform gradescope --exercise naive "
                           "--backend cpu --secret-file " + (t.path / "secret").string() + " --out " + (t.path / "b").string());
        CAPTURE(m.out);
        REQUIRE(m.code == 0);
        root = t.path / "autograder";
        unzip(t.path / "b" / "autograder.zip", root / "source");
    }
    // Grades `file` placed at `rel` under submission/; the results file's text.
    std::string grade(const fs::path& file, const std::string& rel = "stencil.cu", const std::string& append = "") {
        fs::remove_all(root / "submission");
        fs::remove_all(root / "results");
        fs::create_directories((root / "submission" / rel).parent_path());
        std::ofstream(root / "submission" / rel) << slurp(file) << append;
        const Shell r = sh("STENCIL_LAB_PLATFORM_ROOT=" + root.string() + " " + (root / "source" / "run_autograder").string());
        CAPTURE(r.out);
        REQUIRE(r.code == 0);
        return slurp(root / "results" / "results.json");
    }
};

// The sizes the hidden tests ran (their outputs name them: those are shown after the due date).
std::set<int> hidden_sizes(const json& res) {
    std::set<int> sizes;
    const std::regex n("N=([0-9]+)");
    for (const auto& t : res["tests"]) {
        if (t["name"].get<std::string>().rfind("hidden size ", 0) != 0) continue;
        std::smatch m;
        const std::string out = t["output"];
        if (std::regex_search(out, m, n)) sizes.insert(std::stoi(m[1]));
    }
    return sizes;
}

// What a student sees before the due date: the output, the visible tests' names and outputs, the
// leaderboard.
std::string student_visible(const json& res) {
    std::string s = res["output"];
    for (const auto& t : res["tests"])
        if (t["visibility"] == "visible") s += "\n" + t["name"].get<std::string>() + "\n" + t["output"].get<std::string>();
    s += "\n" + res["leaderboard"].dump();
    return s;
}

// Every size a text names ("N=66", "N = 3, 5, 66"): the numbers after "N =" / "N=", lists included.
std::set<int> sizes_named(const std::string& text) {
    std::set<int> sizes;
    const std::regex list("N ?= ?([0-9]+(, [0-9]+)*)");
    for (std::sregex_iterator it(text.begin(), text.end(), list), end; it != end; ++it) {
        std::stringstream ss((*it)[1].str());
        for (std::string v; std::getline(ss, v, ',');) sizes.insert(std::stoi(v));
    }
    return sizes;
}

bool drawn_of(const stencil::checker::CheckResult& r, int n) {
    return std::find(r.drawn_sizes.begin(), r.drawn_sizes.end(), n) != r.drawn_sizes.end();
}

}  // namespace

TEST_CASE("points: shares in whole units add up to the total exactly", "[grading]") {
    for (long long units : {0LL, 1LL, 7LL, 100LL, 10000LL})
        for (size_t parts : {1u, 2u, 3u, 7u, 9u}) {
            const auto shares = split_even(units, parts);
            long long sum = 0;
            for (long long v : shares) sum += v;
            CAPTURE(units, parts);
            REQUIRE(sum == units);
            REQUIRE(shares.back() - shares.front() <= 1);  // even; the last ones take the remainder
        }
    // Classroom's old 44.44 + 33.33 + 11.11 + 11.11 = 99.99: in whole points 45 + 33 + 11 + 11
    REQUIRE(apportion(100, {40, 30, 10, 10, 0}) == std::vector<long long>{45, 33, 11, 11, 0});
    REQUIRE(apportion(100, {40, 30, 10, 10, 10}) == std::vector<long long>{40, 30, 10, 10, 10});
    json j = to_json(default_rubric("naive"));
    j["points"] = "hundredths";
    j["total"] = 10;
    j["items"] = {{"visible", {{"points", 3.33}}}, {"hidden", {{"points", 3.33}}}, {"loads", {{"points", 3.34}}}};
    const Rubric r = parse_rubric(j, "r.json");
    const auto units = item_units(r, false);
    REQUIRE(units == std::vector<long long>{333, 333, 334});
    REQUIRE(to_points(r, units[0]) + to_points(r, units[1]) + to_points(r, units[2]) == 10);
    j["points"] = "whole";
    try {
        parse_rubric(j, "r.json");
        FAIL("3.33 whole points accepted");
    } catch (const stencil::UserError& e) {
        REQUIRE(std::string(e.what()).find("items.visible.points: 3.33 is not a whole number of points") != std::string::npos);
    }
}

TEST_CASE("seeds: from the secret, the exercise and the file; the hidden one apart", "[grading]") {
    const GradingSeeds a = derive_seeds(kSecret, "ex", "file1");
    REQUIRE(a.seed == derive_seeds(kSecret, "ex", "file1").seed);
    REQUIRE(a.hidden_seed == derive_seeds(kSecret, "ex", "file1").hidden_seed);
    REQUIRE(a.seed != a.hidden_seed);
    REQUIRE(a.hidden_seed != derive_seeds(kSecret, "ex", "file2").hidden_seed);
    REQUIRE(a.hidden_seed != derive_seeds(kSecret, "ex2", "file1").hidden_seed);
    REQUIRE(a.hidden_seed != derive_seeds(std::string(64, '1'), "ex", "file1").hidden_seed);
    const std::string s = make_course_secret();
    REQUIRE(s.size() == 64);
    REQUIRE(s != make_course_secret());
    REQUIRE(parse_course_secret("  " + kSecret + "\n", "f") == kSecret);
    REQUIRE_THROWS_WITH(parse_course_secret("abc", "f"), Catch::Contains("3 hex digits, not 64"));
    REQUIRE_THROWS_WITH(parse_course_secret(std::string(64, 'g'), "f"), Catch::Contains("'g' is not a hex digit"));
    const std::string u = derived_uuid(kSecret, "naive");
    REQUIRE(std::regex_match(u, std::regex("[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")));
    REQUIRE(u == derived_uuid(kSecret, "naive"));
    REQUIRE(u != derived_uuid(kSecret, "tiled"));
}

TEST_CASE("elf: the libraries and symbol versions a binary needs, read from the file", "[grading]") {
    const fs::path lab = build_dir() / "stencil-lab";
    std::string why;
    const auto needs = read_elf_needs(lab, why);
    CAPTURE(why);
    REQUIRE(needs);
    REQUIRE(std::find(needs->libraries.begin(), needs->libraries.end(), "libc.so.6") != needs->libraries.end());
    std::set<std::string> all;
    for (const auto& [lib, names] : needs->versions) all.insert(names.begin(), names.end());
    const auto glibc = highest_version(all, "GLIBC");
    REQUIRE(glibc.size() >= 2);
    REQUIRE(glibc >= std::vector<int>{2, 2});
    REQUIRE(version_text(*version_of("GLIBC_2.34", "GLIBC")) == "2.34");
    REQUIRE_FALSE(version_of("GLIBC_PRIVATE", "GLIBC"));
    // not ELF, or cut short: a reason, never a read past the end
    TempDir t;
    std::ofstream(t.path / "script") << "#!/bin/sh\n";
    REQUIRE_FALSE(read_elf_needs(t.path / "script", why));
    const std::string head = slurp(lab).substr(0, 200);
    std::ofstream(t.path / "cut", std::ios::binary) << head;
    REQUIRE_FALSE(read_elf_needs(t.path / "cut", why));
    // a tree with a binary that needs a library the image lacks is refused, naming it
    REQUIRE(library_allowed("libnvrtc.so.13"));
    REQUIRE_FALSE(library_allowed("libfmt.so.9"));
    const fs::path tree = t.path / "tree";
    fs::create_directories(tree / "bin");
    fs::create_directories(tree / "libexec" / "stencil-lab");
    fs::copy_file(lab, tree / "bin" / "stencil-lab");
    fs::copy_file(t.path / "script", tree / "libexec" / "stencil-lab" / "stencil-check-runner");
    std::string bad;
    for (const auto& l : needs->libraries)
        if (!library_allowed(l) && bad.empty()) bad = l;
    const std::string problem = tree_problem(tree, Platform::gradescope);
    CAPTURE(problem, bad);
    if (!bad.empty()) REQUIRE(problem.find("bin/stencil-lab needs " + bad) != std::string::npos);
    else REQUIRE(problem.find("needs") == std::string::npos);  // a grading preset's build: nothing to refuse there
    fs::remove(tree / "libexec" / "stencil-lab" / "stencil-check-runner");
    REQUIRE(tree_problem(tree, Platform::gradescope).find("has no libexec/stencil-lab/stencil-check-runner") != std::string::npos);
}

TEST_CASE("statement: an exercise's README as question.html's HTML", "[grading]") {
    const std::string h = markdown_to_html("# Exercise: <naive>\n\n**Goal.** one `a<b` per {{cell}}.\n"
                                           "see [lab 2](../../labs/lab2.md) and [docs](https://example.org/x)\n\n"
                                           "**Hints.**\n1. first\n   continued\n2. second\n\n```sh\nstencil-lab check\n```\n");
    CAPTURE(h);
    REQUIRE(h.find("<h1>Exercise: &lt;naive&gt;</h1>") != std::string::npos);
    REQUIRE(h.find("<strong>Goal.</strong> one <code>a&lt;b</code> per &#123;&#123;cell&#125;&#125;.") != std::string::npos);
    REQUIRE(h.find("see lab 2 and <a href=\"https://example.org/x\">docs</a>") != std::string::npos);
    REQUIRE(h.find("<ol>\n  <li>first continued</li>\n  <li>second</li>\n</ol>") != std::string::npos);
    REQUIRE(h.find("<pre><code>stencil-lab check\n</code></pre>") != std::string::npos);
    REQUIRE(h.find("{") == std::string::npos);  // PrairieLearn's Mustache sees no braces
}

TEST_CASE("submission: the one .cu anywhere under the folder, found by the kernel's name", "[grading]") {
    TempDir t;
    const fs::path s = t.path / "submission";
    fs::create_directories(s / "src" / "deep");
    fs::create_directories(s / ".git");
    std::ofstream(s / ".git" / "x.cu") << "__global__ void stencil_kernel(";  // hidden folders are skipped
    std::ofstream(s / "src" / "deep" / "mine.cu") << "__global__ void stencil_kernel (float* in)";
    Found f = find_submission(s, ".cu", "stencil.cu", "stencil_kernel");
    REQUIRE(f.problem.empty());
    REQUIRE(f.path == s / "src" / "deep" / "mine.cu");
    std::ofstream(s / "helper.cu") << "__device__ float helper(float x) { return x; }";
    f = find_submission(s, ".cu", "stencil.cu", "stencil_kernel");
    REQUIRE(f.path == s / "src" / "deep" / "mine.cu");  // the one with the kernel
    std::ofstream(s / "other.cu") << "__global__ void stencil_kernel(float* in)";
    f = find_submission(s, ".cu", "stencil.cu", "stencil_kernel");
    REQUIRE(f.problem == "3 .cu files submitted (helper.cu, other.cu, src/deep/mine.cu), 2 of them with the kernel "
                         "stencil_kernel (other.cu, src/deep/mine.cu): submit one, or name the graded one stencil.cu");
    fs::remove(s / "other.cu");
    std::ofstream(s / "src" / "Backup.ZIP") << "PK";
    f = find_submission(s, ".cu", "stencil.cu", "stencil_kernel");
    REQUIRE(f.problem == "src/Backup.ZIP is a zip archive: submit the .cu file itself (or its folder), not an archive");
    fs::remove_all(s);
    fs::create_directories(s);
    f = find_submission(s, ".cu", "stencil.cu", "stencil_kernel");
    REQUIRE(f.problem == "no submission: submit one .cu file (stencil.cu is what the handout names)");
}

TEST_CASE("gradescope: a regrade is byte-identical, two files draw apart, nothing visible names a hidden size",
          "[grading][cli]") {
    GradescopeRoot g;
    // right up to N = 64, zeros above: the visible sizes pass, hidden ones fail
    const fs::path partial = corpus("naive_big_n_wrong.cu");
    const auto strip = [](std::string text) {  // the timing field aside
        json j = json::parse(text);
        j.erase("execution_time");
        return j.dump(1);
    };
    const std::string first = g.grade(partial, "src/nested/my_kernel.cu");  // a nested file, any name
    const json res = json::parse(first);
    REQUIRE(platform_specs::gradescope_violation(res) == "");
    REQUIRE(strip(g.grade(partial, "src/nested/my_kernel.cu")) == strip(first));
    REQUIRE(res["extra_data"]["graded_by"]["exercise"] == "naive");
    REQUIRE(res["extra_data"]["graded_by"]["exercise_hash"].get<std::string>().size() == 64);
    REQUIRE(res["extra_data"]["graded_by"]["stencil_lab_version"].get<std::string>().size() > 0);
    // the maxima add up to the total exactly (whole points), and the score to the tests' scores
    double max = 0, got = 0;
    for (const auto& t : res["tests"]) {
        REQUIRE(t["max_score"].get<double>() == std::round(t["max_score"].get<double>()));
        max += t["max_score"].get<double>();
        got += t["score"].get<double>();
        const std::string name = t["name"];
        CAPTURE(name);
        if (t["tags"][0] == "visible") REQUIRE(std::regex_match(name, std::regex("N = [0-9]+")));
        if (t["tags"][0] == "hidden") REQUIRE(std::regex_match(name, std::regex("hidden size [0-9]+ of [0-9]+")));
        REQUIRE(name.find("seed") == std::string::npos);  // the schedules' seeds are in the output
    }
    REQUIRE(max == 100);
    REQUIRE(got == res["score"].get<double>());
    // hidden sizes: drawn, some failed; none named where the student looks before the due date
    const std::set<int> hidden = hidden_sizes(res);
    REQUIRE(hidden.size() >= 3);
    const std::string visible = student_visible(res);
    CAPTURE(visible);
    for (int n : sizes_named(visible)) REQUIRE(hidden.count(n) == 0);
    REQUIRE(visible.find("hidden") == std::string::npos);
    REQUIRE(visible.find("needs every visible size passed first") == std::string::npos);  // loads and clean earned
    // the same kernel with one more line is another file: other hidden sizes
    const json other = json::parse(g.grade(partial, "stencil.cu", "\n// another file\n"));
    CAPTURE(hidden_sizes(other));
    REQUIRE(hidden_sizes(other) != hidden);
}

TEST_CASE("make: refused from a build tree; PrairieLearn's UUID kept with the secret; every platform adds up",
          "[grading][cli]") {
    TempDir t;
    const Shell refused = sh("stencil-lab autograder make --platform gradescope --exercise naive --out " +
                             (t.path / "x").string());
    CAPTURE(refused.out);
    REQUIRE(refused.code == 2);
    REQUIRE(refused.out.find("runs from a build tree") != std::string::npos);
    REQUIRE(refused.out.find("cmake --install build-grading") != std::string::npos);
    REQUIRE(std::count(refused.out.begin(), refused.out.end(), '\n') == 1);
    REQUIRE_FALSE(fs::exists(t.path / "x"));
    // a new --secret-file is written by the first make and reused by the next: the same UUID
    const fs::path secret = t.path / "course.secret";
    const auto pl = [&](const std::string& out, const std::string& extra) {
        const Shell r = sh("stencil-lab autograder make --stencil-lab-on-path --platform prairielearn --exercise naive "
                           "--backend cpu --out " + (t.path / out).string() + " " + extra);
        CAPTURE(r.out);
        REQUIRE(r.code == 0);
        return read_json(t.path / out / "question" / "info.json");
    };
    const json a = pl("pl1", "--secret-file " + secret.string() + " --image me/grader:1");
    REQUIRE(fs::exists(secret));
    REQUIRE((fs::status(secret).permissions() & fs::perms::group_read) == fs::perms::none);
    const json b = pl("pl2", "--secret-file " + secret.string());
    REQUIRE(a["uuid"] == b["uuid"]);
    REQUIRE(a["externalGradingOptions"]["image"] == "me/grader:1");
    REQUIRE(pl("pl3", "")["uuid"] != a["uuid"]);  // a new secret, a new question
    const std::string html = slurp(t.path / "pl1" / "question" / "question.html");
    REQUIRE(html.find("<h1>Exercise: naive 7-point stencil</h1>") != std::string::npos);  // the statement itself
    REQUIRE(html.find("handout") == std::string::npos);
    REQUIRE(read_json(t.path / "pl1" / "question" / "tests" / "grading.json")["secret"] == slurp(secret).substr(0, 64));
    REQUIRE(sh("stencil-lab autograder make --stencil-lab-on-path --platform prairielearn --exercise naive --image 'Bad Name' "
               "--out " + (t.path / "pl4").string()).code == 2);
    // PrairieLearn's tests and Classroom's items: the maxima add up to 100 exactly
    const fs::path root = t.path / "grade";
    fs::create_directories(root);
    fs::copy(t.path / "pl1" / "question" / "tests", root / "tests", fs::copy_options::recursive);
    fs::create_directories(root / "student" / "sub");
    fs::copy_file(corpus("naive_big_n_wrong.cu"), root / "student" / "sub" / "k.cu");
    REQUIRE(sh("STENCIL_LAB_PLATFORM_ROOT=" + root.string() + " " + (root / "tests" / "run.sh").string()).code == 0);
    const json p = read_json(root / "results" / "results.json");
    double max = 0;
    for (const auto& test : p["tests"]) max += test["max_points"].get<double>();
    REQUIRE(max == 100);
    REQUIRE(p["output"].get<std::string>().find("graded by stencil-lab ") != std::string::npos);
    const Shell c = sh("stencil-lab autograder make --stencil-lab-on-path --platform classroom --exercise naive --backend cpu "
                       "--out " + (t.path / "cls").string());
    REQUIRE(c.code == 0);
    REQUIRE(c.out.find("GitHub Classroom has no hidden tests") != std::string::npos);
    REQUIRE_FALSE(read_json(t.path / "cls" / ".stencil-lab" / "grading.json").contains("secret"));
    fs::copy_file(corpus("naive_big_n_wrong.cu"), t.path / "cls" / "stencil.cu", fs::copy_options::overwrite_existing);
    REQUIRE(sh("cd " + (t.path / "cls").string() + " && .stencil-lab/grade visible").code == 0);
    const json k = read_json(t.path / "cls" / ".stencil-lab" / "results.json");
    max = 0;
    for (const auto& [name, item] : k["items"].items()) max += item["max_points"].get<double>();
    REQUIRE(max == 100);
    REQUIRE(k["max_score"] == 100);
}

TEST_CASE("version: --version, help COMMAND, and the version in check --json", "[grading][cli]") {
    const Shell v = sh("stencil-lab --version");
    REQUIRE(v.code == 0);
    REQUIRE(std::regex_match(v.out, std::regex("stencil-lab [0-9]+\\.[0-9]+\\.[0-9]+(\\+g[0-9a-f]+(\\.dirty)?)?\n")));
    const Shell c = sh("stencil-lab check " + corpus("naive_syntax_error.cu").string() + " -e naive --backend cpu --json");
    const json j = json::parse(c.out, nullptr, false);
    CAPTURE(c.out);
    REQUIRE(j.is_object());
    REQUIRE("stencil-lab " + j["stencil_lab_version"].get<std::string>() + "\n" == v.out);
    REQUIRE(j["exercise_hash"].get<std::string>().size() == 64);
    REQUIRE(j["seed"].is_string());
    REQUIRE(j["submission_sha256"] == stencil::file_sha256_hex(corpus("naive_syntax_error.cu").string()));
    const Shell h = sh("stencil-lab help autograder");
    REQUIRE(h.code == 0);
    REQUIRE(h.out.find("--secret-file") != std::string::npos);
    const Shell bad = sh("stencil-lab help nope");
    REQUIRE(bad.code == 2);
    REQUIRE(bad.out.find("help: unknown command 'nope'") != std::string::npos);
}

TEST_CASE("hidden seed: the drawn sizes and their cases come from it, the visible part from the seed", "[grading][cli]") {
    using namespace stencil::checker;
    // the field exercises' cases, made without a check: fixed cases equal, drawn sizes apart
    const Exercise* cardiac = find_exercise("cardiac-shared");
    REQUIRE(cardiac);
    int timing = -1;
    const auto a = make_field_cases(*cardiac, default_tile(*cardiac), 7, false, true, false, false, timing, 11);
    const auto b = make_field_cases(*cardiac, default_tile(*cardiac), 7, false, true, false, false, timing, 12);
    REQUIRE(a.size() == b.size());
    bool drawn_differ = false;
    for (size_t i = 0; i < a.size(); ++i) {
        CAPTURE(i, a[i].n, b[i].n);
        if (!a[i].drawn && !a[i].large) REQUIRE(a[i].n == b[i].n);
        drawn_differ = drawn_differ || (a[i].drawn && a[i].n != b[i].n);
    }
    REQUIRE(drawn_differ);
    // a star3d check: the same seed, two hidden seeds
    CheckOptions opt;
    opt.exercise = "naive";
    opt.backend = "cpu";
    opt.quick = true;
    opt.large_case = false;
    opt.seed = 5;
    opt.hidden_seed = 1;
    const CheckResult r1 = check_submission(corpus("naive_ok.cu").string(), opt);
    opt.hidden_seed = 2;
    const CheckResult r2 = check_submission(corpus("naive_ok.cu").string(), opt);
    CAPTURE(r1.drawn_sizes, r2.drawn_sizes);
    REQUIRE(r1.verdict == Verdict::pass);
    REQUIRE(r1.seed == r2.seed);
    REQUIRE(r1.drawn_sizes != r2.drawn_sizes);
    std::vector<std::string> v1, v2;  // the visible tests: the same sizes, schedules and schedule seeds
    for (const auto& t : r1.tests)
        if (!drawn_of(r1, t.size)) v1.push_back(t.name);
    for (const auto& t : r2.tests)
        if (!drawn_of(r2, t.size)) v2.push_back(t.name);
    REQUIRE(v1 == v2);
}

TEST_CASE("a course's own exercise folder: make ships it (no solution, no wrong kernels) and it grades there",
          "[grading][cli][exercise]") {
    TempDir t;
    const fs::path w = t.path;
    REQUIRE(sh("cd '" + w.string() + "' && stencil-lab exercise new my-heat --from heat2d").code == 0);
    const Shell made = sh("cd '" + w.string() + "' && stencil-lab autograder make --platform gradescope --exercise my-heat "
                          "--out bundle --stencil-lab-on-path");
    CAPTURE(made.out);
    REQUIRE(made.code == 0);
    const fs::path root = w / "autograder";
    unzip(w / "bundle" / "autograder.zip", root / "source");
    const fs::path shipped = root / "source" / "exercise" / "my-heat";
    CHECK(fs::is_regular_file(shipped / "exercise.toml"));
    CHECK(fs::is_regular_file(shipped / "stencil.cu"));
    CHECK(fs::is_regular_file(shipped / "solution-counts.json"));  // the budget without the solution
    CHECK(!fs::exists(shipped / "solution.cu"));
    CHECK(!fs::exists(shipped / "wrong"));
    CHECK(read_json(root / "source" / "grading.json")["exercise_folder"] == "exercise/my-heat");
    // graded on the platform, from another folder: the shipped exercise, its budget from the counts
    fs::create_directories(root / "submission" / "src");
    fs::create_directories(root / "results");
    fs::copy_file(w / "my-heat" / "solution.cu", root / "submission" / "src" / "mine.cu");
    const Shell ran = sh("cd / && STENCIL_LAB_PLATFORM_ROOT='" + root.string() + "' stencil-lab autograder run --platform "
                         "gradescope --config '" + (root / "source" / "grading.json").string() + "' --root '" +
                         root.string() + "'");
    CAPTURE(ran.out);
    REQUIRE(ran.code == 0);
    const json res = read_json(root / "results" / "results.json");
    CHECK(res["score"].get<double>() == 100);
    // a wrong kernel's results (a finding, its hint, the seed's command): the exercise named by the
    // folder's name, never by where the platform unpacked it
    fs::remove_all(root / "submission");
    fs::create_directories(root / "submission");
    fs::copy_file(w / "my-heat" / "wrong" / "off_by_one.cu", root / "submission" / "stencil.cu");
    REQUIRE(sh("STENCIL_LAB_PLATFORM_ROOT='" + root.string() + "' stencil-lab autograder run --platform gradescope "
               "--config '" + (root / "source" / "grading.json").string() + "' --root '" + root.string() + "'").code == 0);
    const json wrong = read_json(root / "results" / "results.json");
    std::string seen = wrong["output"].get<std::string>() + "\n" + wrong["extra_data"]["graded_by"].dump();
    for (const auto& test : wrong["tests"]) seen += "\n" + test["name"].get<std::string>() + "\n" + test["output"].get<std::string>();
    CAPTURE(seen);
    CHECK(wrong["score"].get<double>() < 100);
    CHECK(seen.find(root.string()) == std::string::npos);
    CHECK(seen.find("source/exercise") == std::string::npos);
    CHECK(seen.find("--exercise my-heat ") != std::string::npos);
    CHECK(seen.find("my-heat/README.md") != std::string::npos);  // the hint's file, as the student has it
    CHECK(wrong["extra_data"]["graded_by"]["exercise"] == "my-heat");
    // PrairieLearn's question: titled by the folder's name, its UUID the same however the folder is given
    const auto pl = [&](const std::string& cwd, const std::string& folder, const std::string& out) {
        const Shell m = sh("cd '" + cwd + "' && stencil-lab autograder make --stencil-lab-on-path --platform prairielearn "
                           "--exercise '" + folder + "' --secret-file '" + (w / "secret").string() + "' --out '" +
                           (w / out).string() + "'");
        CAPTURE(m.out);
        REQUIRE(m.code == 0);
        return read_json(w / out / "question" / "info.json");
    };
    const json relative = pl(w.string(), "my-heat", "pl1");
    const json absolute = pl("/", (w / "my-heat").string(), "pl2");
    CHECK(relative["title"] == "stencil-lab: my-heat");
    CHECK(absolute["uuid"] == relative["uuid"]);
    // a folder that does not validate is refused, and nothing is written
    std::ofstream(w / "my-heat" / "wrong" / "passes.cu") << "// expect: race\n" << slurp(w / "my-heat" / "solution.cu");
    const Shell refused = sh("cd '" + w.string() + "' && stencil-lab autograder make --platform gradescope --exercise "
                             "my-heat --out bundle2 --stencil-lab-on-path");
    CAPTURE(refused.out);
    CHECK(refused.code == 2);
    CHECK(refused.out.find("does not validate") != std::string::npos);
    CHECK(!fs::exists(w / "bundle2"));
}

TEST_CASE("gradescope: every test's max_score, visible and hidden, adds up to the bundle's total exactly",
          "[grading][cli]") {
    // A total and shares that do not divide evenly, in hundredths, and the time item rescaled away
    // (no GPU): the shares' remainders must still land on the total, hidden tests included.
    TempDir t;
    std::ofstream(t.path / "rubric.json") << R"({"exercise": "naive", "total": 37, "points": "hundredths",
        "items": {"visible": {"points": 13.33}, "hidden": {"points": 11.11}, "loads": {"points": 5.55},
                  "clean": {"points": 3.67}, "time": {"points": 3.34}}})";
    const Shell m = sh("stencil-lab autograder make --stencil-lab-on-path --platform gradescope --exercise naive --backend cpu "
                       "--rubric " + (t.path / "rubric.json").string() + " --out " + (t.path / "b").string());
    CAPTURE(m.out);
    REQUIRE(m.code == 0);
    const fs::path root = t.path / "autograder";
    unzip(t.path / "b" / "autograder.zip", root / "source");
    const double total = read_json(root / "source" / "grading.json")["rubric"]["total"].get<double>();
    REQUIRE(total == 37);
    fs::create_directories(root / "submission");
    fs::copy_file(corpus("naive_big_n_wrong.cu"), root / "submission" / "stencil.cu");
    REQUIRE(sh("STENCIL_LAB_PLATFORM_ROOT=" + root.string() + " " + (root / "source" / "run_autograder").string()).code == 0);
    const json res = read_json(root / "results" / "results.json");
    REQUIRE(platform_specs::gradescope_violation(res) == "");
    long long max_hundredths = 0, got_hundredths = 0;
    int visible = 0, hidden = 0;
    for (const auto& test : res["tests"]) {
        const double max = test["max_score"].get<double>();
        CAPTURE(test.dump());
        REQUIRE(std::abs(max * 100 - std::round(max * 100)) < 1e-6);  // a whole number of hundredths
        max_hundredths += std::llround(max * 100);
        got_hundredths += std::llround(test["score"].get<double>() * 100);
        visible += test["tags"][0] == "visible";
        hidden += test["tags"][0] == "hidden";
    }
    REQUIRE(visible > 0);
    REQUIRE(hidden > 0);
    REQUIRE(max_hundredths == std::llround(total * 100));
    REQUIRE(got_hundredths == std::llround(res["score"].get<double>() * 100));
    REQUIRE(got_hundredths < max_hundredths);  // the hidden sizes it fails cost their shares
}
