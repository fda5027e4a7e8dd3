// The three platforms a course grades on, and where each lays out a grading job: the folder the
// submission lands in, the results file it reads back, the folder our own files (the bundle) are
// in. `STENCIL_LAB_PLATFORM_ROOT` moves the root, so a test runs a bundle in a temporary folder
// laid out as the platform lays it out.
//   gradescope    /autograder: source/ (the zip's contents), submission/, results/results.json
//   prairielearn  /grade: tests/ (the question's tests/), student/, results/results.json
//   classroom     the repository's checkout: .stencil-lab/ (ours), the student's files at the top,
//                 .stencil-lab/results.json (our own cache: the workflow's steps read exit codes)
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace stencil::grading {

enum class Platform { gradescope, prairielearn, classroom };
const char* to_string(Platform p);
std::optional<Platform> parse_platform(std::string_view s);
std::string platform_names();  // "gradescope, prairielearn, classroom"

struct PlatformLayout {
    std::filesystem::path root;
    std::filesystem::path source;       // our files: grading.json, the install tree
    std::filesystem::path submission;   // the folder the student's files are in
    std::filesystem::path results;      // the results file the platform reads
};

// The platform's own root, or $STENCIL_LAB_PLATFORM_ROOT when set (classroom: the current folder).
std::filesystem::path default_root(Platform p);
PlatformLayout layout(Platform p, const std::filesystem::path& root);

}  // namespace stencil::grading
