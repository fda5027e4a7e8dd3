// CUDA C++ to PTX with NVRTC: the one compiler both backends' run-time kernels go through.
//
// NVRTC is a library of the CUDA toolkit; it needs no GPU and no driver. The PTX it returns is
// what the GPU's driver assembles (cudaLibraryLoadData) and what the CPU engine (engine.h)
// interprets, so both backends run the very same instructions.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace ptx {

struct Header {
    std::string name;  // as the source #includes it ("kernels/tiled.cuh")
    std::string text;
};

struct CompileRequest {
    std::string source;
    std::string name = "kernel.cu";      // the file name in .loc directives and in NVRTC's log
    std::vector<Header> headers;         // in-memory headers (the only ones a source can include)
    std::vector<std::string> name_expressions;  // "stencil_kernel", "&c0", "f<float, 8>"
    // Beyond the fixed ones (--gpu-architecture=compute_90, -lineinfo, --std=c++17): e.g. "-DT=8".
    std::vector<std::string> options;
    // Also the cubin ptxas makes of that PTX for sm_90 (the GPU's registers and stack frames):
    // compiled for the real architecture, whose PTX is the same text.
    bool cubin = false;
};

struct CompileResult {
    bool ok = false;
    std::string log;  // NVRTC's log, trailing NULs and newlines removed
    std::string ptx;
    std::vector<unsigned char> cubin;  // when asked for
    // With the cubin: each function's stack frame as ptxas reports it (its locals, spills and the
    // registers it saves: what one call of it takes of a thread's stack), by PTX name. ptxas's
    // report lines are not left in `log`.
    std::vector<std::pair<std::string, long long>> stack_frames;
    // (name expression, lowered PTX name) for each name expression NVRTC resolved.
    std::vector<std::pair<std::string, std::string>> lowered;
    double seconds = 0;

    // The lowered name of `expression`, or "" when it has none.
    std::string lowered_name(const std::string& expression) const;
};

// Compiles in this process. Never throws for a fault in the source (that is ok = false and the
// log); throws ptx::Error when NVRTC itself cannot be used.
CompileResult compile_to_ptx(const CompileRequest& req);

// The fixed options, for reports ("NVRTC 13.0, compute_90, -lineinfo").
std::vector<std::string> fixed_options();
std::string nvrtc_version();

}  // namespace ptx
