// ---------------------------------------------------------------------------------------------
// The tiled kernel (kernels/tiled.cuh) on the GPU: every runnable (precision, T, r) instantiated
// through dispatch<KernelId::tiled> with plain `const real*` / `real*` pointers, and this
// TU's own constant-memory weights. cuda_backend.cpp launches the handles with cudaLaunchKernel
// on the geometry of launch_geometry() (kernels/versions.h), so the launch shape is written once.
// ---------------------------------------------------------------------------------------------
#include "kernels/tiled.cuh"
#include "kernels/dispatch.h"
#include "backends/cuda/kernel_table.cuh"

namespace stencil::cuda_detail {

namespace {
const void* tiled_function(Precision p, int T, int radius) {
    const void* f = nullptr;
    dispatch<KernelId::tiled>(p, T, radius, [&]<class real, int TT, int RR>() {
        f = reinterpret_cast<const void*>(&stencil_tiled_kernel<real, TT, RR>);
    });
    return f;
}
}  // namespace

const KernelTable& tiled_table() {
    static const KernelTable table{tiled_function, upload_weights_here};
    return table;
}

}  // namespace stencil::cuda_detail
