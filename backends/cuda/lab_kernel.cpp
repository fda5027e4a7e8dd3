// The lab's kernels for other programs' launches (see lab_kernel.h): the CUDA backend's kernel
// tables, without its buffers.
#include "backends/cuda/lab_kernel.h"

#include "backends/cuda/cuda_internal.h"

namespace stencil {

std::optional<std::string> lab_kernel_unavailable(const LaunchRequest& req) {
    if (auto e = request_error(req)) return e;
    if (auto e = grid_error(req.dims, req.radius)) return e;
    if (!cuda_detail::kernel_function(req))
        return cuda_detail::request_text(req) + " is not compiled into this build";
    return std::nullopt;
}

void upload_lab_kernel_weights(const LaunchRequest& req, const StencilWeights& weights) {
    cuda_detail::kernel_table(req.kernel).upload_weights(weights.rounded_to(req.precision), req.precision);
}

void launch_lab_kernel(const LaunchRequest& req, const void* d_in, void* d_out, GpuStream stream) {
    const void* fn = cuda_detail::kernel_function(req);
    if (!fn) throw UserError(cuda_detail::request_text(req) + " is not compiled into this build");
    cuda_detail::launch_kernel(fn, req, d_in, d_out, stream);
}

const void* lab_kernel_function(const LaunchRequest& req) {
    if (tile_error(req.kernel, req.tile, req.radius, req.precision)) return nullptr;
    return cuda_detail::kernel_function(req);
}

}  // namespace stencil
