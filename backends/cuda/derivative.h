// Text 004's derivative kernels on the GPU: kernels/derivative/*.cuh compiled by nvcc
// (backends/cuda/derivative.cu instantiates every kernel at every extent it is built for, with its
// own constant-memory weights), launched on the shape of derivative_launch()
// (kernels/derivative/versions.h). Plain C++: no CUDA headers. Every function throws UserError
// with one line when the grid does not suit the kernel or a CUDA call fails.
#pragma once
#include <vector>

#include "core/backend.h"  // KernelAttributes
#include "core/derivative.h"

namespace stencil {

// One launch on host data: copy `in` and the (poisoned) `out` to the device, upload the weights
// (derivative_coefficient_values rounded to the precision), launch, synchronise, copy `out` back.
void execute_derivative_cuda(const DerivativeRequest& req, const void* in, void* out);

// Milliseconds per launch of `reps` launches after `warmup` untimed ones on the input `in`, with
// the L2 flushed (untimed) before each, CUDA events around each launch.
std::vector<double> time_derivative_cuda(const DerivativeRequest& req, const void* in, int warmup, int reps);

// cudaFuncGetAttributes of the instantiation (registers per thread, static shared bytes) and the
// occupancy calculator's blocks per SM for its block.
KernelAttributes derivative_attributes_cuda(const DerivativeRequest& req);

// On device arrays of req.dims cells: upload the weights (as execute_derivative_cuda does) and
// launch once on the default stream, asynchronous. The checker's runner times a submission
// against the lab's kernel with it. Throws UserError when the grid does not fit the kernel or the
// launch fails.
void upload_derivative_weights_cuda(const DerivativeRequest& req);
void launch_derivative_on_device(const DerivativeRequest& req, const void* d_in, void* d_out);

}  // namespace stencil
