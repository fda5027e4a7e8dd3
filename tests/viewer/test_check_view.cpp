// The check panel's rows without ImGui (viewer/core/check_view.h), from hand-filled CheckResults:
// one row per distinct finding with its sizes and the student's lines (a race's two sides), the
// smallest failing size and the sizes that passed; the slice map read back into grid cells (a
// click is a cell); the backward slice shown for a clicked cell; the README's hints in the order
// they are revealed.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "checker/exercises.h"
#include "checker/hints.h"
#include "viewer/core/check_view.h"

using namespace stencil;
using namespace stencil::viewer;
using checker::Verdict;

namespace {

checker::SourceRef ref(std::string file, int line, std::string role, std::array<int, 3> thread) {
    checker::SourceRef s;
    s.file = std::move(file);
    s.line = line;
    s.role = std::move(role);
    s.block = std::array<int, 3>{1, 1, 1};
    s.thread = thread;
    return s;
}

void add_tests(checker::CheckResult& r, std::initializer_list<std::pair<int, bool>> outcomes) {
    for (const auto& [n, ok] : outcomes) {
        r.sizes.push_back(n);
        for (const char* run : {"in_order", "reversed"})
            r.tests.push_back({fmt::format("N={} {}", n, run), ok, ok ? "" : "race", n});
    }
}

// A race seen at three sizes and a wrong value at one, as the report fills `findings`.
checker::CheckResult racy() {
    checker::CheckResult r;
    r.verdict = Verdict::race;
    add_tests(r, {{3, true}, {4, true}, {5, false}, {13, false}, {17, false}});
    checker::Finding race;
    race.verdict = Verdict::race;
    race.message = "tile[1][1][0] is stored and loaded in one barrier interval";
    race.sources = {ref("stencil.cu", 10, "store", {0, 1, 1}), ref("stencil.cu", 21, "load", {1, 1, 1})};
    race.sizes = {5, 13, 17};
    race.hint = 2;
    checker::Finding wrong;
    wrong.verdict = Verdict::wrong_result;
    wrong.message = "expected -0.0447, got nan";
    wrong.sources = {ref("stencil.cu", 28, "wrote the bad cell", {1, 1, 1})};
    wrong.sizes = {13};
    r.findings = {race, wrong};
    r.smallest_failing_size = 5;
    r.evidence.n = 5;
    r.evidence.slice_map = "slice z=1 (x 0..4 across, y 0..4 down; . right, # boundary, B boundary changed, "
                           "U unwritten, N NaN/Inf, X wrong, * first):\n"
                           "y=  0 #####\ny=  1 #*X.#\ny=  2 #.N.#\ny=  3 #...#\ny=  4 #####\n";
    r.evidence.first_bad = checker::BadCellEvidence{1, 1, 1, -0.0447, 0, 0, checker::CellClass::tile_edge, "NaN"};
    return r;
}

std::string read_text(const std::string& path) {
    std::ifstream f(path);
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

}  // namespace

TEST_CASE("check summary: one row per finding with its sizes and both lines of a race", "[viewer][check]") {
    const CheckSummary s = summarize_check(racy());
    REQUIRE(s.findings.size() == 2);
    const FindingRow &race = s.findings[0], &wrong = s.findings[1];
    CAPTURE(race.headline, wrong.headline, s.smallest, s.sizes);
    REQUIRE((race.headline == "race at N = 5, 13 and 17: tile[1][1][0] is stored and loaded in one barrier interval" &&
             race.sources.size() == 2 && race.sources[0].place == "stencil.cu:10" &&
             race.sources[0].text == "stencil.cu:10  store by thread (0, 1, 1) of block (1, 1, 1)" &&
             race.sources[1].place == "stencil.cu:21" && race.sources[1].line == 21 && race.hint == 2 &&
             wrong.headline == "wrong_result at N = 13: expected -0.0447, got nan" &&
             wrong.sources.at(0).place == "stencil.cu:28" && s.fitting_hint == 2 &&
             s.smallest == "smallest failing size: N = 5 (the map below is at that size)" &&
             s.sizes == "passed at N = 3 and 4; failed at N = 5, 13 and 17"));
}

TEST_CASE("check summary without findings: one row from the evidence, at the sizes that failed", "[viewer][check]") {
    checker::CheckResult r;
    r.verdict = Verdict::unwritten;
    add_tests(r, {{3, true}, {17, false}, {8, false}});  // tested out of order: shown ascending
    r.sizes.push_back(67);  // not run: the check stopped at its first failing verdict
    r.evidence.message = "out(1,1,1) still holds the poison";
    r.evidence.n = 17;
    r.evidence.sources = {ref("stencil.cu", 12, "wrote the bad cell", {0, 0, 0})};
    const CheckSummary s = summarize_check(r);
    checker::CheckResult pass;
    pass.verdict = Verdict::pass;
    add_tests(pass, {{3, true}, {8, true}});
    const CheckSummary p = summarize_check(pass);
    CAPTURE(s.findings.at(0).headline, s.smallest, s.sizes, p.sizes);
    REQUIRE((s.findings.size() == 1 && s.findings[0].headline == "unwritten at N = 8 and 17: out(1,1,1) still holds the poison" &&
             s.findings[0].sources.at(0).place == "stencil.cu:12" &&
             s.smallest == "smallest failing size: N = 8 (the evidence is at N = 17)" &&
             s.sizes == "passed at N = 3; failed at N = 8 and 17; not run at N = 67" && p.findings.empty() &&
             p.smallest.empty() && p.sizes == "passed at N = 3 and 8"));
}

TEST_CASE("slice map: squares back to grid cells, bad ones told apart", "[viewer][check]") {
    const auto m = parse_slice_map(racy().evidence.slice_map);
    // A 2D field's map has no z; its window starts past x = 0.
    const auto f = parse_slice_map("(x 8..11 across, y 2..3 down; . right, # ghost kept, B ghost changed, U "
                                   "unwritten, N NaN/Inf, X wrong, * first):\ny=  2 ..X.\ny=  3 .*..\n");
    REQUIRE((m && f));
    CAPTURE(m->title, m->key, f->title);
    REQUIRE((m->nx() == 5 && m->ny() == 5 && m->z == 1 && m->title == "slice z=1" && m->key.find(" up;") != std::string::npos &&
             m->mark(1, 1) == '*' && m->mark(2, 1) == 'X' && m->mark(2, 2) == 'N' && m->mark(3, 3) == '.' &&
             m->mark(5, 0) == ' ' && is_bad_mark(m->mark(2, 2)) && !is_bad_mark(m->mark(0, 0)) &&
             f->x0 == 8 && f->y0 == 2 && f->mark(10, 2) == 'X' && f->mark(9, 3) == '*' && f->mark(7, 2) == ' ' &&
             f->title.empty() && !parse_slice_map("no map here\n")));
}

TEST_CASE("backward slice: the first bad output's, and whose slice it is when another cell is clicked",
          "[viewer][check]") {
    checker::CheckResult r = racy();
    const SliceView none = slice_view(r.evidence, std::nullopt);
    const SliceView gpu = slice_view(r.evidence, std::nullopt, "cuda");
    r.evidence.explain = {{"out(1,1,1) = NaN <- tile[1][1][0] read at line 21", ref("stencil.cu", 21, "load", {1, 1, 1})},
                          {"never stored: thread (0,1,1)'s load at line 10 was skipped because `i < N - 1` was false",
                           ref("stencil.cu", 10, "skipped load", {0, 1, 1})},
                          {"the first step that went wrong", std::nullopt}};
    const SliceView first = slice_view(r.evidence, std::nullopt);
    const SliceView other = slice_view(r.evidence, std::array<int, 3>{2, 1, 1});
    r.evidence.first_bad.reset();  // a race: a slice, no bad cell
    const SliceView race = slice_view(r.evidence, std::nullopt);
    CAPTURE(none.missing, first.title, other.title, first.steps);
    REQUIRE((none.steps.empty() && !none.missing.empty() && gpu.missing.find("choose the cpu backend") != std::string::npos &&
             first.title == "the backward slice of cell (1, 1, 1), the first bad output" && first.steps.size() == 3 &&
             first.steps[0] == "out(1,1,1) = NaN <- tile[1][1][0] read at line 21  (stencil.cu:21)" &&
             first.lines[1].line == 10 && first.lines[2].file.empty() && first.missing.empty() &&
             other.title.starts_with("the slice is of cell (1, 1, 1), the first bad output, not of the cell clicked (2, 1, 1)") &&
             other.steps == first.steps && race.steps.size() == 3 && race.title.find("no bad cell") != std::string::npos));
}

TEST_CASE("hints: every exercise's README numbered, the fitting one revealed first", "[viewer][check]") {
    std::vector<std::string> names;
    for (const auto& e : checker::exercises()) names.push_back(e.name);
    const std::string name = GENERATE_COPY(from_range(names));
    const std::string readme = read_text(std::string(STENCIL_LAB_SOURCE_DIR "/exercises/") + name + "/README.md");
    const auto hints = numbered_hints(checker::parse_hints(readme));
    CAPTURE(name, hints.size());
    bool numbered = hints.size() >= 2;
    for (size_t i = 0; i < hints.size(); ++i) numbered = numbered && hints[i].number == (int)i + 1 && !hints[i].text.empty();
    REQUIRE(numbered);
}

TEST_CASE("hints: continuation lines joined; order with the fitting one first", "[viewer][check]") {
    const auto hints = numbered_hints(checker::parse_hints("# ex\n\n**Hints.**\n1. One\n   more.\n2. Two.\n3. Three.\n\n```sh\n4. not a hint\n```\n"));
    const auto order = hint_order(hints, 2), plain = hint_order(hints, 0), missing = hint_order(hints, 9);
    REQUIRE((hints.size() == 3 && hints[0].text == "One more." && order[0].number == 2 && order[1].number == 1 &&
             order[2].number == 3 && plain[0].number == 1 && missing[0].number == 1 && checker::parse_hints("no hints\n1. x\n").empty()));
}
