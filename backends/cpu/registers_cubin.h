// NVRTC to a cubin for a real architecture (sm_90), on any machine: no GPU and no driver. The
// cubin is what ptxas makes of the kernels, so its register counts are the compiler's answer to
// "how many registers per thread" (read by analysis/registers_check.h). The lab's kernels
// otherwise go to PTX (backends/cpu/ptx/nvrtc_ptx.h); this is only for the registers check.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "backends/cpu/ptx/nvrtc_ptx.h"

namespace stencil {

struct CubinResult {
    bool ok = false;
    std::string log;                  // NVRTC's (and ptxas's) log
    std::vector<unsigned char> cubin;  // the ELF
    std::vector<std::pair<std::string, std::string>> lowered;  // (name expression, mangled name)
    std::string lowered_name(const std::string& expression) const;
};

// Compiles req (its source, headers, name expressions and options) for `arch` ("sm_90") with
// --std=c++17. Never throws for a fault of the source (ok = false and the log); throws ptx::Error
// when NVRTC itself cannot be used.
CubinResult compile_to_cubin(const ptx::CompileRequest& req, const std::string& arch = "sm_90");

}  // namespace stencil
