// The streaming kernel on the retired fiber engine (the CPU benchmark's peer only): not there. The
// kernel exchanges x-neighbours with warp shuffles and loads 16-byte vectors, which the fiber
// engine (the kernel source compiled by the host compiler) does not emulate; the CPU backend runs
// it on the PTX engine (launch_ptx.cpp) like every other version.
#include "backends/cpu/launch_common.h"
#include "core/error.h"

namespace stencil::cpu_detail {

simt::ExecReport launch_streaming(const LaunchRequest&, const StencilWeights&, const void*, void*,
                                  const simt::ExecOptions&, const LaunchGeometry&) {
    throw UserError("streaming runs on the PTX engine only: the retired fiber engine has no warp shuffles");
}

}  // namespace stencil::cpu_detail
