// Feedback that names the student's line (issue 28, the CPU backend): every failing verdict's
// Evidence::sources names the statement(s) behind it, in the text and the JSON; check --explain's
// backward slice ends at the statement that is wrong. Each expectation is the exact line of the
// corpus file (tests/checker/submissions), so a slice that stops one statement early fails.
#include <catch2/catch.hpp>

#include <string>

#include "checker/checker.h"
#include "tests/checker/checker_corpus.h"

using namespace stencil::checker;

namespace {

CheckOptions options(const std::string& exercise, bool explain = false) {
    CheckOptions o;
    o.exercise = exercise;
    o.backend = "cpu";
    o.quick = true;
    o.large_case = false;
    o.seed = 1;
    o.explain = explain;
    return o;
}

const SourceRef* find_source(const CheckResult& r, const std::string& role_part) {
    for (const SourceRef& s : r.evidence.sources)
        if (s.role.find(role_part) != std::string::npos) return &s;
    return nullptr;
}

// The source is in the text (" at FILE:LINE (ROLE") and in the JSON's evidence.sources.
void check_reported(const CheckResult& r, const SourceRef& s) {
    const std::string text = to_text(r);
    CAPTURE(text);
    CHECK(text.find(" at " + s.file + ":" + std::to_string(s.line) + " (" + s.role) != std::string::npos);
    const auto j = to_json(r);
    bool found = false;
    for (const auto& x : j["evidence"]["sources"])
        found = found || (x["source_file"] == s.file && x["source_line"] == s.line && x["role"] == s.role);
    CHECK(found);
}

struct Named {
    const char* file;
    const char* exercise;
    const char* verdict;
    const char* role;  // a part of the source's role
    int line;
};

// The last step of the slice, and its line.
int last_line(const CheckResult& r) {
    REQUIRE(!r.evidence.explain.empty());
    const ExplainStep& s = r.evidence.explain.back();
    REQUIRE(s.at.has_value());
    return s.at->line;
}

}  // namespace

TEST_CASE("feedback: every failing verdict names the line of the student's file", "[exercise]") {
    const Named c = GENERATE(values<Named>({
        {"naive_off_by_one.cu", "naive", "wrong_result", "wrote the bad cell", 7},
        {"naive_skips_cell.cu", "naive", "unwritten", "store to out[] that never ran", 7},
        {"naive_writes_boundary.cu", "naive", "boundary_modified", "wrote the boundary cell", 16},
        {"naive_writes_input.cu", "naive", "input_modified", "store to in[]", 15},
        {"naive_pads_past_end.cu", "naive", "out_of_bounds_write", "out-of-bounds store", 15},
        {"naive_null_deref.cu", "naive", "crash", "crashed", 6},  // (the trap NVRTC made of the null store)
        {"naive_endless_loop.cu", "naive", "timeout", "spinning", 0},
        {"tiled_no_sync.cu", "tiled", "race", "store", 8},
        {"tiled_no_sync.cu", "tiled", "race", "load", 0},
    }));
    CAPTURE(c.file, c.verdict, c.role, c.line);
    CheckOptions o = options(c.exercise);
    if (std::string(c.verdict) == "timeout") o.time_limit_s = 6;
    const CheckResult r = check_submission(corpus(c.file), o);
    CAPTURE(to_text(r));
    REQUIRE(std::string(to_string(r.verdict)) == c.verdict);
    const SourceRef* s = find_source(r, c.role);
    REQUIRE(s != nullptr);
    CHECK(s->file == c.file);
    if (c.line > 0) CHECK(s->line == c.line);
    else if (std::string(c.verdict) == "timeout") CHECK((s->line >= 7 && s->line <= 14));  // in the loop
    else CHECK((s->line >= 14 && s->line <= 20));  // one of the stencil's tile reads
    CHECK(s->thread.has_value() == (std::string(c.verdict) != "unwritten"));
    check_reported(r, *s);
    REQUIRE(r.evidence.line.has_value());  // (Evidence::line: the first statement, as before)
}

TEST_CASE("feedback: a race names both statements, the store first, each with its thread", "[exercise]") {
    const CheckResult r = check_submission(corpus("tiled_no_sync.cu"), options("tiled"));
    REQUIRE(r.verdict == Verdict::race);
    REQUIRE(r.evidence.sources.size() == 2);
    CHECK(r.evidence.sources[0].role == "store");
    CHECK(r.evidence.sources[0].line == 8);
    CHECK(r.evidence.sources[1].role == "load");
    CHECK(r.evidence.sources[0].thread != r.evidence.sources[1].thread);
    CHECK(r.evidence.message.find("tiled_no_sync.cu:8") != std::string::npos);
}

TEST_CASE("feedback: --explain's slice ends at the line that is wrong", "[exercise]") {
    struct Shape {
        const char* file;
        const char* exercise;
        int wrong_line;
        const char* says;  // a part of the last step's text
    };
    const Shape c = GENERATE(values<Shape>({
        {"naive_off_by_one.cu", "naive", 13, "not a cell the stencil reads"},    // wrong neighbour index
        {"tiled_no_halo.cu", "tiled", 9, "did not run"},                          // skipped halo load
        {"tiled_no_sync.cu", "tiled", 8, "no __syncthreads()"},                  // missing barrier
        {"naive_writes_boundary.cu", "naive", 7, "condition at line 7"},          // wrong boundary test
        {"naive_skips_cell.cu", "naive", 6, "did not run"},                       // a loop bound / guard off by one
        {"register_tiled_f64_float_sum.cu", "register-tiled-f64", 25, "rounded to float"},  // float accumulator
        {"cardiac_shared_wrong_ghost.cu", "cardiac-shared", 15, "wrong place"},               // a wrong ghost cell
    }));
    CAPTURE(c.file, c.wrong_line);
    const CheckResult r = check_submission(corpus(c.file), options(c.exercise, true));
    CAPTURE(to_text(r));
    REQUIRE(r.verdict != Verdict::pass);
    CHECK(last_line(r) == c.wrong_line);
    CHECK(r.evidence.explain.back().text.find(c.says) != std::string::npos);
    CHECK((r.evidence.explain.front().text.find("out(") == 0 || r.evidence.explain.front().text.find("E(") == 0));
    CHECK(to_json(r)["evidence"]["explain"].size() == r.evidence.explain.size());
}

TEST_CASE("feedback: a never-stored shared read the output depends on is a cause, not 'harmless'", "[exercise]") {
    const CheckResult r = check_submission(corpus("tiled_no_halo.cu"), options("tiled"));
    REQUIRE(r.verdict != Verdict::pass);
    for (const auto& w : r.warnings) CHECK(w.find("harmless") == std::string::npos);
    const SourceRef* s = find_source(r, "condition");
    REQUIRE(s != nullptr);
    CHECK(s->line == 9);
}

TEST_CASE("feedback: --explain on a verdict the engine decided names its statement", "[exercise]") {
    const CheckResult r = check_submission(corpus("naive_writes_input.cu"), options("naive", true));
    REQUIRE(r.verdict == Verdict::input_modified);
    CHECK(last_line(r) == 15);
    CHECK(r.evidence.sources.size() == 1);  // (no replay: the engine's diagnostic has the store)
}

TEST_CASE("feedback: without --explain the slice is not filled", "[exercise]") {
    const CheckResult r = check_submission(corpus("naive_off_by_one.cu"), options("naive"));
    REQUIRE(r.verdict == Verdict::wrong_result);
    CHECK(r.evidence.explain.empty());
}
