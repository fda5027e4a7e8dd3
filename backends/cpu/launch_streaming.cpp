// The streaming kernel (kernels/streaming.cuh, unmodified) on the retired fiber engine (the CPU benchmark's peer only), every built (T, r, precision).
#include "backends/cpu/launch_common.h"
#include "kernels/streaming.cuh"

namespace stencil::cpu_detail {

namespace {
std::mutex g_launch_mutex;
}

simt::ExecReport launch_streaming(const LaunchRequest& req, const StencilWeights& w, const void* in,
                             void* out, const simt::ExecOptions& opt, const LaunchGeometry& geo) {
    return launch_kernel<KernelId::streaming>(
        g_launch_mutex, req, w, in, out, opt, geo,
        []<class real, int T, int R>(auto in, auto out, int nx, int ny, int nz) {
            stencil_streaming_kernel<real, T, R>(in, out, nx, ny, nz);
        });
}

}  // namespace stencil::cpu_detail
