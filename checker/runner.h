// Internal to stencil-check-runner: the helpers its CPU and CUDA halves share (the request's
// files, the NVRTC compile both halves run, the result). The halves live in separate files: the
// CUDA half is built only with the CUDA backend.
#pragma once
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

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

inline std::string run_file(int c, int r, const char* ext) {
    return "case" + std::to_string(c) + ".run" + std::to_string(r) + "." + ext;
}

// result.json, whole or not at all (written beside, then renamed).
inline void write_result(const Result& result) {
    std::ofstream f("result.json.tmp", std::ios::trunc);
    f << json(result).dump(1);
    f.close();
    std::rename("result.json.tmp", "result.json");
}

// The submission as both backends run it: NVRTC's PTX (compute_90, -lineinfo) and the lowered
// names of the kernel and of the weights c0..c{6r}, in order.
struct Compiled {
    bool ok = false;
    CompileStage stage = CompileStage::nvrtc;  // when !ok
    std::string log;     // NVRTC's log (or why the PTX cannot be used)
    std::string ptx;
    std::string kernel;
    std::vector<std::string> weights;
    double seconds = 0;
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
