// Internal to stencil-check-runner: the helpers its CPU and CUDA halves share (the request's
// files, the NVRTC compile both halves run, the result). The halves live in separate files: the
// CUDA half is built only with the CUDA backend.
#pragma once
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "checker/protocol.h"

namespace stencil::checker::runner {

using json = nlohmann::json;

// Cells of the exercise's precision (float or double), as the parent wrote them.
template <class real>
std::vector<real> read_cells(const std::string& path) {
    std::ifstream f(path, std::ios::binary | std::ios::ate);
    if (!f) throw std::runtime_error("runner: cannot read " + path);
    const auto bytes = static_cast<size_t>(f.tellg());
    std::vector<real> v(bytes / sizeof(real));
    f.seekg(0);
    f.read(reinterpret_cast<char*>(v.data()), static_cast<std::streamsize>(v.size() * sizeof(real)));
    return v;
}

template <class real>
void write_cells(const std::string& path, const std::vector<real>& v) {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(v.data()), static_cast<std::streamsize>(v.size() * sizeof(real)));
    if (!f) throw std::runtime_error("runner: cannot write " + path);
}

inline bool is_f64(const Request& req) { return req.precision == Precision::f64; }

inline void progress(const std::string& s) {
    std::fprintf(stderr, "stencil-check-runner: %s\n", s.c_str());
    std::fflush(stderr);
}

// What buffer `buffer` of case c held after run r.
inline std::string run_file(int c, int r, const std::string& buffer) {
    return "case" + std::to_string(c) + ".run" + std::to_string(r) + "." + buffer;
}

// A constant's values in `real`, as the kernel declares it (the request has them rounded already).
template <class real>
std::vector<unsigned char> constant_bytes(const ConstantSpec& k) {
    std::vector<unsigned char> b(k.values.size() * sizeof(real));
    for (size_t i = 0; i < k.values.size(); ++i) {
        const real v = static_cast<real>(k.values[i]);
        std::memcpy(b.data() + i * sizeof(real), &v, sizeof(real));
    }
    return b;
}

// A case's arguments checked against its buffers (the parent wrote them; a mismatch is a bad
// request, never an out-of-range index).
inline void check_args(const CaseSpec& cs) {
    for (const KernelArg& a : cs.args)
        if (a.kind == ArgKind::buffer && (a.buffer < 0 || a.buffer >= int(cs.buffers.size())))
            throw std::runtime_error("runner: an argument names a buffer the case does not have");
}

// The submission as both backends run it: NVRTC's PTX (sm_90, -lineinfo), the lowered names of the
// kernel and of the request's constants, in order, and ptxas's resources for the GPU.
struct Compiled {
    bool ok = false;
    CompileStage stage = CompileStage::nvrtc;  // when !ok
    std::string log;     // NVRTC's log (or why the PTX cannot be used)
    std::string ptx;
    std::string kernel;
    std::vector<std::string> constants;
    double seconds = 0;
    // What ptxas gave each function for the GPU (sm_90): registers per thread, stack frame bytes.
    // The CPU engine holds a launch to them as the GPU does (ptx::GpuLimits); empty when the cubin
    // could not be read (`limits_note` says why).
    std::vector<std::pair<std::string, int>> registers;
    std::vector<std::pair<std::string, long long>> frame_bytes;
    std::string limits_note;
};
// Compiles the request's translation unit (`source`, named `display_name`) in this process,
// under the request's `compile_seconds` (see arm_time_limit) and `compile_memory_bytes` (an
// address-space limit while NVRTC runs; should NVRTC die of it, the runner exits
// kCompileCrashExit).
Compiled compile_submission(const Request& req);
// For result.compile: the parent's compile_error.
CompileOutcome compile_failure(CompileStage stage, const std::string& log);

// The runner's own clocks (SIGALRM; the parent's wall clock is the outer wall): while compiling,
// `compile_seconds` (then exit kCompileTimeLimitExit), while running the request's `time_limit`
// (then exit kRunTimeLimitExit), so that the time limit covers the kernel's runs only.
enum class Phase { compiling, running };
void arm_time_limit(Phase phase, double seconds);

int run_cpu(const Request& req);   // runner_cpu.cpp
int run_cuda(const Request& req);  // runner_cuda.cpp
int probe_cuda();                  // 0 when a device is usable, else kProbeNoDeviceExit

}  // namespace stencil::checker::runner
