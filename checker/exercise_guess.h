// Which exercise a student's file is for, from what the file says about itself: the folder it sits
// in (exercises/tiled/stencil.cu), its opening comment ("// Exercise: shared-memory tiled ..."),
// or its name (alice_register_tiled.cu). The check panel picks it when a file is opened and says
// so when the exercise chosen differs, and `check FILE` without --exercise takes it. Plain
// functions over the exercise names; a file inside an exercise folder of the instructor's (one
// holding exercise.toml, or its wrong/) gets that folder's path as its name.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace stencil::checker {

struct ExerciseGuess {
    std::string name;    // one of the names given
    std::string reason;  // "its folder", "its opening comment", "its file name"
};
// header: the file's opening text (its first lines). The exercise whose every word the text
// names wins, the one with most words first ("find-the-race" over "tiled"; "f64" is named by
// "double", "r2" by "radius 2"; a word may begin a longer one: "cardiac" in "cardiac2d").
std::optional<ExerciseGuess> guess_exercise(const std::string& path, const std::string& header,
                                            const std::vector<std::string>& names);
// The first `max_bytes` of the file ("" when it cannot be read).
std::string read_header(const std::string& path, std::size_t max_bytes = 2048);
// "" when `chosen` is what the file suggests (or it suggests nothing); else the sentence.
std::string exercise_mismatch(const std::optional<ExerciseGuess>& g, const std::string& chosen);

}  // namespace stencil::checker
