// The check panel's content without ImGui: a CheckResult (checker/checker.h) turned into the rows
// the panel draws. One row per distinct finding with the sizes it appeared at and the student's
// lines it names (`file:line`, a race's two sides), the smallest failing size and the sizes that
// passed; the slice map of the bad cells read back into grid coordinates (so a click on a square
// is a cell); the backward slice (Evidence::explain) of the cell shown; the exercise's numbered
// hints in the order the panel reveals them.
//
//   CheckSummary s = summarize_check(result);        // once per result, not per frame
//   std::optional<SliceMap> m = parse_slice_map(result.evidence.slice_map);
//   SliceView v = slice_view(result.evidence, clicked_cell);
#pragma once
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "analysis/general_stencil.h"
#include "checker/checker.h"

namespace stencil::viewer {

// A statement of the student's file as the panel shows it: "stencil.cu:21" and what it did there.
struct SourceLink {
    std::string file;
    int line = 0;
    std::string place;  // "stencil.cu:21"
    std::string text;   // "stencil.cu:21  store by thread (0, 1, 1) of block (1, 1, 1)"
};
SourceLink source_link(const checker::SourceRef& s);

struct FindingRow {
    checker::Verdict verdict = checker::Verdict::pass;
    std::string headline;             // "race at N = 5, 13 and 17: <the finding>"
    std::vector<SourceLink> sources;  // every statement it names, in the finding's order
    int hint = 0;                     // the README hint that fits (0: none)
    std::string cause;                // checker/causes.h's name ("weight_pairing"; "" unknown)
};

// The first bad output's value as the stencil the kernel computed, beside the exercise's
// (check --explain: Evidence::stencil, checker/effective_stencil.h): each term with its line, the
// terms that differ marked, the difference in words and the lines that hold it.
struct StencilTermRow {
    std::string text;  // "c3 in(x, y, z-1)"
    SourceLink line;   // its statement (line 0: unknown)
    bool wrong = false;
};
struct StencilCompare {
    std::string head;                      // "out(x, y, z) ="
    std::vector<StencilTermRow> terms;     // the kernel's
    std::string exercise;                  // the exercise's stencil, written out
    std::vector<std::string> differences;  // in words
    std::vector<SourceLink> mistake;       // the lines that hold the difference
};
std::optional<StencilCompare> stencil_compare(const checker::CheckResult& r);

struct CheckSummary {
    std::vector<FindingRow> findings;  // one per distinct finding; empty for a pass
    std::string smallest;              // "smallest failing size: N = 5 (run in_order)"; "" for a pass
    std::string sizes;                 // "passed at N = 3 and 4; failed at N = 5, 13 and 17"
    int fitting_hint = 0;              // the first finding's hint
    std::optional<StencilCompare> stencil;  // --explain's effective stencil, when the result has one
    // An exercise written as data: its stencil's model (checker/data_exercise.h: data_stencil_model)
    std::optional<analysis::GeneralStencilModel> model;
};

// From CheckResult::findings; a result without them (a checker that fills only the evidence) gets
// one row from the verdict, the evidence's message and sources, at the sizes whose tests failed.
CheckSummary summarize_check(const checker::CheckResult& r);
// "N = 5", "N = 5 and 13", "N = 5, 13 and 17" (ascending)
std::string sizes_text(std::vector<int> sizes);

// The evidence's slice map (checker/evaluate.cpp slice_map, field_exercises.cpp field_map) in grid
// coordinates: rows[k][i] is the mark of cell (x0 + i, y0 + k, z).
struct SliceMap {
    int x0 = 0, y0 = 0, z = 0;
    std::vector<std::string> rows;
    std::string title;  // "slice z=3" ("" for a 2D field's map)
    std::string key;    // the header's legend, y counted upward as the squares are drawn
    int nx() const;
    int ny() const { return (int)rows.size(); }
    char mark(int x, int y) const;  // grid coordinates; ' ' outside the map
    bool contains(int x, int y) const { return mark(x, y) != ' '; }
};
std::optional<SliceMap> parse_slice_map(const std::string& text);
// A mark that is a bad cell: wrong, NaN / Inf, unwritten, boundary changed, the first bad cell.
bool is_bad_mark(char m);

// The backward slice shown for a cell: Evidence::explain is the slice of the first bad output. A
// click on another bad cell still shows that slice, and the title says whose slice it is. A verdict
// without a bad cell (a race) may carry a slice too: the panel shows it without a click.
struct SliceView {
    std::array<int, 3> asked{};   // the cell clicked (or the first bad output, before any click)
    std::array<int, 3> of{};      // the cell the slice is of
    std::string title;            // "the backward slice of out(1, 1, 1), the first bad output"
    std::vector<std::string> steps;  // each step's text, then its line: "... (stencil.cu:21)"
    std::vector<SourceLink> lines;   // per step: its statement (file empty: none)
    std::string missing;          // why there are no steps (no --explain slice in this result)
};
// `backend`: the check's ("cpu" or "cuda": the GPU keeps no trace to explain from).
SliceView slice_view(const checker::Evidence& e, std::optional<std::array<int, 3>> asked,
                     const std::string& backend = "cpu");

// An exercise README's hints, numbered (checker/hints.h reads them: one reader for the report and
// the panel).
struct Hint {
    int number = 0;
    std::string text;
};
std::vector<Hint> numbered_hints(const std::vector<std::string>& texts);  // hint k is texts[k - 1]
// The order the panel reveals them in, one per click: the fitting one first, then the others by
// number. `fitting` 0 (or not among them): by number.
std::vector<Hint> hint_order(std::vector<Hint> hints, int fitting);
// exercises/<exercise>/README.md's hints, found as the grading commands find it (core/install_layout.h);
// empty with `why` set when there is no README.
std::vector<Hint> exercise_hints(const std::string& exercise, std::string* why);

}  // namespace stencil::viewer
