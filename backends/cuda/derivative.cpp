// The derivative kernels on the GPU (derivative.h): the handles of derivative_kernels.cu launched
// with cudaLaunchKernel on derivative_launch()'s shape (kernels/derivative/versions.h, the one
// place it is written), timed as the star3d kernels are (L2 flushed, CUDA events per launch).
#include "backends/cuda/derivative.h"

#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include "backends/cuda/cuda_util.h"
#include "backends/cuda/derivative_kernels.h"
#include "core/error.h"

namespace stencil {

namespace {

using cuda_detail::check;
using cuda_detail::DeviceBuffer;
using cuda_detail::EventPair;

const char* name_of(const DerivativeRequest& req) { return derivative_version(req.kernel).name; }

// The request's handle, after the grid rules (one line each) have been said.
const void* function_for(const DerivativeRequest& req) {
    if (auto e = derivative_grid_error(req.kernel, req.dims, req.precision)) throw UserError(*e);
    const int n = axis_extent(req.dims, derivative_version(req.kernel).axis);
    if (const void* f = cuda_detail::derivative_function(req.kernel, n, req.precision)) return f;
    throw UserError(fmt::format("{} is not built for extent {} in {}", name_of(req), n, to_string(req.precision)));
}

void upload_weights(const DerivativeRequest& req) {
    check(cuda_detail::upload_derivative_weights(req.precision, derivative_coefficient_values(req.dims)),
          "cudaMemcpyToSymbol (derivative weights)");
}

void launch(const DerivativeRequest& req, const void* f, const void* d_in, void* d_out) {
    const DerivativeLaunch l = derivative_launch(req.kernel, req.dims, req.precision);
    int mx = req.dims.nx, my = req.dims.ny, mz = req.dims.nz;
    void* args[] = {&d_in, &d_out, &mx, &my, &mz};
    check(cudaLaunchKernel(f, dim3(l.grid.x, l.grid.y, l.grid.z), dim3(l.block.x, l.block.y, l.block.z), args, 0,
                           nullptr),
          fmt::format("cudaLaunchKernel ({})", name_of(req)));
}

std::size_t field_bytes(const DerivativeRequest& req) {
    return static_cast<std::size_t>(req.dims.cells()) * bytes_of(req.precision);
}

}  // namespace

void execute_derivative_cuda(const DerivativeRequest& req, const void* in, void* out) {
    const void* f = function_for(req);
    const std::size_t bytes = field_bytes(req);
    DeviceBuffer d_in(bytes, "derivative input"), d_out(bytes, "derivative output");
    check(cudaMemcpy(d_in.get(), in, bytes, cudaMemcpyHostToDevice), "cudaMemcpy (derivative input)");
    check(cudaMemcpy(d_out.get(), out, bytes, cudaMemcpyHostToDevice), "cudaMemcpy (poisoned output)");
    upload_weights(req);
    launch(req, f, d_in.get(), d_out.get());
    check(cudaDeviceSynchronize(), fmt::format("{} (the kernel)", name_of(req)));
    check(cudaMemcpy(out, d_out.get(), bytes, cudaMemcpyDeviceToHost), "cudaMemcpy (derivative output)");
}

std::vector<double> time_derivative_cuda(const DerivativeRequest& req, const void* in, int warmup, int reps) {
    const void* f = function_for(req);
    const std::size_t bytes = field_bytes(req);
    DeviceBuffer d_in(bytes, "derivative input"), d_out(bytes, "derivative output");
    check(cudaMemcpy(d_in.get(), in, bytes, cudaMemcpyHostToDevice), "cudaMemcpy (derivative input)");
    upload_weights(req);
    for (int i = 0; i < warmup; ++i) launch(req, f, d_in.get(), d_out.get());
    check(cudaDeviceSynchronize(), fmt::format("{} (warm-up launches)", name_of(req)));
    cuda_detail::L2Flush flush;
    EventPair ev;
    std::vector<double> ms;
    for (int i = 0; i < reps; ++i) {
        flush.flush();  // the post's 64^3 fp32 field (1 MiB) would otherwise be read from L2
        ev.start();
        launch(req, f, d_in.get(), d_out.get());
        ev.stop();
        check(cudaDeviceSynchronize(), fmt::format("{} (timed launch)", name_of(req)));
        ms.push_back(ev.ms());
    }
    return ms;
}

void upload_derivative_weights_cuda(const DerivativeRequest& req) { upload_weights(req); }

void launch_derivative_on_device(const DerivativeRequest& req, const void* d_in, void* d_out) {
    launch(req, function_for(req), d_in, d_out);
}

KernelAttributes derivative_attributes_cuda(const DerivativeRequest& req) {
    const void* f = function_for(req);
    cudaFuncAttributes a{};
    check(cudaFuncGetAttributes(&a, f), "cudaFuncGetAttributes");
    const DerivativeLaunch l = derivative_launch(req.kernel, req.dims, req.precision);
    const int threads = l.block.x * l.block.y * l.block.z;
    KernelAttributes k;
    k.registers_per_thread = a.numRegs;
    k.static_smem_bytes = static_cast<long long>(a.sharedSizeBytes);
    k.max_threads_per_block = a.maxThreadsPerBlock;
    int blocks = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f, threads, 0) == cudaSuccess) {
        k.active_blocks_per_sm = blocks;
        cudaDeviceProp p{};
        if (cudaGetDeviceProperties(&p, 0) == cudaSuccess && p.maxThreadsPerMultiProcessor > 0)
            k.occupancy = double(blocks) * threads / p.maxThreadsPerMultiProcessor;
    }
    return k;
}

}  // namespace stencil
