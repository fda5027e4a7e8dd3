// What the CUDA backend's translation units share: the per-version kernel tables that each
// generated launch unit defines (the error check, buffers, events and the L2 flush: cuda_util.h).
//
// Plain C++ over the CUDA runtime API (no kernel code here): cuda_backend.cpp is compiled by the
// host compiler, the launch units by nvcc.
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>

#include "backends/cuda/cuda_util.h"
#include "core/backend.h"
#include "core/error.h"

namespace stencil::cuda_detail {

// One kernel version on the GPU. Each version's generated launch unit (launch_unit.cu.in) fills one
// of these; its functions work on that TU's own copy of the constant-memory weights.
struct KernelTable {
    // The instantiation for (precision, T, r) fusing `fused` time steps a launch (1 for every
    // version but those that fuse), as a function handle for cudaLaunchKernel,
    // cudaFuncGetAttributes and the occupancy calculator; nullptr when it was not built.
    const void* (*function)(Precision p, int T, int radius, int fused);
    // Copies the weights, rounded to p, into this TU's constant memory (synchronous).
    void (*upload_weights)(const StencilWeights& w, Precision p);
};
// Version k's table (the generated launch_tables.cpp).
const KernelTable& kernel_table(KernelId k);
// The instantiation of the request's (first) launch, for the steps that launch fuses; nullptr when
// not built.
const void* kernel_function(const LaunchRequest& req);

// One launch of an instantiation on device pointers, on `stream`, with the geometry of
// launch_geometry() (the one place the launch shape is written down). Checks the launch itself;
// the caller synchronises.
void launch_kernel(const void* fn, const LaunchRequest& req, const void* d_in, void* d_out,
                   cudaStream_t stream = nullptr);
// "tiled (T=8, r=1, f32)"
std::string request_text(const LaunchRequest& req);
// The dynamic shared memory a launch of `fn` for `req` asks for (dynamic_smem_bytes), after opting
// `fn` into it past the static limit, as the launch and the occupancy calculator both need.
std::size_t opt_in_dynamic_smem(const void* fn, const LaunchRequest& req);

// Fills `cells` values of precision p at `data` with uniform values in [-1, 1) from `seed`
// (a hash of the index: the same data for the same seed, never zeros). Asynchronous on `stream`.
void fill_random(void* data, long long cells, Precision p, unsigned long long seed, cudaStream_t stream);

}  // namespace stencil::cuda_detail
