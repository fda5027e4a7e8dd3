// What the CUDA backend's translation units share: the error check, device buffers, and the
// per-version kernel tables that each launch_<name>.cu defines.
//
// Plain C++ over the CUDA runtime API (no kernel code here): cuda_backend.cpp is compiled by the
// host compiler, the launch_*.cu files by nvcc.
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>

#include "core/backend.h"
#include "core/error.h"

namespace stencil::cuda_detail {

// "CUDA error in cudaMalloc (input, 512 MiB): out of memory [cudaErrorMemoryAllocation]"
std::string cuda_error_text(cudaError_t e, const std::string& what);

// Every CUDA call goes through this: a failure becomes a one-line UserError.
inline void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) throw UserError(cuda_error_text(e, what));
}
inline void check(cudaError_t e, const std::string& what) {
    if (e != cudaSuccess) throw UserError(cuda_error_text(e, what));
}
// After a launch: the launch's own error (bad configuration) now, and with `sync` also what the
// kernel did (an illegal address shows up only at the next synchronisation).
void check_launch(const char* what, bool sync);

// cudaMalloc'ed memory that frees itself.
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    DeviceBuffer(std::size_t bytes, const char* what);
    ~DeviceBuffer();
    DeviceBuffer(DeviceBuffer&& o) noexcept : p_(o.p_), bytes_(o.bytes_) { o.p_ = nullptr; o.bytes_ = 0; }
    DeviceBuffer& operator=(DeviceBuffer&& o) noexcept;
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    void* get() const { return p_; }
    std::size_t bytes() const { return bytes_; }

private:
    void* p_ = nullptr;
    std::size_t bytes_ = 0;
};

// One kernel version on the GPU. Each launch_<name>.cu fills one of these; its functions work on
// that TU's own copy of c_coefficients_f32/f64.
struct KernelTable {
    // The instantiation for (precision, T, r) as a function handle for cudaLaunchKernel,
    // cudaFuncGetAttributes and the occupancy calculator; nullptr when it was not built.
    const void* (*function)(Precision p, int T, int radius);
    // Copies the weights, rounded to p, into this TU's constant memory (synchronous).
    void (*upload_weights)(const StencilWeights& w, Precision p);
};
const KernelTable& naive_table();
const KernelTable& tiled_table();
const KernelTable& coarsened_table();
const KernelTable& register_tiled_table();
const KernelTable& kernel_table(KernelId k);

// One launch of an instantiation on device pointers, on the default stream, with the geometry of
// launch_geometry() (the one place the launch shape is written down). Checks the launch itself;
// the caller synchronises.
void launch_kernel(const void* fn, const LaunchRequest& req, const void* d_in, void* d_out);
// "tiled (T=8, r=1, f32)"
std::string request_text(const LaunchRequest& req);

// Fills `cells` values of precision p at `data` with uniform values in [-1, 1) from `seed`
// (a hash of the index: the same data for the same seed, never zeros). Asynchronous on `stream`.
void fill_random(void* data, long long cells, Precision p, unsigned long long seed, cudaStream_t stream);

}  // namespace stencil::cuda_detail
