// What a submission compiled for the CPU backend and the runner that dlopens it agree on.
// The translation unit (checker/source.cpp) includes this first, then the student's code, then
// four extern "C" functions: stencil_check_set_coefficients (the exercise's 6r + 1 weights),
// stencil_check_thread (one emulated thread's body: calls stencil_kernel(in, out, N)),
// stencil_check_abi and stencil_check_element_bytes (4 or 8: the runner checks it is the
// precision it was asked to run).
#pragma once
#include "backends/cpu/simt.h"

namespace stencil::checker {

inline constexpr int kCpuAbiVersion = 2;

template <class real>  // float or double: the exercise's precision
struct CpuKernelArgs {
    simt::GlobalPtr<real> in;   // buffer 0, N^3 cells, bounds-checked
    simt::GlobalPtr<real> out;  // buffer 1
    unsigned int n = 0;
};

}  // namespace stencil::checker
