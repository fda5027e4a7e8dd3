// stencil-check-runner: the child process of `stencil-lab check`. It runs a submission and
// nothing else; the parent (checker.cpp) decides the verdict from what it writes back.
//
//   stencil-check-runner REQUEST.json      (run in the request's folder)
//
// Both backends first compile the translation unit with NVRTC to PTX (runner_compile.cpp; errors
// name the student's FILE.cu and line). CPU: the PTX engine interprets that PTX under each
// schedule the request lists (shared checks on). CUDA: the driver loads the same PTX
// (cudaLibraryLoadData), cudaLaunchKernel runs it; the GPU's counters count its loads and it is
// timed against the lab's own kernel, interleaved, with CUDA events.
//
// For every (case, run) it writes case<c>.run<r>.out and .in: the whole buffers, guard zones
// included, as the kernel left them. Progress goes to stderr one line per run, so that the
// parent can tell which test a crash happened in. result.json is written at the end.
#include <cstdio>
#include <exception>
#include <fstream>

#include "checker/runner.h"
#include "checker/sandbox.h"

using namespace stencil::checker::runner;

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: stencil-check-runner REQUEST.json (started by stencil-lab check)\n");
        return 2;
    }
    try {
        std::ifstream f(argv[1]);
        const json req = json::parse(f);
        const std::string backend = req.at("backend");
        if (backend == "cpu") return run_cpu(req);
        if (backend == "probe-sandbox") return probe_sandbox();  // tests: the second wall holds
#ifdef STENCIL_CHECKER_HAVE_CUDA
        if (backend == "cuda") {
            return run_cuda(req);
        }
        if (backend == "probe-cuda") return probe_cuda();
#endif
        std::fprintf(stderr, "stencil-check-runner: backend '%s' is not built into this runner\n",
                     backend.c_str());
        return 5;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "stencil-check-runner: %s\n", e.what());
        return 3;
    }
}
