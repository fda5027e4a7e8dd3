// What a submission compiled for the CPU backend and the runner that dlopens it agree on.
// The translation unit (checker/source.cpp) includes this first, then the student's code, then
// three extern "C" functions: stencil_check_set_coefficients, stencil_check_thread (one emulated
// thread's body: calls stencil_kernel(in, out, N)) and stencil_check_abi.
#pragma once
#include "backends/cpu/simt.h"

namespace stencil::checker {

inline constexpr int kCpuAbiVersion = 1;

struct CpuKernelArgs {
    simt::GlobalPtr<float> in;   // buffer 0, N^3 cells, bounds-checked
    simt::GlobalPtr<float> out;  // buffer 1
    unsigned int n = 0;
};

}  // namespace stencil::checker
