// The temporal kernel (kernels/temporal.cuh, unmodified) on the retired fiber engine (the CPU
// benchmark's peer only), every built (T, r, precision), one step per launch (K = 1): the benchmark
// compares the engines on one launch of every version, and each K would multiply this file's host
// compile. A launch fusing more steps is refused here in a diagnostic; the PTX engine runs them all.
#include "backends/cpu/launch_common.h"
#include "kernels/temporal.cuh"

namespace stencil::cpu_detail {

namespace {
std::mutex g_launch_mutex;
}

simt::ExecReport launch_temporal(const LaunchRequest& req, const StencilWeights& w, const void* in,
                                 void* out, const simt::ExecOptions& opt, const LaunchGeometry& geo) {
    if (steps_per_launch(req) != 1) {
        simt::ExecReport rep;
        simt::Diagnostic d;
        d.kind = simt::DiagKind::kernel_exception;
        d.message = "the fiber engine runs temporal one step per launch only (K = 1); the PTX engine runs K = 1..4";
        rep.ok = false;
        rep.totals[static_cast<int>(d.kind)] = 1;
        rep.diagnostics.push_back(d);
        return rep;
    }
    return launch_kernel<KernelId::temporal>(
        g_launch_mutex, req, w, in, out, opt, geo,
        []<class real, int T, int R>(auto in, auto out, int nx, int ny, int nz) {
            stencil_temporal_kernel<real, T, R, 1>(in, out, nx, ny, nz);
        });
}

}  // namespace stencil::cpu_detail
