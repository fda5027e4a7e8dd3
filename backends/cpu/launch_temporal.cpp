// The temporal kernel on the retired fiber engine (the CPU benchmark's peer only): not there. Its
// threads exchange x-neighbours with warp shuffles, which the fiber engine (the kernel source
// compiled by the host compiler) does not emulate; the CPU backend runs it on the PTX engine
// (launch_ptx.cpp) like every other version, K = 1..4.
#include "backends/cpu/launch_common.h"
#include "core/error.h"

namespace stencil::cpu_detail {

simt::ExecReport launch_temporal(const LaunchRequest&, const StencilWeights&, const void*, void*,
                                 const simt::ExecOptions&, const LaunchGeometry&) {
    throw UserError("temporal runs on the PTX engine only: the retired fiber engine has no warp shuffles");
}

}  // namespace stencil::cpu_detail
