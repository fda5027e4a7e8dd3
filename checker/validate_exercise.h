// `stencil-lab exercise validate DIR`: whether an exercise folder is fit to grade with. Its spec
// parses (checker/exercise_spec.h; every hint it names is in its README); its solution passes on
// the CPU engine, and on the GPU when one is there; its load budget can be computed and the
// solution keeps to it; its skeleton compiles and does not pass; every wrong/*.cu gets the verdict
// its first line names:
//
//   // expect: race; gpu: race|wrong_result
//
// (the CPU engine's verdict, then what a GPU may give where the engine is stricter; without `gpu:`
// the same verdict on both). `autograder make` refuses an exercise that does not validate.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "checker/checker.h"
#include "checker/exercises.h"

namespace stencil::checker {

struct ValidationStep {
    std::string what;    // "solution.cu on the CPU engine", "wrong/no_sync.cu"
    bool ok = false;
    std::string detail;  // "pass (11 sizes, 4.1 s)", "expected race, got pass"
};

struct Validation {
    std::vector<ValidationStep> steps;
    std::optional<double> budget;  // global loads per output at the default tile
    bool ok() const;
};

struct ValidateOptions {
    std::string backend = "auto";  // auto: the CPU engine, and the GPU too when one can run checks
    std::function<void(const ValidationStep&)> on_step;  // each step as it ends (a terminal's lines)
};

// The `// expect:` line of a wrong/ file: the CPU engine's verdict and the GPU's alternatives;
// nullopt with `error` when the first line is not such a line.
struct Expectation {
    Verdict cpu = Verdict::pass;
    std::vector<Verdict> gpu;
};
std::optional<Expectation> parse_expectation(const std::string& first_line, std::string& error);

Validation validate_exercise(const Exercise& ex, const ValidateOptions& opt);

}  // namespace stencil::checker
