// One grading job as a platform runs it (`stencil-lab autograder run`): the bundle's grading.json
// says what is graded (an exercise with its rubric, or a lab's answer sheet with the instructor's
// course file), the platform's layout says where the submission is and where the results go.
//
//   {"kind": "exercise", "rubric": {...rubric.h...}, "backend": "auto"}
//   {"kind": "lab", "lab": 2, "course": {...course.h...}, "results": "gpu-results.json"}
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

// Finds the submission in the layout's submission folder (a lab: the one .json; an exercise: the
// one .cu, or stencil.cu among several), grades it, writes the platform's results file.
JobOutcome run_job(Platform p, const PlatformLayout& where, const JobConfig& config);

// The file a job grades in `folder`, or why there is none (`extension`: ".cu" or ".json").
struct Found {
    std::filesystem::path path;
    std::string problem;
};
Found find_submission(const std::filesystem::path& folder, const std::string& extension, const std::string& preferred);

// A lab answer sheet scored: one test per question, a point each; GPU questions without figures
// are left out. The output names what is wrong in words, the values only in practice mode.
Score score_lab(int lab, const std::filesystem::path& sheet, const labs::Course& course,
                const std::optional<std::string>& gpu_results);

}  // namespace stencil::grading
