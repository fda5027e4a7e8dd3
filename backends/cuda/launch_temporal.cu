// ---------------------------------------------------------------------------------------------
// The temporal kernel (kernels/temporal.cuh) on the GPU: every runnable (precision, T, r)
// instantiated through dispatch<KernelId::temporal>, and for each every K (steps fused per launch)
// that its tile leaves room for (fuse_fits: T > 2rK and 32 > 2rK), with plain `const real*` / `real*`
// pointers and this TU's own constant-memory weights. cuda_backend.cpp launches the handles with
// cudaLaunchKernel on the geometry of launch_geometry() (kernels/versions.h).
// ---------------------------------------------------------------------------------------------
#include "kernels/temporal.cuh"
#include "kernels/dispatch.h"
#include "backends/cuda/kernel_table.cuh"

namespace stencil::cuda_detail {

namespace {
const void* temporal_fused_function(Precision p, int T, int radius, int fused) {
    const void* f = nullptr;
    dispatch<KernelId::temporal>(p, T, radius, [&]<class real, int TT, int RR>() {
        auto one = [&]<int K>() {
            if constexpr (fuse_fits(KernelId::temporal, TT, RR, K))
                if (fused == K)
                    f = reinterpret_cast<const void*>(&stencil_temporal_kernel<real, TT, RR, K>);
        };
        static_assert(version(KernelId::temporal).max_fused_steps == 4, "one line below per K");
        one.template operator()<1>();
        one.template operator()<2>();
        one.template operator()<3>();
        one.template operator()<4>();
    });
    return f;
}
const void* temporal_function(Precision p, int T, int radius) { return temporal_fused_function(p, T, radius, 1); }
}  // namespace

const KernelTable& temporal_table() {
    static const KernelTable table{temporal_function, upload_weights_here, temporal_fused_function};
    return table;
}

}  // namespace stencil::cuda_detail
