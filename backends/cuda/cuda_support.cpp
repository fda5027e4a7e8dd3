// The CUDA utilities (cuda_util.h: error text, device buffers, events, the L2 flush) and the
// backend's kernel-table switch.
#include <fmt/format.h>

#include <algorithm>

#include "backends/cuda/cuda_internal.h"

namespace stencil::cuda_detail {

std::string cuda_error_text(cudaError_t e, const std::string& what) {
    return fmt::format("CUDA error in {}: {} [{}]", what, cudaGetErrorString(e), cudaGetErrorName(e));
}

void check_launch(const char* what, bool sync) {
    check(cudaGetLastError(), fmt::format("the launch of {}", what));
    if (sync) check(cudaDeviceSynchronize(), fmt::format("the kernel {} (found at the synchronisation after it)", what));
}

DeviceBuffer::DeviceBuffer(std::size_t bytes, const char* what) : bytes_(bytes) {
    const cudaError_t e = cudaMalloc(&p_, bytes);
    if (e != cudaSuccess) {
        p_ = nullptr;
        (void)cudaGetLastError();  // an allocation failure is not sticky: clear it
        throw UserError(cuda_error_text(e, fmt::format("cudaMalloc ({}, {} MiB)", what, bytes >> 20)));
    }
}

DeviceBuffer::~DeviceBuffer() {
    if (p_) (void)cudaFree(p_);
}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
        if (p_) (void)cudaFree(p_);
        p_ = o.p_;
        bytes_ = o.bytes_;
        o.p_ = nullptr;
        o.bytes_ = 0;
    }
    return *this;
}

EventPair::EventPair() {
    check(cudaEventCreate(&start_), "cudaEventCreate");
    if (const cudaError_t e = cudaEventCreate(&stop_); e != cudaSuccess) {
        (void)cudaEventDestroy(start_);
        check(e, "cudaEventCreate");
    }
}

EventPair::~EventPair() {
    (void)cudaEventDestroy(start_);
    (void)cudaEventDestroy(stop_);
}

void EventPair::start(cudaStream_t s) { check(cudaEventRecord(start_, s), "cudaEventRecord"); }
void EventPair::stop(cudaStream_t s) { check(cudaEventRecord(stop_, s), "cudaEventRecord"); }

double EventPair::ms() const {
    float t = 0;
    check(cudaEventElapsedTime(&t, start_, stop_), "cudaEventElapsedTime");
    return t;
}

std::size_t l2_flush_bytes(int device) {
    int l2 = 0;
    check(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device), "cudaDeviceGetAttribute (L2 size)");
    return std::max<std::size_t>(2u * static_cast<std::size_t>(l2), std::size_t(64) << 20);
}

void L2Flush::flush(cudaStream_t s) {
    if (!buffer_.get()) buffer_ = DeviceBuffer(l2_flush_bytes(), "L2 flush buffer");
    check(cudaMemsetAsync(buffer_.get(), ++value_ & 0xff, buffer_.bytes(), s), "cudaMemsetAsync (L2 flush)");
}

std::string request_text(const LaunchRequest& r) {
    const auto& v = version(r.kernel);
    if (r.block)  // the user's block shape (run --block)
        return fmt::format("{} (block {}x{}x{}, r={}, {})", v.name, r.block->x, r.block->y, r.block->z, r.radius,
                           to_string(r.precision));
    if (!v.tile_is_template)  // T is only the block edge
        return fmt::format("{} (block {}^3, r={}, {})", v.name, r.tile, r.radius, to_string(r.precision));
    if (v.max_fused_steps > 1)  // the steps this launch fuses
        return fmt::format("{} (T={}, r={}, K={}, {})", v.name, r.tile, r.radius, steps_per_launch(r),
                           to_string(r.precision));
    return fmt::format("{} (T={}, r={}, {})", v.name, r.tile, r.radius, to_string(r.precision));
}

std::size_t opt_in_dynamic_smem(const void* fn, const LaunchRequest& req) {
    const auto dynamic = static_cast<std::size_t>(dynamic_smem_bytes(req.kernel, launch_geometry(req)));
    if (dynamic > static_cast<std::size_t>(DeviceLimits{}.max_static_smem_per_block))
        check(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(dynamic)),
              fmt::format("cudaFuncSetAttribute of {} ({} B of dynamic shared memory)", request_text(req), dynamic));
    return dynamic;
}

void launch_kernel(const void* fn, const LaunchRequest& req, const void* d_in, void* d_out, cudaStream_t stream) {
    const LaunchGeometry g = launch_geometry(req);
    // The kernels' parameters: (const real* in, real* out, int nx, int ny, int nz).
    const void* a_in = d_in;
    void* a_out = d_out;
    int nx = req.dims.nx, ny = req.dims.ny, nz = req.dims.nz;
    void* args[] = {&a_in, &a_out, &nx, &ny, &nz};
    const dim3 grid(g.grid.x, g.grid.y, g.grid.z), block(g.block.x, g.block.y, g.block.z);
    check(cudaLaunchKernel(fn, grid, block, args, opt_in_dynamic_smem(fn, req), stream),
          fmt::format("cudaLaunchKernel of {} (grid {}x{}x{}, block {}x{}x{})", request_text(req), g.grid.x, g.grid.y,
                      g.grid.z, g.block.x, g.block.y, g.block.z));
}

const void* kernel_function(const LaunchRequest& req) {
    return kernel_table(req.kernel).function(req.precision, req.tile, req.radius, steps_per_launch(req));
}

}  // namespace stencil::cuda_detail
