// `stencil-lab autograder make`: a platform's bundle for one exercise or one lab, written whole
// or not at all (a temporary folder beside DIR, renamed into place).
//   gradescope    DIR/autograder.zip: setup.sh, run_autograder, grading.json, stencil-lab/ (the
//                 install tree, when the running binary is installed)
//   prairielearn  DIR/Dockerfile and DIR/stencil-lab/ (the grader image), DIR/question/ (info.json,
//                 question.html, the skeleton, tests/run.sh and tests/grading.json)
//   classroom     DIR as a template repository: .github/workflows/classroom.yml (one autograding
//                 step per rubric item, or per question of a lab), .stencil-lab/ (grading.json,
//                 setup.sh, grade, stencil-lab/), the skeleton or answers.json, the README
// Why the binaries travel prebuilt and NVRTC comes from NVIDIA's apt repository: README,
// "Grading a course".
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "grading/job.h"
#include "grading/platform.h"

namespace stencil::grading {

struct BundleRequest {
    Platform platform = Platform::gradescope;
    JobConfig config;                    // config.secret: the course secret (seeds.h); Classroom leaves it out
    std::filesystem::path out;
    std::filesystem::path install_tree;  // an install prefix to copy in; empty: none (a build tree)
    bool stencil_lab_on_path = false;    // ship no stencil-lab: the box has its own on PATH
    std::filesystem::path data;          // the data folder (core/install_layout.h): READMEs, skeletons
    std::optional<std::filesystem::path> gpu_results;  // lab: the GPU questions' figures
    std::string image = "YOU/stencil-lab-grader";       // PrairieLearn: the grader image's name
    std::string secret_origin;           // where the secret came from, for the notes ("" : made now)
};

struct BundleReport {
    std::vector<std::string> files;  // what was written, relative to DIR
    std::vector<std::string> notes;  // what the instructor must do next or know
};

// Throws UserError (one line) for an out folder that cannot be written or is not empty, and when
// it cannot ship a stencil-lab that runs there: no install tree (a build tree's stencil-lab, unless
// stencil_lab_on_path), or one that needs more than the platform's image has (tree_check.h).
// Nothing is left behind then.
BundleReport make_bundle(const BundleRequest& req);

// The GitHub Classroom workflow's steps: (id, what it grades, points).
struct ClassroomStep {
    std::string id, item;
    double points = 0;
};
std::vector<ClassroomStep> classroom_steps(const JobConfig& config, bool with_gpu_results);

// PrairieLearn's question UUID: from the course secret and what is graded, the same on every make.
std::string question_uuid(const JobConfig& config);

// A grader image name Docker accepts ([registry/]name[:tag], lowercase path), or UserError.
std::string checked_image_name(const std::string& image);

}  // namespace stencil::grading
