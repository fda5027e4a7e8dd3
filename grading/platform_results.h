// A Score as each platform's results file, with the fields its documentation names:
//   Gradescope (gradescope-autograders.readthedocs.io, "Autograder Specifications"): score,
//     execution_time, output, visibility, stdout_visibility, extra_data, tests[] (score, max_score,
//     status, name, output, tags, visibility), leaderboard[] (name, value, order)
//   PrairieLearn (docs/externalGrading.md, "Grading results"): gradable, score in [0, 1], message,
//     output, format_errors (not gradable), tests[] (name, description, points, max_points,
//     message, output); at most 1 MB
//   GitHub Classroom has no results file (each workflow step passes or fails by its exit code):
//     ours keeps the score per item for the steps to read
#pragma once
#include <filesystem>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "grading/platform.h"
#include "grading/score.h"

namespace stencil::grading {

// What graded (the stencil-lab version, the exercise and its hash, the visible seed, the file's
// SHA-256): Gradescope's extra_data.graded_by, Classroom's graded_by, PrairieLearn's output's last line.
nlohmann::json grade_record(const Score& s);

// `extra`: the check's own JSON, as the results' extra_data (null: none), graded_by added.
nlohmann::json to_gradescope(const Score& s, const nlohmann::json& extra);
nlohmann::json to_gradescope(const Score& s);
nlohmann::json to_prairielearn(const Score& s);
nlohmann::json to_classroom(const Score& s, const std::string& submission_hash);
nlohmann::json results_for(Platform p, const Score& s, const std::string& submission_hash = "");

// PrairieLearn reads at most 1 MB: outputs are cut (with a note) until the file fits.
inline constexpr size_t kPrairieLearnMaxBytes = 1000 * 1000;

// Writes `j` to `path` whole or not at all (a temporary file renamed into place), creating the
// folder. Throws UserError naming the path.
void write_results_file(const std::filesystem::path& path, const nlohmann::json& j);

}  // namespace stencil::grading
