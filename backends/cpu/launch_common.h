// Internal to backends/cpu: the per-kernel launchers (one translation unit per kernel version, so
// the instantiations compile in parallel) and the code they share.
#pragma once
#include <mutex>

#include "backends/cpu/cpu_backend.h"
#include "backends/cpu/simt.h"  // before any kernel source: the host compiler's CUDA
#include "kernels/dispatch.h"
#include "kernels/stencil_coefficients.cuh"

namespace stencil::cpu_detail {

using Launcher = simt::ExecReport (*)(const LaunchRequest&, const StencilWeights&, const void*, void*,
                                      const simt::ExecOptions&, const LaunchGeometry&);
// The PTX engine (launch_ptx.cpp): how the CPU backend runs the lab's kernels.
simt::ExecReport launch_ptx(const LaunchRequest&, const StencilWeights&, const void*, void*,
                            const simt::ExecOptions&, const LaunchGeometry&);
// The retired fiber engine (host-compiled kernel sources), kept only as the CPU benchmark's peer.
simt::ExecReport launch_naive(const LaunchRequest&, const StencilWeights&, const void*, void*,
                              const simt::ExecOptions&, const LaunchGeometry&);
simt::ExecReport launch_tiled(const LaunchRequest&, const StencilWeights&, const void*, void*,
                              const simt::ExecOptions&, const LaunchGeometry&);
simt::ExecReport launch_coarsened(const LaunchRequest&, const StencilWeights&, const void*, void*,
                                  const simt::ExecOptions&, const LaunchGeometry&);
simt::ExecReport launch_register_tiled(const LaunchRequest&, const StencilWeights&, const void*, void*,
                                       const simt::ExecOptions&, const LaunchGeometry&);
simt::ExecReport launch_streaming(const LaunchRequest&, const StencilWeights&, const void*, void*,
                                  const simt::ExecOptions&, const LaunchGeometry&);
simt::ExecReport launch_conv27(const LaunchRequest&, const StencilWeights&, const void*, void*,
                               const simt::ExecOptions&, const LaunchGeometry&);
simt::ExecReport launch_temporal(const LaunchRequest&, const StencilWeights&, const void*, void*,
                                 const simt::ExecOptions&, const LaunchGeometry&);

// Instantiates `kernel.template operator()<real, T, R>(in, out, nx, ny, nz)` through dispatch<K>,
// uploads the weights into this TU's constant arrays and launches it. The TU's mutex serialises
// launches because the constant arrays are per TU, as on the GPU they are per module.
template <KernelId K, class Kernel>
simt::ExecReport launch_kernel(std::mutex& m, const LaunchRequest& req, const StencilWeights& w,
                               const void* in, void* out, const simt::ExecOptions& opt,
                               const LaunchGeometry& geo, Kernel kernel) {
    std::lock_guard lock(m);
    for (int i = 0; i < kMaxCoefficients; ++i) {
        c_coefficients_f32[i] = static_cast<float>(w.c[i]);
        c_coefficients_f64[i] = w.c[i];
    }
    simt::ExecReport rep;
    const long long cells = req.dims.cells();
    const int nx = req.dims.nx, ny = req.dims.ny, nz = req.dims.nz;
    const dim3 grid(geo.grid.x, geo.grid.y, geo.grid.z), block(geo.block.x, geo.block.y, geo.block.z);
    const bool built = dispatch<K>(req.precision, req.tile, req.radius, [&]<class real, int T, int R>() {
        // The input is read-only: a store through it is DiagKind::input_write.
        simt::GlobalPtr<const real> pin(static_cast<const real*>(in), cells, kInputBuffer, "in", true);
        simt::GlobalPtr<real> pout(static_cast<real*>(out), cells, kOutputBuffer, "out");
        rep = simt::launch(grid, block, opt, [&] {
            kernel.template operator()<real, T, R>(pin, pout, nx, ny, nz);
        });
    });
    if (!built) {
        simt::Diagnostic d;
        d.kind = simt::DiagKind::kernel_exception;
        d.message = "this (kernel, tile, radius, precision) is not instantiated";
        rep.ok = false;
        rep.totals[static_cast<int>(d.kind)] = 1;
        rep.diagnostics.push_back(d);
    }
    return rep;
}

}  // namespace stencil::cpu_detail
