// Where a binary finds its companions: the runner (`stencil-check-runner`) and the data the
// grading commands read (the exercises' READMEs and skeletons, the labs' handouts and GPU
// results), in an install tree and in a build tree alike.
//
// An install tree (`cmake --install`, see README "Grading a course"):
//   <prefix>/bin/stencil-lab
//   <prefix>/libexec/stencil-lab/stencil-check-runner
//   <prefix>/share/stencil-lab/{exercises,labs,results}/...
// A build tree: the runner beside the binary (or one folder up, for the test executables in
// <build>/tests), the data in the source tree the build was configured from.
// Everything is found relative to /proc/self/exe, so an install tree can be moved or copied as a
// whole (a grading box, a Docker image) and needs no environment.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace stencil {

// The running executable's own path (/proc/self/exe), empty when it cannot be read.
std::filesystem::path self_executable();

// The places the runner is looked for, in order: $STENCIL_CHECK_RUNNER, beside the executable,
// <prefix>/libexec/stencil-lab, one folder up, and `build_fallback` (the build tree's own path).
std::vector<std::filesystem::path> runner_candidates(const std::string& build_fallback);
// The first candidate that exists, else the last one (so that the error names a real path).
std::string find_runner(const std::string& build_fallback);

// The folder holding exercises/, labs/ and results/: $STENCIL_LAB_DATA_DIR, <prefix>/share/
// stencil-lab beside an installed binary, else `source_fallback` (the source tree of a build).
// Empty when none of them holds exercises/.
std::filesystem::path data_dir(const std::string& source_fallback);

// The install prefix the executable belongs to (the folder above bin/), when it is an install
// tree: bin/stencil-lab beside share/stencil-lab. Empty in a build tree.
std::filesystem::path install_prefix();

}  // namespace stencil
