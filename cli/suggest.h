// "Did you mean ...?": the closest valid name to a mistyped one, as git and cargo suggest it. One
// mechanism for every name the command line takes: a command, an option (main.cpp), a kernel of
// any problem, an exercise (the commands call unknown_choice where they refuse one).
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stencil::cli {

// Edits (insert, delete, substitute, swap two neighbours) that turn `a` into `b`, letters compared
// without case (the optimal string alignment distance; git's suggestions use the same edits).
int edit_distance(std::string_view a, std::string_view b);

// The candidate nearest to `got`, when it is near enough to be what was meant: at most a third of
// its letters edited (at least 1, at most 3), or `got` the start of exactly one candidate ("reg"
// for "register-tiled"). Ties go to the earlier candidate; nullopt when none is near.
std::optional<std::string> closest_name(std::string_view got, const std::vector<std::string>& candidates);

// "a, b, c" (as version_names() and exercise_names() write them) back into names.
std::vector<std::string> split_names(std::string_view comma_separated);

// "unknown kernel 'tild' (did you mean 'tiled'? choose naive, tiled, ...)": `what` names the kind
// ("kernel", "exercise"), `choices` lists them comma-separated, `context` (may be empty) follows
// the name ("for --problem cardiac2d").
std::string unknown_choice(std::string_view what, const std::string& got, const std::string& choices,
                           std::string_view context = {});

}  // namespace stencil::cli
