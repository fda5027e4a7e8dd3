// Feedback that names the student's line (issue 28, the CPU backend): every failing verdict's
// Evidence::sources names the statement(s) behind it, in the text and the JSON; check --explain's
// backward slice ends at the statement that is wrong. Each expectation is the exact line of the
// corpus file (tests/checker/submissions), so a slice that stops one statement early fails.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>

#include <string>

#include "checker/causes.h"
#include "checker/checker.h"
#include "checker/effective_stencil.h"
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
        {"naive_off_by_one.cu", "naive", 13, "c6 multiplies in(x, y+1, z+1) at line 13"},  // wrong neighbour index
        {"tiled_no_halo.cu", "tiled", 9, "did not run"},                          // skipped halo load
        {"tiled_no_sync.cu", "tiled", 8, "no __syncthreads()"},                  // missing barrier
        {"naive_writes_boundary.cu", "naive", 7, "condition at line 7"},          // wrong boundary test
        {"naive_skips_cell.cu", "naive", 6, "did not run"},                       // a loop bound / guard off by one
        {"register_tiled_f64_float_sum.cu", "register-tiled-f64", 25, "rounded to float"},  // float accumulator
        {"cardiac_shared_wrong_ghost.cu", "cardiac-shared", 15, "wrong place"},               // a wrong ghost cell
        {"coarsened_prev_plane.cu", "coarsened", 10, "wrong place"},  // the previous plane loaded from iStart - 2
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

// ---- issue 44: the effective stencil, the verdict of an unstored read, lines for every cause ----

namespace {

struct StencilShapeCase {
    const char* file;
    const char* exercise;
    const char* cause;
    int line;          // the last step's line: the one that holds the mistake
    const char* says;  // a part of the last step's text (the difference in the stencil's words)
    const char* kernel;  // the kernel's stencil as the JSON writes it (evidence.stencil.kernel)
};

}  // namespace

TEST_CASE("feedback: --explain shows the kernel's stencil beside the exercise's and names the difference",
          "[exercise]") {
    const StencilShapeCase c = GENERATE(values<StencilShapeCase>({
        // c3/c4 on the z neighbours, c5/c6 on the y ones: the first weight on the wrong neighbour
        {"tiled_swapped_weights.cu", "tiled", "weight_pairing", 18,
         "c3 multiplies in(x, y, z-1) at line 18; the stencil gives c3 to in(x, y-1, z)",
         "out(x, y, z) = c0 in(x, y, z) + c1 in(x-1, y, z) + c2 in(x+1, y, z) + c3 in(x, y, z-1) + c4 in(x, y, z+1) "
         "+ c5 in(x, y-1, z) + c6 in(x, y+1, z)"},
        // i from x and k from z: the tile holds the grid transposed; the index lines (5-7)
        {"tiled_swapped_axes.cu", "tiled", "index_axis", 5, "your x and z are swapped: tile's x axis holds the grid's z",
         "out(x, y, z) = c0 in(x, y, z) + c1 in(x, y, z-1) + c2 in(x, y, z+1) + c3 in(x, y-1, z) + c4 in(x, y+1, z) "
         "+ c5 in(x-1, y, z) + c6 in(x+1, y, z)"},
        // in[c + 1] where in[c + N] belongs: the load the compiler shares is still two terms
        {"naive_doubled_neighbour.cu", "naive", "neighbour_missing", 11,
         "in(x, y+1, z) is never read; in(x+1, y, z) is read twice (lines 9 and 11); c4 multiplies in(x+1, y, z) "
         "at line 11",
         "out(x, y, z) = c0 in(x, y, z) + c1 in(x-1, y, z) + c2 in(x+1, y, z) + c3 in(x, y-1, z) + c4 in(x+1, y, z) "
         "+ c5 in(x, y, z-1) + c6 in(x, y, z+1)"},
        // a "+ 2" pasted where "- 2" belongs: a cell the stencil does read, at the wrong offset
        {"tiled_r2_shifted_offset.cu", "tiled-r2", "neighbour_missing", 22,
         "in(x-2, y, z) is never read; in(x+2, y, z) is read twice (lines 22 and 23); c7 multiplies in(x+2, y, z) "
         "at line 22; the stencil gives c7 to in(x-2, y, z)",
         nullptr},
        // c1 and c2 exchanged on the naive exercise
        {"naive_swapped_coefficients.cu", "naive", "weight_pairing", 9,
         "c1 multiplies in(x+1, y, z) at line 9; the stencil gives c1 to in(x-1, y, z); c2 multiplies in(x-1, y, z) "
         "at line 8",
         nullptr},
    }));
    CAPTURE(c.file, c.cause, c.line);
    const CheckResult r = check_submission(corpus(c.file), options(c.exercise, true));
    CAPTURE(to_text(r));
    REQUIRE(r.verdict == Verdict::wrong_result);
    CHECK(r.evidence.cause == c.cause);
    REQUIRE(!r.findings.empty());
    CHECK(r.findings[0].cause == c.cause);
    CHECK(last_line(r) == c.line);
    CHECK(r.evidence.explain.back().text.find(c.says) != std::string::npos);
    // the kernel's stencil and the exercise's, in the text and the JSON
    REQUIRE(r.evidence.stencil.has_value());
    const std::string exercise = std::string(c.exercise) == "tiled-r2"
                                     ? "out(x, y, z) = c0 in(x, y, z) + c1 in(x-1, y, z) + c2 in(x+1, y, z) + c3 in(x, "
                                       "y-1, z) + c4 in(x, y+1, z) + c5 in(x, y, z-1) + c6 in(x, y, z+1) + c7 in(x-2, y, "
                                       "z) + c8 in(x+2, y, z) + c9 in(x, y-2, z) + c10 in(x, y+2, z) + c11 in(x, y, z-2) "
                                       "+ c12 in(x, y, z+2)"
                                     : "out(x, y, z) = c0 in(x, y, z) + c1 in(x-1, y, z) + c2 in(x+1, y, z) + c3 in(x, "
                                       "y-1, z) + c4 in(x, y+1, z) + c5 in(x, y, z-1) + c6 in(x, y, z+1)";
    CHECK(r.evidence.stencil->exercise == exercise);
    if (c.kernel) CHECK(r.evidence.stencil->kernel == c.kernel);
    const std::vector<int>& lines = r.evidence.stencil->lines;
    CHECK(std::find(lines.begin(), lines.end(), c.line) != lines.end());
    const std::string text = to_text(r);
    CHECK(text.find(c.says) != std::string::npos);
    CHECK(text.find("the exercise's stencil is " + exercise) != std::string::npos);
    const auto j = to_json(r);
    CHECK(j["evidence"]["cause"] == c.cause);
    CHECK(j["findings"][0]["cause"] == c.cause);
    CHECK(j["evidence"]["stencil"]["exercise"] == exercise);
    CHECK(j["evidence"]["stencil"]["terms"].size() == r.evidence.stencil->terms.size());
    bool line_named = false;  // the mistake's statement is among the evidence's sources, in words
    const std::string role = std::string(c.cause) == "weight_pairing"  ? "a weight on the wrong neighbour"
                             : std::string(c.cause) == "index_axis"    ? "an index on the wrong axis"
                                                                       : "a term reading the wrong neighbour";
    for (const auto& x : j["evidence"]["sources"]) line_named = line_named || (x["source_line"] == c.line && x["role"] == role);
    CHECK(line_named);
    CHECK(text.find(fmt::format("at {}:{} ({}", c.file, c.line, role)) != std::string::npos);
}

TEST_CASE("feedback: swapped axes point at every index line", "[exercise]") {
    const CheckResult r = check_submission(corpus("tiled_swapped_axes.cu"), options("tiled", true));
    REQUIRE(r.evidence.stencil.has_value());
    const std::vector<int>& lines = r.evidence.stencil->lines;
    for (int l : {5, 6, 7}) CHECK(std::find(lines.begin(), lines.end(), l) != lines.end());
    CHECK(r.evidence.explain.back().text.find("lines 5, 6, 7") != std::string::npos);
    // every term whose weight sits on another axis is marked, the y terms and the centre are not
    int wrong = 0;
    for (const StencilTermView& t : r.evidence.stencil->terms) wrong += t.wrong;
    CHECK(wrong == 4);
}

TEST_CASE("feedback: an output reading a shared cell no thread stored is wrong_result, not race", "[exercise]") {
    struct Unstored {
        const char* file;
        int condition_line;  // the load's condition that was false
        int store_line;      // the store that did not run
    };
    const Unstored c = GENERATE(values<Unstored>({{"tiled_unstored_plane.cu", 7, 8}, {"tiled_no_halo.cu", 9, 10}}));
    CAPTURE(c.file);
    const CheckResult r = check_submission(corpus(c.file), options("tiled", true));
    CAPTURE(to_text(r));
    REQUIRE(r.verdict == Verdict::wrong_result);
    for (const Finding& f : r.findings) CHECK(f.verdict != Verdict::race);
    CHECK(r.evidence.cause == "halo_load_skipped");
    CHECK(r.findings[0].cause == "halo_load_skipped");
    CHECK(last_line(r) == c.condition_line);
    CHECK(r.evidence.explain.back().text.find(fmt::format("store at line {} did not run: the condition at line {} was "
                                                          "false", c.store_line, c.condition_line)) != std::string::npos);
    CHECK(to_json(r)["findings"][0]["cause"] == "halo_load_skipped");
}

TEST_CASE("feedback: a race stays a race", "[exercise]") {
    const CheckResult r = check_submission(corpus("tiled_no_sync.cu"), options("tiled"));
    REQUIRE(r.verdict == Verdict::race);
    CHECK(r.findings[0].cause == "barrier_missing");
}

TEST_CASE("feedback: a barrier some threads miss names the return that took them away", "[exercise]") {
    struct Returns {
        const char* file;
        int barrier, branch;
    };
    const Returns c = GENERATE(values<Returns>({{"tiled_return_before_sync.cu", 12, 8}, {"tiled_early_return.cu", 12, 8}}));
    CAPTURE(c.file);
    for (bool explain : {false, true}) {
        const CheckResult r = check_submission(corpus(c.file), options("tiled", explain));
        CAPTURE(to_text(r));
        REQUIRE(r.verdict == Verdict::race);
        CHECK(r.evidence.cause == "barrier_divergent");
        CHECK(r.findings[0].cause == "barrier_divergent");
        const SourceRef* barrier = find_source(r, "barrier");
        const SourceRef* branch = find_source(r, "the branch that took it away");
        REQUIRE(barrier != nullptr);
        REQUIRE(branch != nullptr);
        CHECK(barrier->line == c.barrier);
        CHECK(branch->line == c.branch);
        check_reported(r, *branch);
        if (explain) {
            CHECK(last_line(r) == c.branch);
            CHECK(r.evidence.explain.back().text.find("returns before the barrier") != std::string::npos);
        }
    }
}

TEST_CASE("feedback: a negative index is printed as the student's signed arithmetic gives it", "[exercise]") {
    const CheckResult r = check_submission(corpus("naive_negative_index.cu"), options("naive"));
    CAPTURE(to_text(r));
    REQUIRE(r.verdict == Verdict::crash);
    CHECK(r.evidence.message.find("in[-5] (5 cells before in[0]") != std::string::npos);
    CHECK(r.evidence.message.find("4294967291 cells past") == std::string::npos);
    CHECK(r.evidence.cause == "out_of_bounds_load");
    const SourceRef* s = find_source(r, "out-of-bounds load");
    REQUIRE(s != nullptr);
    CHECK(s->line == 12);
}

TEST_CASE("feedback: every finding's cause is one of the fixed list, also without --explain", "[exercise]") {
    struct Case {
        const char* file;
        const char* exercise;
        const char* cause;
    };
    const Case c = GENERATE(values<Case>({
        {"naive_off_by_one.cu", "naive", "neighbour_missing"},
        {"naive_skips_cell.cu", "naive", "cell_unwritten"},
        {"naive_writes_boundary.cu", "naive", "boundary_written"},
        {"naive_writes_input.cu", "naive", "input_written"},
        {"naive_pads_past_end.cu", "naive", "out_of_bounds_store"},
        {"register_tiled_f64_float_sum.cu", "register-tiled-f64", "precision_lost"},
        {"tiled_swapped_weights.cu", "tiled", "weight_pairing"},
    }));
    CAPTURE(c.file);
    const CheckResult r = check_submission(corpus(c.file), options(c.exercise));
    CAPTURE(to_text(r));
    REQUIRE(!r.findings.empty());
    for (const Finding& f : r.findings) CHECK(parse_cause(f.cause).has_value());
    CHECK(r.findings[0].cause == c.cause);
    CHECK(r.evidence.explain.empty());
    CHECK(!r.evidence.stencil.has_value());  // (the stencil's words are --explain's)
}

// ---- the effective stencil without the engine: a stencil is data (offsets with weight names) ----

namespace {

SumTermOutcome term(const std::string& weight, long long element, int line) {
    SumTermOutcome t;
    t.weights = {weight};
    TermCell c;
    c.array = "in";
    c.element = element;
    c.line = line;
    c.index_lines = {3, 4};
    t.cells = {c};
    t.line = line;
    return t;
}

}  // namespace

TEST_CASE("effective stencil: the star's layout is kernels/stencil_shape.h's", "[exercise]") {
    const StencilShape s = star_stencil(2);
    REQUIRE(s.size() == 13);
    CHECK(s[0].weight == "c0");
    CHECK((s[0].offset == std::array<int, 3>{0, 0, 0}));
    CHECK((s[3].offset == std::array<int, 3>{0, -1, 0}));
    CHECK((s[6].offset == std::array<int, 3>{0, 0, 1}));
    CHECK((s[7].offset == std::array<int, 3>{-2, 0, 0}));
    CHECK(s[12].weight == "c12");
    CHECK((s[12].offset == std::array<int, 3>{0, 0, 2}));
}

TEST_CASE("effective stencil: a 2D five-point stencil with named weights", "[exercise]") {
    // a 2D exercise's data: w_c at the centre, w_w/w_e/w_s/w_n around it; a 10 x 8 grid
    const StencilShape shape = {{{0, 0, 0}, "w_c"}, {{-1, 0, 0}, "w_w"}, {{1, 0, 0}, "w_e"},
                                {{0, -1, 0}, "w_s"}, {{0, 1, 0}, "w_n"}};
    const SharedArrays none;
    const GridDims dims{10, 8, 1};
    const auto at = [](int x, int y) { return (long long)y * 10 + x; };
    StencilInput in{shape, {4, 3, 0}, dims, "in", "out", none};
    ReplayOutcome r;
    SECTION("right") {
        r.terms = {term("w_c", at(4, 3), 5), term("w_w", at(3, 3), 6), term("w_e", at(5, 3), 7),
                   term("w_s", at(4, 2), 8), term("w_n", at(4, 4), 9)};
        const auto s = effective_stencil(r, in);
        REQUIRE(s.has_value());
        CHECK(!s->cause.has_value());
        CHECK(s->view.kernel == "out(x, y) = w_c in(x, y) + w_w in(x-1, y) + w_e in(x+1, y) + w_s in(x, y-1) + w_n in(x, y+1)");
        CHECK(s->view.kernel.substr(s->view.kernel.find('=')) == s->view.exercise.substr(s->view.exercise.find('=')));
    }
    SECTION("x and y swapped in the loads only: the output reads around (y, x)") {
        // out(4, 3) reads around in(3, 4), with its x neighbours along y
        r.terms = {term("w_c", at(3, 4), 5), term("w_w", at(3, 3), 6), term("w_e", at(3, 5), 7),
                   term("w_s", at(2, 4), 8), term("w_n", at(4, 4), 9)};
        const auto s = effective_stencil(r, in);
        REQUIRE(s.has_value());
        REQUIRE(s->cause.has_value());
        CHECK(*s->cause == Cause::index_axis);
        CHECK(s->summary.find("your x and y are swapped: the output at (x, y) reads around (y, x)") != std::string::npos);
        CHECK((s->view.lines == std::vector<int>{3, 4}));  // the index lines
    }
    SECTION("every term one cell to the right") {
        r.terms = {term("w_c", at(5, 3), 5), term("w_w", at(4, 3), 6), term("w_e", at(6, 3), 7),
                   term("w_s", at(5, 2), 8), term("w_n", at(5, 4), 9)};
        const auto s = effective_stencil(r, in);
        REQUIRE(s.has_value());
        CHECK(s->cause == Cause::index_offset);
        CHECK(s->summary.find("reads around in(x+1, y) instead of in(x, y)") != std::string::npos);
    }
    SECTION("a product of two cells is not a stencil's sum") {
        SumTermOutcome sq = term("w_c", at(4, 3), 5);
        sq.cells.push_back(sq.cells[0]);
        r.terms = {sq, term("w_w", at(3, 3), 6), term("w_e", at(5, 3), 7), term("w_s", at(4, 2), 8),
                   term("w_n", at(4, 4), 9)};
        const auto s = effective_stencil(r, in);
        REQUIRE(s.has_value());
        CHECK(s->cause == Cause::not_a_sum);
        CHECK(s->summary.find("w_c in(x, y) in(x, y) (line 5) is not a weight times a cell of in") != std::string::npos);
        CHECK((s->view.lines == std::vector<int>{5}));
    }
    SECTION("a term missing") {
        r.terms = {term("w_c", at(4, 3), 5), term("w_w", at(3, 3), 6), term("w_e", at(5, 3), 7),
                   term("w_s", at(4, 2), 8)};
        const auto s = effective_stencil(r, in);
        REQUIRE(s.has_value());
        CHECK(s->cause == Cause::neighbour_missing);
        bool said = false;
        for (const auto& d : s->view.differences) said = said || d == "w_n multiplies nothing: its term w_n in(x, y+1) is missing";
        CHECK(said);
    }
}

TEST_CASE("effective stencil: a box stencil's corner weight on the wrong corner", "[exercise]") {
    // a 3x3 box in 2D: nine weights b0..b8, x fastest
    StencilShape shape;
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) shape.push_back({{dx, dy, 0}, fmt::format("b{}", shape.size())});
    // b4 is the centre
    const SharedArrays none;
    const auto at = [](int x, int y) { return (long long)y * 6 + x; };
    StencilInput in{shape, {2, 2, 0}, GridDims{6, 6, 1}, "in", "out", none};
    ReplayOutcome r;
    for (const StencilTap& p : shape) {
        int dx = p.offset[0], dy = p.offset[1];
        if (p.weight == "b0") dx = 1, dy = 1;  // b0 and b8 exchanged
        if (p.weight == "b8") dx = -1, dy = -1;
        r.terms.push_back(term(p.weight, at(2 + dx, 2 + dy), 10 + int(r.terms.size())));
    }
    const auto s = effective_stencil(r, in);
    REQUIRE(s.has_value());
    CHECK(s->cause == Cause::weight_pairing);
    CHECK(s->summary.find("b0 multiplies in(x+1, y+1) at line 10; the stencil gives b0 to in(x-1, y-1)") != std::string::npos);
    CHECK((s->view.lines == std::vector<int>{10, 18}));
}

TEST_CASE("causes: one fixed list of distinct names, today's hint kinds among them", "[exercise]") {
    std::vector<std::string> names;
    for (Cause c : all_causes()) {
        const std::string n(cause_name(c));
        CHECK(std::find(names.begin(), names.end(), n) == names.end());
        CHECK(parse_cause(n) == c);
        for (char ch : n) CHECK(((ch >= 'a' && ch <= 'z') || ch == '_'));
        names.push_back(n);
    }
    CHECK(!parse_cause("race").has_value());
    // the verdicts' default causes (a verdict whose cause no step named)
    Evidence ev;
    CHECK(default_cause(Verdict::wrong_result, ev) == Cause::wrong_value);
    CHECK(default_cause(Verdict::unwritten, ev) == Cause::cell_unwritten);
    CHECK(default_cause(Verdict::boundary_modified, ev) == Cause::boundary_written);
    CHECK(default_cause(Verdict::input_modified, ev) == Cause::input_written);
    CHECK(default_cause(Verdict::out_of_bounds_write, ev) == Cause::out_of_bounds_store);
    CHECK(default_cause(Verdict::timeout, ev) == Cause::timeout);
    CHECK(!default_cause(Verdict::pass, ev).has_value());
    CHECK(!default_cause(Verdict::compile_error, ev).has_value());
    ev.message = "N=3: out-of-bounds load of in[-1]";
    CHECK(default_cause(Verdict::crash, ev) == Cause::out_of_bounds_load);
    ev.message = "N=3: the output differs ...: it reads shared memory that no thread of the block stored";
    CHECK(default_cause(Verdict::race, ev) == Cause::unstored_read);
    ev.message = "shared-memory race in block (0, 0, 0)";
    CHECK(default_cause(Verdict::race, ev) == Cause::barrier_missing);
    ev.message = "global-memory race on out[3]";
    CHECK(default_cause(Verdict::race, ev) == Cause::race_global);
}

TEST_CASE("feedback: a neighbour reached through the x-derivative's periodic wrap is one the stencil reads",
          "[exercise]") {
    const CheckResult r = check_submission(corpus("derivative_x_swapped_weights.cu"), options("x-derivative", true));
    CAPTURE(to_text(r));
    REQUIRE(r.verdict == Verdict::wrong_result);
    for (const ExplainStep& s : r.evidence.explain) CHECK(s.text.find("not a cell the stencil reads") == std::string::npos);
    CHECK(r.evidence.explain.back().text.find("the arithmetic of those lines") != std::string::npos);
    CHECK(last_line(r) == 18);
}


TEST_CASE("feedback: an exercise written as data gets its own stencil beside the kernel's", "[exercise]") {
    const std::string dir = std::string(STENCIL_LAB_SOURCE_DIR) + "/exercises/";
    // heat2d (2D, c0..c4 as __constant__ scalars): c1/c2 on the rows above and below, c3/c4 beside
    const CheckResult heat = check_submission(dir + "heat2d/wrong/swapped_weights.cu", options("heat2d", true));
    CAPTURE(to_text(heat));
    REQUIRE(heat.verdict == Verdict::wrong_result);
    CHECK(heat.evidence.cause == "weight_pairing");
    REQUIRE(heat.evidence.stencil);
    CHECK(heat.evidence.stencil->exercise ==
          "out(x, y) = c0 in(x, y) + c1 in(x-1, y) + c2 in(x+1, y) + c3 in(x, y-1) + c4 in(x, y+1)");
    CHECK(heat.evidence.explain.back().text.find("c1 multiplies in(x, y-1) at line 12; the stencil gives c1 to in(x-1, y)") !=
          std::string::npos);
    // the text report says the cause in words, without --explain too
    const CheckResult plain = check_submission(dir + "heat2d/wrong/swapped_weights.cu", options("heat2d"));
    CHECK(to_text(plain).find("cause: a weight multiplies another neighbour than its own") != std::string::npos);
    // box27 (one __constant__ array c[27], read in a loop the compiler unrolls): the transposed cube
    const CheckResult box = check_submission(dir + "box27/wrong/transposed_weights.cu", options("box27", true));
    CAPTURE(to_text(box));
    REQUIRE(box.verdict == Verdict::wrong_result);
    CHECK(box.evidence.cause == "weight_pairing");
    CHECK(box.evidence.explain.back().text.find("c[1] multiplies in(x-1, y-1, z) at line 17; the stencil gives c[1] to "
                                                "in(x, y-1, z-1)") != std::string::npos);
}

TEST_CASE("feedback: the field judge gives an output read from an unstored shared cell wrong_result", "[exercise]") {
    const std::string dir = std::string(STENCIL_LAB_SOURCE_DIR) + "/exercises/";
    for (const auto& [file, exercise] : {std::pair{"heat2d/wrong/halo_not_loaded.cu", "heat2d"},
                                          std::pair{"box27/wrong/no_halo.cu", "box27"}}) {
        const CheckResult r = check_submission(dir + file, options(exercise, true));
        CAPTURE(file, to_text(r));
        CHECK(r.verdict == Verdict::wrong_result);
        for (const Finding& f : r.findings) CHECK(f.verdict != Verdict::race);
        CHECK((r.evidence.cause == "unstored_read" || r.evidence.cause == "halo_load_skipped"));
    }
}

TEST_CASE("feedback: a queue shifted in the wrong order and a tile stored transposed", "[exercise]") {
    // inCurr = inNext before inPrev = inCurr: inPrev holds the current plane, loaded by line 20's
    // inNext a step earlier (the compiler unrolls the march, so no move is left to name)
    const CheckResult rot = check_submission(corpus("register_tiled_rotation_order.cu"), options("register-tiled", true));
    CAPTURE(to_text(rot));
    REQUIRE(rot.verdict == Verdict::wrong_result);
    CHECK(rot.evidence.cause == "neighbour_missing");
    CHECK(rot.evidence.explain.back().text.find("in(x, y, z-1) is never read") != std::string::npos);
    CHECK(rot.evidence.explain.back().text.find("c5 multiplies in(x, y, z) at line 31 (a value line 20 loaded, carried "
                                                "in a register); the stencil gives c5 to in(x, y, z-1)") != std::string::npos);
    // tile[threadIdx.x][threadIdx.y][threadIdx.z] = ...: the store at line 9 among the lines named
    const CheckResult tr = check_submission(corpus("tiled_transposed_store.cu"), options("tiled", true));
    CAPTURE(to_text(tr));
    REQUIRE(tr.verdict == Verdict::wrong_result);
    CHECK(tr.evidence.cause == "index_axis");
    CHECK(tr.evidence.explain.back().text.find("your x and z are swapped") != std::string::npos);
    CHECK(tr.evidence.explain.back().text.find("lines 5, 6, 7 and 9") != std::string::npos);
}

TEST_CASE("feedback: a box stencil's corner is a cell the stencil reads", "[exercise]") {
    // box27's weights are one array indexed in a loop: no effective stencil yet, but no correct load
    // is blamed as "not a cell the stencil reads" (the star's test called the corners so)
    const std::string file = std::string(STENCIL_LAB_SOURCE_DIR) + "/exercises/box27/wrong/transposed_weights.cu";
    const CheckResult r = check_submission(file, options("box27", true));
    CAPTURE(to_text(r));
    REQUIRE(r.verdict == Verdict::wrong_result);
    REQUIRE(!r.evidence.explain.empty());
    for (const ExplainStep& s : r.evidence.explain) CHECK(s.text.find("not a cell the stencil reads") == std::string::npos);
}
