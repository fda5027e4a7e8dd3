// One grading job as a platform runs it (`stencil-lab autograder run`): the bundle's grading.json
// says what is graded (an exercise with its rubric, or a lab's answer sheet with the instructor's
// course file), the platform's layout says where the submission is and where the results go.
//
//   {"kind": "exercise", "rubric": {...rubric.h...}, "backend": "auto", "secret": "64 hex digits"}
//   {"kind": "lab", "lab": 2, "course": {...course.h...}, "results": "gpu-results.json"}
//
// The secret (seeds.h) makes the check's seeds: the same file gets the same grade on a regrade, and
// the hidden sizes cannot be reproduced without it. Without one, the seeds follow from the
// exercise and the file alone.
//
// Whatever happens (no submission, two of them, a file that is not text, the box out of memory),
// a results file is written that says why: never a silent 0.
#pragma once
#include <filesystem>
#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "grading/platform.h"
#include "grading/rubric.h"
#include "grading/score.h"
#include "labs/grading/course.h"

namespace stencil::grading {

struct JobConfig {
    enum class Kind { exercise, lab } kind = Kind::exercise;
    Rubric rubric;                 // exercise
    std::string backend = "auto";  // exercise: where the kernel runs
    std::string secret;            // exercise: the course secret (seeds.h); empty: none
    std::string exercise_folder;   // exercise: an exercise folder shipped beside grading.json (a
                                   // course's own, not a built-in), relative to it; the rubric's
                                   // exercise is that folder once the config is loaded
    int lab = 0;                   // lab
    labs::Course course;           // lab
    std::string gpu_results;       // lab: a results file beside grading.json for the GPU questions
};

JobConfig parse_job_config(const nlohmann::json& j, const std::string& origin);
JobConfig load_job_config(const std::filesystem::path& path);
nlohmann::json to_json(const JobConfig& c);

struct JobOutcome {
    Score score;
    std::string submission_sha256;  // of the graded file ("" when there was none)
    std::string submission;         // its path
};

// Finds the submission in the layout's submission folder (find_submission), grades it with the
// seeds of seeds.h, writes the platform's results file.
JobOutcome run_job(Platform p, const PlatformLayout& where, const JobConfig& config);

// The file a job grades anywhere under `folder` (nested folders, any name, as a GitHub checkout or
// an unzipped folder holds it; names starting with '.' are skipped): the one file with
// `extension`; among several, the one that has `kernel` (an exercise's kernel name followed by
// '('), else the one named `preferred`. A .zip anywhere is refused (submit the files, not an
// archive). `problem` names what was found when there is not exactly one.
struct Found {
    std::filesystem::path path;
    std::string problem;
};
Found find_submission(const std::filesystem::path& folder, const std::string& extension, const std::string& preferred,
                      const std::string& kernel = "");
// The submission an exercise's job grades (the exercise's kernel name) or a lab's (answers.json).
Found find_job_submission(const std::filesystem::path& folder, const JobConfig& config);

// A lab answer sheet scored: one test per question, a point each; GPU questions without figures
// are left out. The output names what is wrong in words, the values only in practice mode.
Score score_lab(int lab, const std::filesystem::path& sheet, const labs::Course& course,
                const std::optional<std::string>& gpu_results);

}  // namespace stencil::grading
