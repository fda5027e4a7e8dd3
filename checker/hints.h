// Which numbered hint of an exercise's README (exercises/<name>/README.md, "**Hints.**") fits a
// verdict: one table, read by the report (the hint's text) and the viewer (Finding::hint).
// tests/checker/test_report.cpp holds every mapped number to a hint its README has.
#pragma once
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "checker/checker.h"

namespace stencil::checker {

// What a finding is about, as far as a hint can help: the verdict, with races told apart by the
// memory they are on and from barrier errors (threads returning or diverging at __syncthreads()).
enum class HintKind {
    race_shared,
    race_global,
    unstored_shared_read,  // an output read a shared cell no thread had stored (a tile cell never loaded)
    barrier,
    out_of_bounds_read,   // crash: a load outside the arrays
    out_of_bounds_write,
    input_modified,
    boundary_modified,
    unwritten,
    wrong_result,
    timeout,
};
const char* to_string(HintKind k);

// The kind of a finding, from its verdict and evidence; nullopt for verdicts no hint is about
// (pass, compile_error, internal_error, a crash that is not an out-of-bounds read).
std::optional<HintKind> hint_kind(Verdict v, const Evidence& ev);

struct HintRow {
    const char* exercise;  // checker/exercises.cpp's name
    HintKind kind;
    int hint;              // the README's number
};
std::span<const HintRow> hint_table();

// The hint that fits, or 0 when the exercise has none for this kind.
int hint_for(const std::string& exercise, HintKind kind);

// "exercises/tiled/README.md": how the report names the README.
std::string readme_name(const std::string& exercise);

// The README's numbered hints, in order (hint k is element k - 1), each joined into one line;
// from a README's text, and from the exercise's README in the data folder (core/install_layout.h:
// empty when it cannot be found).
std::vector<std::string> parse_hints(const std::string& readme_text);
std::vector<std::string> exercise_hints(const std::string& exercise);

}  // namespace stencil::checker
