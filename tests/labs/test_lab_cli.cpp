// `stencil-lab lab check|key|params|course` through the built binary: the key is the instructor's
// (it needs the course file) and, printed with --json, is an answer file that passes (exit 0); a
// wrong answer exits 1 and says why in words, the expected value only in a practice course; usage
// errors and malformed files exit 2 with one line; GPU questions without --results wait and are
// not counted wrong.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>

#include "tests/cli/run_cli.h"

using namespace cli_test;

namespace {

const std::string kSweep = std::string(STENCIL_LAB_SOURCE_DIR) + "/docs/results/h100-sweep-256-f32/results.json";

fs::path temp_file(const std::string& name, const std::string& text) {
    const fs::path p = fs::temp_directory_path() / ("stencil_lab_cli_" + std::to_string(::getpid()) + "_" + name);
    std::ofstream(p) << text;
    return p;
}

void require_usage_error(const std::string& args, const std::string& says) {
    CAPTURE(args);
    const Result r = run(args);
    CAPTURE(r.code, r.err, r.out);
    REQUIRE(r.code == 2);
    REQUIRE(r.err_lines() == 1);
    REQUIRE(contains(r.first_err_line(), "stencil-lab: "));
    REQUIRE(contains(r.err, says));
    REQUIRE(r.out.empty());
}

// A course file (the instructor's), made by `lab course`; `practice` rewritten when asked.
fs::path course(bool practice = false) {
    const fs::path p = fs::temp_directory_path() / ("stencil_lab_course_" + std::to_string(::getpid()) +
                                                    (practice ? "_practice" : "") + ".json");
    if (!fs::exists(p)) {
        REQUIRE(run("lab course --out " + p.string()).code == 0);
        if (practice) {
            auto j = nlohmann::json::parse(slurp(p));
            j["practice"] = true;
            std::ofstream(p) << j.dump();
        }
    }
    return p;
}

}  // namespace

TEST_CASE("lab cli: every lab's key passes its own check at the course's parameters", "[labs][cli]") {
    const std::string c = " --course " + course().string();
    for (int lab = 1; lab <= 5; ++lab) {
        CAPTURE(lab);
        const Result key = run("lab key " + std::to_string(lab) + " --json" + c);
        REQUIRE(key.code == 0);
        const fs::path f = temp_file("key" + std::to_string(lab) + ".json", key.out);
        const Result check = run("lab check " + std::to_string(lab) + " " + f.string() + c);
        CAPTURE(check.out, check.err);
        REQUIRE(check.code == 0);
        REQUIRE(contains(check.out, "0 wrong, 0 missing"));
        REQUIRE(contains(check.out, "passed"));
        fs::remove(f);
    }
}

TEST_CASE("lab cli: GPU questions wait for --results and then have a key", "[labs][cli]") {
    const std::string c = " --course " + course().string();
    const Result without = run("lab key 1" + c);
    REQUIRE(without.code == 0);
    REQUIRE(contains(without.out, "needs a GPU run"));
    const Result j = run("lab key 1 --json --results " + kSweep + c);
    REQUIRE(j.code == 0);
    const auto key = nlohmann::json::parse(j.out);
    REQUIRE(key["answers"].contains("l1.copy-ratio"));
    const fs::path f = temp_file("gpu.json", j.out);
    // Graded without the results, the GPU answers wait: not wrong, and the check passes.
    const Result no_results = run("lab check 1 " + f.string() + " --json" + c);
    REQUIRE(no_results.code == 0);
    const auto g = nlohmann::json::parse(no_results.out);
    REQUIRE(g["wrong"] == 0);
    REQUIRE(g["needs_gpu"] == 3);
    REQUIRE(run("lab check 1 " + f.string() + " --results " + kSweep + c).code == 0);
    fs::remove(f);
}

TEST_CASE("lab cli: a wrong and a missing answer exit 1 and say why, the value only in practice", "[labs][cli]") {
    auto key = nlohmann::json::parse(run("lab key 2 --json --course " + course().string()).out);
    key["answers"]["l2.opb-t8"] = key["answers"]["l2.opb-t8"].get<double>() / 2;  // the fp64 figure
    key["answers"].erase("l2.limit");
    const fs::path f = temp_file("wrong.json", key.dump());
    // a student without the instructor's file, or with it but no practice: words, no value
    for (const std::string& c : {std::string(), " --course " + course().string()}) {
        const Result r = run("lab check 2 " + f.string() + c);
        CAPTURE(c, r.out);
        REQUIRE(r.code == 1);
        REQUIRE(contains(r.out, "WRONG    l2.opb-t8: 0.6855 is not within the question's tolerance (within 1%): you gave "
                                "the fp64 figure for fp32"));
        REQUIRE_FALSE(contains(r.out, "1.371"));
        REQUIRE(contains(r.out, "MISSING  l2.limit"));
        REQUIRE(contains(r.out, "not passed"));
        const Result j = run("lab check 2 " + f.string() + c + " --json");
        REQUIRE_FALSE(nlohmann::json::parse(j.out)["answers"][0].contains("expected"));
    }
    // a practice course shows the expected value
    const Result p = run("lab check 2 " + f.string() + " --course " + course(true).string());
    CAPTURE(p.out);
    REQUIRE(contains(p.out, "WRONG    l2.opb-t8: 1.371 expected within 1%, got 0.6855: you gave the fp64 figure for fp32"));
    fs::remove(f);
}

TEST_CASE("lab cli: the key is the instructor's; params is the students' sheet; a course file is never overwritten",
          "[labs][cli]") {
    require_usage_error("lab key 2", "lab key 2 prints the instructor's key: give the course file");
    const Result params = run("lab params 2 --course " + course().string());
    REQUIRE(params.code == 0);
    REQUIRE(contains(params.out, "l2.halo-3d"));
    REQUIRE(contains(params.out, "the course's"));
    REQUIRE_FALSE(contains(params.out, "{T3}"));
    const Result handout = run("lab params 2");
    REQUIRE(contains(handout.out, "a 8^3 input tile"));
    require_usage_error("lab course --out " + course().string(), "a course file is never overwritten");
    const fs::path bad = temp_file("badcourse.json", "{\"secret\": \"00\"}");
    require_usage_error("lab check 2 x.json --course " + bad.string(), "secret: must be 32 or more hex digits");
    fs::remove(bad);
}

TEST_CASE("lab cli: usage errors and malformed files are one line and exit 2", "[labs][cli]") {
    const fs::path bad = temp_file("bad.json", "{\"answers\": [1, 2");
    require_usage_error("lab check 1 " + bad.string(), "not JSON");
    const fs::path no_answers = temp_file("none.json", "[]");
    require_usage_error("lab check 1 " + no_answers.string(), "no \"answers\" object");
    require_usage_error("lab check 1 /nonexistent/a.json", "cannot be read");
    require_usage_error("lab check 6 x.json", "lab must be between 1 and 5 (got '6')");
    require_usage_error("lab check 1", "lab check needs the answer file");
    require_usage_error("lab key 1 extra.json", "lab key takes no file");
    require_usage_error("lab grade 1", "action must be check, key, params or course (got 'grade')");
    require_usage_error("lab", "action is required");
    require_usage_error("lab key 1 --backend fpga", "--backend must be auto, cuda or cpu (got 'fpga')");
    require_usage_error("lab key 1 --results " + bad.string(), "line 1 is not JSON");
    fs::remove(bad);
    fs::remove(no_answers);
}

TEST_CASE("model --problem derivative: text 004's reload share per tile", "[labs][cli]") {
    const Result r = run("model --problem derivative --json");
    CAPTURE(r.err);
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    std::map<std::string, double> share;
    for (const auto& t : j["tiles"]) share[t["tile"].get<std::string>()] = t["reload_share"].get<double>();
    REQUIRE(share.at("16x16") == 0.5);
    REQUIRE(share.at("64x4") == 0);
    require_usage_error("model --problem cardiac", "--problem must be one of star3d");
    require_usage_error("model --problem derivative --kernel naive", "drop --kernel");
}
