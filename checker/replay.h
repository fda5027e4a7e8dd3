// The parent's replay of a failing CPU run (protocol.h's ReplaySpec; the runner's recording launch,
// backends/cpu/ptx/provenance.h): after the verdict is decided, the run that gave its evidence runs
// once more in a runner of its own, so that the checked runs pay nothing for it. It fills
//   Evidence::sources   wrong_result / unwritten / boundary_modified / input_modified: the statement
//                       that stored the first bad cell (with its block and thread), or for a cell no
//                       thread stored, the statements that store into out[] (none: the message says)
//   Evidence::explain   with CheckOptions::explain: the backward slice in words (explain.h), also for a
//                       race (the slice of the reading thread's output)
// and turns the warning about shared cells no thread stored into the cause when the first bad
// output depends on one.
#pragma once
#include <string>
#include <vector>

#include "checker/checker.h"
#include "checker/evaluate.h"
#include "checker/field_exercises.h"

namespace stencil::checker {

struct ReplayInputs {
    const Exercise& ex;
    int tile = 0;
    const SharedArrays& arrays;
    const Request& request;               // the check's request (its cases are replaced)
    const std::vector<TestCase>& cases;   // the check's cases, in the request's order
    std::string runner;                   // stencil-check-runner's path
    std::string work;                     // the check's work folder (the replay's is inside it)
    const CheckOptions& opt;
};

void replay_failing_run(Verdict verdict, Evidence& ev, std::vector<std::string>& warnings, const ReplayInputs& in);
// The same for cardiac2d and the derivative (their cases; ReplayInputs::cases is not read).
void replay_failing_field_run(Verdict verdict, Evidence& ev, std::vector<std::string>& warnings,
                              const ReplayInputs& in, const std::vector<FieldCase>& cases);

}  // namespace stencil::checker
