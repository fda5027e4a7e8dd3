// stencil-check-runner: the child process of `stencil-lab check`. It runs a submission and
// nothing else; the parent (checker.cpp) decides the verdict from what it writes back.
//
//   stencil-check-runner REQUEST.json      (run in the request's folder)
//
// Both backends first compile the translation unit with NVRTC to PTX (runner_compile.cpp; errors
// name the student's FILE.cu and line). CPU: the PTX engine interprets that PTX under each
// schedule the request lists (shared checks on). CUDA: the driver loads the same PTX
// (cudaLibraryLoadData), cudaLaunchKernel runs it; the GPU's counters count its loads and it is
// timed against the lab's kernel, interleaved, with CUDA events.
//
// For every (case, run) it writes case<c>.run<r>.out and .in: the whole buffers, guard zones
// included, as the kernel left them. Progress goes to stderr one line per run, so that the
// parent can tell which test a crash happened in. result.json (protocol.h's Result) is written
// at the end. The exit codes that mean something to the parent are protocol.h's.
#include <nlohmann/json.hpp>

#include <cstdio>
#include <exception>
#include <fstream>
#include <sstream>

#include "checker/protocol.h"
#include "checker/runner.h"
#include "checker/sandbox.h"

using namespace stencil::checker;
using namespace stencil::checker::runner;

namespace {

int run(const Request& req) {
    switch (req.mode) {
        case RunnerMode::cpu: return run_cpu(req);
        case RunnerMode::probe_sandbox: return probe_sandbox();  // tests: the second wall holds
#ifdef STENCIL_CHECKER_HAVE_CUDA
        case RunnerMode::cuda: return run_cuda(req);
        case RunnerMode::probe_cuda: return probe_cuda();
#else
        case RunnerMode::cuda:
        case RunnerMode::probe_cuda: break;
#endif
    }
    std::fprintf(stderr, "stencil-check-runner: this runner was built without the '%s' mode\n",
                 std::string(to_string(req.mode)).c_str());
    return kBackendNotBuiltExit;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: stencil-check-runner REQUEST.json (started by stencil-lab check)\n");
        return 2;
    }
    Request req;
    try {
        std::ifstream f(argv[1], std::ios::binary);
        if (!f) throw ProtocolError(std::string("cannot read ") + argv[1]);
        std::ostringstream text;
        text << f.rdbuf();
        req = parse_request(text.str());
    } catch (const SchemaMismatch& e) {
        std::fprintf(stderr, "stencil-check-runner: %s\n", e.what());
        return kProtocolMismatchExit;
    } catch (const ProtocolError& e) {
        std::fprintf(stderr, "stencil-check-runner: %s\n", e.what());
        return kBadRequestExit;
    }
    try {
        return run(req);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "stencil-check-runner: %s\n", e.what());
        return 3;
    }
}
