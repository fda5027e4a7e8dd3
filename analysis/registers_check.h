// Text 000's question, "how many registers per thread for a 3D 7-, 9- and 27-point stencil?":
// the model's answer (analysis/model.h, registers_for: the values a z-marching thread queues) held
// against the compiler's.
//
// The compiler's count comes from a cubin (NVRTC can make one for sm_90 on any machine: the CPU
// backend's registers_cubin.h), read from the ELF itself (core/cubin_resources.h): the
// EIATTR_REGCOUNT attributes of its .nv.info sections (what `cuobjdump --dump-resource-usage`
// prints as REG).
//
// The tolerance. The model counts only the stencil's values a thread keeps in registers; the
// compiler's count also holds what every such kernel needs whatever its stencil: the two 64-bit
// pointers, the thread's indices, the plane stride, the z loop's counter and bound, the
// accumulator, the values being loaded. So the model is a lower bound (a compiler below it would
// have spilled or re-read the queue), and the rest is an overhead bounded by the count below:
// compiler - model lies in [0, kRegisterOverheadMax]. ptxas does not minimise registers (it takes
// more for overlapping loads when the budget allows), so the overhead varies between kernels;
// the second, sharper question the compiler answers is whether the queue fits a budget: capped at
// 24 registers (--maxrregcount, ptxas's floor for sm_90), the 27-point kernel spills and the 7-
// and 9-point ones do not (tests/derivative/test_registers_check.cpp).
#pragma once
#include <string>

#include "analysis/model.h"
#include "core/cubin_resources.h"

namespace stencil::analysis {

// What ptxas gave each kernel of a CUDA cubin (core/cubin_resources.h).
using stencil::CubinResources;
using stencil::cubin_resources;

// The tolerance, counted for the z-march kernels (tests/derivative/fixtures/register_queues.cuh):
// 4 registers for the two 64-bit pointers, 4 for two 64-bit addresses being formed, 8 for the
// indices, strides and the loop's counter and bound, 1 for a shared address, 1 for the
// accumulator, up to 9 for loads in flight (one plane of the box's columns), 1 spare. (Measured
// with CUDA 13.0 for sm_90: 20, 25 and 5 over the model for the 7-, 9- and 27-point kernels.)
inline constexpr int kRegisterOverheadMax = 28;

struct RegisterCheck {
    std::string stencil;
    int model = 0;     // queue_registers
    int compiler = 0;  // the compiler's registers per thread
    int overhead = 0;  // compiler - model
    bool ok = false;   // 0 <= overhead <= kRegisterOverheadMax
    std::string summary() const;
};
RegisterCheck check_registers(const RegisterAnswer& model, int compiler_registers);

}  // namespace stencil::analysis
