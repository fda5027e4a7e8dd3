// The conv27 kernel (kernels/conv27.cuh, unmodified) on the retired fiber engine (the CPU
// benchmark's peer only), every built (r, precision). launch_kernel sets the star's constant
// arrays; this kernel reads its own dense cube, filled here from the same weights.
#include "backends/cpu/launch_common.h"
#include "kernels/conv27.cuh"
#include "kernels/dense_weights.h"

namespace stencil::cpu_detail {

namespace {
std::mutex g_launch_mutex;
std::mutex g_cube_mutex;  // held across the launch: the cube is this TU's, as on the GPU per module
}

simt::ExecReport launch_conv27(const LaunchRequest& req, const StencilWeights& w, const void* in,
                               void* out, const simt::ExecOptions& opt, const LaunchGeometry& geo) {
    std::lock_guard lock(g_cube_mutex);
    fill_dense_weights(w.c.data(), req.radius, c_dense_weights_f32);
    fill_dense_weights(w.c.data(), req.radius, c_dense_weights_f64);
    return launch_kernel<KernelId::conv27>(
        g_launch_mutex, req, w, in, out, opt, geo,
        []<class real, int T, int R>(auto in, auto out, int nx, int ny, int nz) {
            stencil_conv27_kernel<real, R>(in, out, nx, ny, nz);
        });
}

}  // namespace stencil::cpu_detail
