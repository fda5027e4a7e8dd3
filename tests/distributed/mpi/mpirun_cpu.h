// What the mpirun tests of both problems share (test_mpirun.cpp, test_mpirun_cardiac.cpp): a run
// of stencil-lab under mpirun on the CPU backend, rank 0's one line of JSON, and the refusals.
// (No JSON parser here: headers stay free of nlohmann/json.hpp; the tests parse the line.)
#pragma once
#include <string>

#include "tests/distributed/cli_run.h"

namespace stencil::test {

// `mpirun -np ranks stencil-lab run --backend cpu ARGS`.
inline Outcome mpirun(int ranks, const std::string& args) {
    return run_command(mpirun_prefix(MPIEXEC, ranks) + stencil_lab_exe() + " run --backend cpu " + args);
}

// A run that went through: rank 0's one line (its JSON object), nothing from the others.
inline std::string the_one_line(const Outcome& o) {
    CAPTURE(o.out, o.err);
    REQUIRE(o.rc == 0);
    const auto lines = lines_of(o.out);
    REQUIRE(lines.size() == 1);
    return lines[0];
}

// Bad input: exit 2, stdout empty, and exactly one line of ours (mpirun adds its own notice).
inline void require_refused(int ranks, const std::string& args, const std::string& why) {
    CAPTURE(ranks, args);
    require_one_refusal(mpirun(ranks, args), why);
}

// `--backend cuda` on 2 ranks of a machine without a GPU (ARGS: the rest of the command line):
// one line and exit 2, not a hang. On a machine with a GPU there is nothing to refuse.
inline void require_cuda_refused_without_gpu(const std::string& args) {
    if (run_command("nvidia-smi -L").rc == 0) {
        WARN("this machine has a GPU: the CUDA backend starts, nothing to refuse");
        return;
    }
    require_one_refusal(run_command(mpirun_prefix(MPIEXEC, 2) + stencil_lab_exe() + " run --backend cuda " + args),
                        "--backend cuda");
}

}  // namespace stencil::test
