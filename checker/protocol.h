// What the parent (checker.cpp) and stencil-check-runner agree on beyond the request and result
// files: the exit codes the runner ends with when one of its own limits is reached, and the
// limits both backends hold a submission to.
#pragma once

namespace stencil::checker {

// NVRTC ran past the request's `compile_seconds`: a compile_error, as a compiler that gives up.
inline constexpr int kCompileTimeLimitExit = 87;
// The kernel's runs ran past the request's `time_limit` (compile excluded): a timeout.
inline constexpr int kRunTimeLimitExit = 88;

// Static __shared__ bytes per block: every CUDA GPU refuses more when it assembles the PTX
// (ptxas: "uses too much shared data"); the CPU engine says the same before it runs anything.
inline constexpr long long kMaxStaticSharedBytes = 48 * 1024;

// NVRTC's own limit; a stencil kernel compiles in about a second.
inline constexpr double kCompileSeconds = 60;

}  // namespace stencil::checker
