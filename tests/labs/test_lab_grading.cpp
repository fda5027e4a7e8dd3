// The labs' grading library (labs/grading): each lab's key passes its own check, with and without
// the GPU's figures; a wrong answer is flagged with the slip that produces it; a missing one is
// reported; malformed files are refused in one line; the handouts name every question.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

#include "analysis/derivative_tiles.h"
#include "core/error.h"
#include "labs/grading/course.h"
#include "labs/grading/grade.h"

using namespace stencil::labs;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const std::string kSweepResults = std::string(STENCIL_LAB_SOURCE_DIR) + "/docs/results/h100-sweep-256-f32/results.json";
const std::string kRuns = std::string(STENCIL_LAB_SOURCE_DIR) + "/docs/results/h100-run-512.jsonl";

int gpu_questions(int lab) {
    int n = 0;
    for (const Question* q : questions_of_lab(lab)) n += q->gpu;
    return n;
}

const GradedAnswer& graded(const LabGrade& g, const std::string& id) {
    for (const auto& a : g.answers)
        if (a.question->id == id) return a;
    FAIL("no graded answer " << id);
    throw std::logic_error("unreachable");
}

// The lab's key with one answer replaced.
LabGrade grade_with(int lab, const std::string& id, const json& value) {
    json answers = answer_key(lab, nullptr, default_params(lab))["answers"];
    answers[id] = value;
    return grade_lab(lab, answers, nullptr, default_params(lab));
}

fs::path write_temp(const std::string& name, const std::string& text) {
    const fs::path p = fs::temp_directory_path() / ("stencil_labs_" + std::to_string(::getpid()) + "_" + name);
    std::ofstream(p) << text;
    return p;
}

}  // namespace

TEST_CASE("labs: the question bank is well formed", "[labs]") {
    std::set<std::string> ids;
    for (const Question& q : question_bank()) {
        CAPTURE(q.id);
        REQUIRE(ids.insert(q.id).second);
        REQUIRE(q.id.rfind("l" + std::to_string(q.lab) + ".", 0) == 0);
        REQUIRE((q.kind != AnswerKind::choice || q.choices.size() >= 2));
        REQUIRE(bool(q.compute));
    }
    for (int lab = 1; lab <= kLabCount; ++lab) {
        CAPTURE(lab);
        REQUIRE(questions_of_lab(lab).size() >= 5);
    }
}

TEST_CASE("labs: every lab's key is graded all right, GPU questions waiting without --results", "[labs]") {
    const int lab = GENERATE(range(1, kLabCount + 1));
    CAPTURE(lab);
    const json key = answer_key(lab, nullptr, default_params(lab));
    const LabGrade g = grade_lab(lab, key["answers"], nullptr, default_params(lab));
    REQUIRE(g.passed());
    REQUIRE(g.count(Verdict::wrong) == 0);
    REQUIRE(g.count(Verdict::missing) == 0);
    REQUIRE(g.count(Verdict::needs_gpu) == gpu_questions(lab));
    REQUIRE(g.count(Verdict::right) == int(questions_of_lab(lab).size()) - gpu_questions(lab));
    for (const auto& a : g.answers)
        if (a.verdict == Verdict::needs_gpu) REQUIRE(a.why.rfind("needs a GPU run: ", 0) == 0);
}

TEST_CASE("labs: with the H100's sweep every question has a key and the key passes", "[labs]") {
    const GpuResults gpu = load_gpu_results(kSweepResults);
    REQUIRE(gpu.device == "NVIDIA H100 80GB HBM3");
    const int lab = GENERATE(range(1, kLabCount + 1));
    CAPTURE(lab);
    const json key = answer_key(lab, &gpu, default_params(lab));
    REQUIRE_FALSE(key.contains("needs_gpu"));
    const LabGrade g = grade_lab(lab, key["answers"], &gpu, default_params(lab));
    REQUIRE(g.passed());
    REQUIRE(g.count(Verdict::right) == int(questions_of_lab(lab).size()));
}

TEST_CASE("labs: GPU figures come from the results file, not from the model", "[labs]") {
    const GpuResults sweep = load_gpu_results(kSweepResults);
    const json k1 = answer_key(1, &sweep, default_params(1))["answers"];
    // The sweep's naive run: DRAM saw about 3 FLOP per byte read, the model 13/28.
    REQUIRE(k1["l1.dram-opb"].get<double>() == Approx(3.0219).epsilon(1e-3));
    REQUIRE(k1["l1.copy-ratio"].get<double>() == Approx(0.5334).epsilon(1e-3));
    REQUIRE(k1["l1.bound"] == "memory");
    const json k2 = answer_key(2, &sweep, default_params(2))["answers"];
    REQUIRE(k2["l2.tiled-faster"] == "no");
    // JSON lines from `run --json`: bandwidths, but no DRAM counters, and no FMA figure.
    const GpuResults runs = load_gpu_results(kRuns);
    REQUIRE(runs.runs.size() == 18);
    const json r1 = answer_key(1, &runs, default_params(1));
    REQUIRE(r1["answers"]["l1.copy-ratio"].get<double>() == Approx(0.5262).epsilon(1e-3));
    REQUIRE(r1["needs_gpu"]["l1.dram-opb"].get<std::string>().find("no DRAM counters") != std::string::npos);
    REQUIRE(answer_key(3, &runs, default_params(3))["answers"]["l3.registers-compiler"] == 32);
}

TEST_CASE("labs: a wrong answer is flagged with the slip that produces it", "[labs]") {
    struct Case {
        int lab;
        std::string id;
        json given;
        std::string says;
    };
    const json k1 = answer_key(1, nullptr, default_params(1))["answers"], k2 = answer_key(2, nullptr, default_params(2))["answers"];
    const Case c = GENERATE_COPY(
        Case{1, "l1.opb-f64", k1["l1.opb"], "0.2321 expected within 1%, got 0.4643: you gave the fp32 figure for fp64"},
        Case{1, "l1.opb", 0.5, "counts 14 FLOP per output"},
        Case{1, "l1.sectors-interior", 4, "4 counts rows, not sectors"},
        Case{2, "l2.halo-3d", 57.8, "that is a percentage"},
        Case{2, "l2.halo-3d", k2["l2.halo-2d"], "the 2D tile's share"},
        Case{2, "l2.limit", 3.5, "points / 2"},
        Case{2, "l2.opb-t8", "a lot", "\"a lot\" is not a number"},
        Case{4, "l4.ghost-slides", 64, "what the slides' code loads"},
        Case{4, "l4.ghost-code", 68, "the corners"},
        Case{5, "l5.reload-16x16", 0.25, "one halo strip"},
        Case{5, "l5.weight-b", 0.2, "the sign is wrong"},
        Case{5, "l5.coalesced-64x4", "maybe", "is not one of the choices (yes, no)"},
        Case{5, "l5.coalesced-16x16", "yes", "'no' expected, got 'yes'"},
        Case{2, "l2.opb-t6", 0.7, "0.963 expected within 1%, got 0.7"});
    CAPTURE(c.id, c.given);
    const LabGrade g = grade_with(c.lab, c.id, c.given);
    const GradedAnswer& a = graded(g, c.id);
    CAPTURE(a.why, a.detail);
    REQUIRE(a.verdict == Verdict::wrong);
    // the instructor's detail has the slip and the key; the student's words have the slip only
    REQUIRE(a.detail.find(c.says) != std::string::npos);
    REQUIRE(a.why.find("expected") == std::string::npos);
    if (c.says.find("expected") == std::string::npos) REQUIRE(a.why.find(c.says) != std::string::npos);
    REQUIRE_FALSE(g.passed());
}

TEST_CASE("labs: answers may be written as fractions, percentages and rounded figures", "[labs]") {
    REQUIRE(graded(grade_with(1, "l1.opb", "13/28"), "l1.opb").verdict == Verdict::right);
    REQUIRE(graded(grade_with(1, "l1.opb", 0.46), "l1.opb").verdict == Verdict::right);       // 0.9% off
    REQUIRE(graded(grade_with(1, "l1.opb", 0.459), "l1.opb").verdict == Verdict::wrong);      // 1.1% off
    REQUIRE(graded(grade_with(2, "l2.halo-3d", "57.8%"), "l2.halo-3d").verdict == Verdict::right);
    REQUIRE(graded(grade_with(5, "l5.weight-c", "4/105"), "l5.weight-c").verdict == Verdict::right);
    REQUIRE(graded(grade_with(5, "l5.order", 8), "l5.order").verdict == Verdict::right);
    REQUIRE(graded(grade_with(3, "l3.binding-f64-r4", "Shared memory"), "l3.binding-f64-r4").verdict ==
            Verdict::right);
    REQUIRE(graded(grade_with(2, "l2.largest-t", 10.0), "l2.largest-t").verdict == Verdict::right);
    REQUIRE(graded(grade_with(2, "l2.largest-t", 9.9), "l2.largest-t").verdict == Verdict::wrong);
}

TEST_CASE("labs: a course's secret picks each lab's parameters, and the key follows them", "[labs]") {
    // the handouts' values without a course
    REQUIRE(course_params(2, nullptr).values == default_params(2).values);
    REQUIRE(default_params(2).get("T3") == 8);
    // a course draws every parameter from its options, the same way every time
    int differ = 0;
    for (int i = 0; i < 8; ++i) {
        const Course c = new_course("test");
        const LabParams p = course_params(2, &c);
        REQUIRE(p.values == course_params(2, &c).values);
        for (const ParamSpec& s : param_specs())
            if (s.lab == 2) REQUIRE(std::find(s.options.begin(), s.options.end(), p.get(s.name)) != s.options.end());
        if (p.values != default_params(2).values) {
            ++differ;
            // the course's key is graded right at the course's parameters
            const json key = answer_key(2, nullptr, p)["answers"];
            REQUIRE(grade_lab(2, key, nullptr, p).passed());
        }
    }
    REQUIRE(differ > 0);  // 8 courses all on the handout's values: a chance of (1/18)^8
    // the question's text names the course's value
    const Question* q = find_question("l2.halo-3d");
    LabParams p = default_params(2);
    p.values["T3"] = 6;
    REQUIRE(question_text(*q, p).find("a 6^3 input tile") != std::string::npos);
    // a course file with an unknown key, or a short secret, is one line naming the key
    REQUIRE_THROWS_WITH(parse_course(json{{"secret", std::string(32, 'a')}, {"practise", true}}, "c.json"),
                        Catch::Contains("course file c.json: practise: unknown key"));
    REQUIRE_THROWS_WITH(parse_course(json{{"secret", "abc"}}, "c.json"), Catch::Contains("secret: must be 32 or more hex"));
}

TEST_CASE("labs: a missing answer and an id of another lab are reported", "[labs]") {
    json answers = answer_key(3, nullptr, default_params(3))["answers"];
    answers.erase("l3.registers-27pt");
    LabGrade g = grade_lab(3, answers, nullptr, default_params(3));
    REQUIRE(g.count(Verdict::missing) == 1);
    REQUIRE(graded(g, "l3.registers-27pt").verdict == Verdict::missing);
    REQUIRE_FALSE(g.passed());
    answers = answer_key(3, nullptr, default_params(3))["answers"];
    answers["l2.opb-t8"] = 1.37;
    g = grade_lab(3, answers, nullptr, default_params(3));
    REQUIRE(g.unknown_ids == std::vector<std::string>{"l2.opb-t8"});
    REQUIRE_FALSE(g.passed());
}

TEST_CASE("labs: unreadable and malformed files are one-line user errors", "[labs]") {
    const auto one_line_error = [](const std::function<void()>& f, const std::string& says) {
        try {
            f();
        } catch (const stencil::UserError& e) {
            const std::string m = e.what();
            CAPTURE(m);
            REQUIRE(m.find('\n') == std::string::npos);
            REQUIRE(m.find(says) != std::string::npos);
            return;
        }
        FAIL("no UserError");
    };
    one_line_error([] { read_answer_file("/nonexistent/answers.json"); }, "cannot be read");
    const fs::path bad = write_temp("bad.json", "{\"answers\": {\"l1.opb\": 0.46,}");
    one_line_error([&] { read_answer_file(bad.string()); }, "not JSON");
    const fs::path no_answers = write_temp("noanswers.json", "{\"l1.opb\": 0.46}");
    one_line_error([&] { read_answer_file(no_answers.string()); }, "no \"answers\" object");
    const fs::path not_results = write_temp("results.json", "{\"results\": []}");
    one_line_error([&] { load_gpu_results(not_results.string()); }, "no timed CUDA run");
    one_line_error([] { grade_lab(6, json::object(), nullptr, default_params(1)); }, "lab must be between 1 and 5");
    fs::remove(bad);
    fs::remove(no_answers);
    fs::remove(not_results);
}

TEST_CASE("labs: text 004's reload shares and text 002's ghost counts", "[labs][analysis]") {
    const auto tiles = stencil::analysis::derivative_tile_table(64, 4);
    REQUIRE(stencil::analysis::derivative_tile(tiles, "16x16").shape.reload_share == 0.5);
    REQUIRE(stencil::analysis::derivative_tile(tiles, "64x4").shape.reload_share == 0);
    REQUIRE(stencil::analysis::derivative_tile(tiles, "64x4").shape.fully_coalesced);
    REQUIRE_FALSE(stencil::analysis::derivative_tile(tiles, "16x16").shape.fully_coalesced);
    const json k4 = answer_key(4, nullptr, default_params(4))["answers"];
    REQUIRE(k4["l4.ghost-slides"] == 60);
    REQUIRE(k4["l4.ghost-code"] == 64);
}

TEST_CASE("labs: each handout names every question of its lab and prints no key", "[labs]") {
    const fs::path dir = fs::path(STENCIL_LAB_SOURCE_DIR) / "labs";
    for (int lab = 1; lab <= kLabCount; ++lab) {
        CAPTURE(lab);
        fs::path handout;
        for (const auto& e : fs::directory_iterator(dir))
            if (e.path().filename().string().rfind("lab" + std::to_string(lab) + "-", 0) == 0) handout = e.path();
        REQUIRE(!handout.empty());
        std::stringstream text;
        text << std::ifstream(handout).rdbuf();
        const std::string s = text.str();
        REQUIRE(s.find("stencil-lab lab check " + std::to_string(lab)) != std::string::npos);
        for (const Question* q : questions_of_lab(lab)) {
            CAPTURE(q->id);
            REQUIRE(s.find("`" + q->id + "`") != std::string::npos);
            // A key of four significant figures or more would be the answer printed inline.
            const json k = *q->compute(nullptr, default_params(lab)).value;
            if (k.is_number_float()) {
                char buf[32];
                std::snprintf(buf, sizeof buf, "%.3f", k.get<double>());
                REQUIRE(s.find(buf) == std::string::npos);
            }
        }
    }
}
