// Which numbered hint of an exercise's README ("**Hints.**") fits a finding: each exercise's spec
// says it, cause by cause (exercise.toml's [hints]: `race_shared = 2`), and the spec reader holds
// every number to a hint the README has. Read by the report (the hint's text) and the viewer
// (Finding::hint); an exercise with no hint for a cause shows none rather than a wrong one.
#pragma once
#include <optional>
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
// The cause's name in a spec's [hints] ("race_shared", "unstored_shared_read", ...).
const char* cause_name(HintKind k);
bool is_hint_cause(const std::string& name);
std::string hint_cause_names();  // "race_shared, race_global, ..."

// The kind of a finding, from its verdict and evidence; nullopt for verdicts no hint is about
// (pass, compile_error, internal_error, a crash that is not an out-of-bounds read).
std::optional<HintKind> hint_kind(Verdict v, const Evidence& ev);

// The hint that fits, or 0 when the exercise has none for this kind (`exercise`: what
// find_exercise takes, CheckResult::exercise).
int hint_for(const std::string& exercise, HintKind kind);

// "exercises/tiled/README.md": how the report names the README.
std::string readme_name(const std::string& exercise);

// The README's numbered hints, in order (hint k is element k - 1), each joined into one line;
// from a README's text, and from the exercise's README in the data folder (core/install_layout.h:
// empty when it cannot be found).
std::vector<std::string> parse_hints(const std::string& readme_text);
std::vector<std::string> exercise_hints(const std::string& exercise);

}  // namespace stencil::checker
