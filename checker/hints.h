// Which numbered hint of an exercise's README ("**Hints.**") fits a finding: chosen by the
// finding's cause (checker/causes.h: weight_pairing, barrier_divergent, halo_load_skipped, ...),
// never by its verdict alone. Each exercise's spec says it cause by cause (exercise.toml's
// [hints]: `barrier_missing = 2`), and the spec reader holds every number to a hint the README has;
// a cause the spec names no hint for shows none rather than a wrong one. Read by the report (the
// hint's text) and the viewer (Finding::hint).
#pragma once
#include <string>
#include <vector>

namespace stencil::checker {

// Whether `name` is a cause a spec's [hints] may map (causes.h's names), and all of them.
bool is_hint_cause(const std::string& name);
std::string hint_cause_names();  // "weight_pairing, index_axis, ..."

// The hint that fits a cause, or 0 when the exercise has none for it (`exercise`: what
// find_exercise takes, CheckResult::exercise; `cause`: Finding::cause, "" unknown).
int hint_for(const std::string& exercise, const std::string& cause);

// "exercises/tiled/README.md": how the report names the README.
std::string readme_name(const std::string& exercise);

// The README's numbered hints, in order (hint k is element k - 1), each joined into one line;
// from a README's text, and from the exercise's README in its folder (empty when it cannot be
// read).
std::vector<std::string> parse_hints(const std::string& readme_text);
std::vector<std::string> exercise_hints(const std::string& exercise);

}  // namespace stencil::checker
