// Reads an exercise folder (checker/exercises.h says what one holds) into an Exercise. The spec,
// exercise.toml, is written by people: TOML (comments, no quoting of keys, errors with a line and
// a column; docs/DESIGN.md says why TOML), every key checked against what its table may hold, every
// value's type and range checked, every expression parsed with the names it may use. Whatever is
// wrong is one UserError line, "FILE:LINE:COLUMN: what is wrong; what to write instead", so that an
// instructor's file is input like a student's.
//
// The whole format, with each key's default, is exercises/README.md's "Write your own exercise".
#pragma once
#include <filesystem>
#include <string>

#include "checker/exercises.h"

namespace stencil::checker {

// `display` is how errors name the folder ("exercises/tiled", or the path as the user gave it).
Exercise read_exercise_folder(const std::filesystem::path& folder, const std::string& display);

// The spec's file name inside an exercise folder.
inline constexpr const char* kExerciseSpecFile = "exercise.toml";

}  // namespace stencil::checker
