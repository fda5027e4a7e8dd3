// What ptxas gave each function of a CUDA cubin (the ELF NVRTC makes for sm_90: registers_cubin.h,
// or nvrtc_ptx.h's compile with a cubin), by mangled name: registers per thread (EIATTR_REGCOUNT,
// what `cuobjdump --dump-resource-usage` prints as REG) and the per-thread stack frame
// (EIATTR_FRAME_SIZE: spills, local arrays, and the registers a callee saves). The checker holds a
// launch to them as the GPU does (ptx::GpuLimits); the analysis compares them with the model's.
#pragma once
#include <map>
#include <span>
#include <string>

namespace stencil {

struct CubinResources {
    int registers = -1;
    long long frame_bytes = 0;
};
// Throws std::runtime_error naming what is wrong with bytes that are not an ELF64 cubin with
// register attributes.
std::map<std::string, CubinResources> cubin_resources(std::span<const unsigned char> elf);

}  // namespace stencil
