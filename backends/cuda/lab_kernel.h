// The lab's own kernels (kernels/*.cuh, as the CUDA backend built them) for a program that
// launches them next to kernels of its own, on its own device buffers: the checker's runner times
// a submission against the lab's kernel of the same exercise, and the textbook baseline
// (experiments/baseline.cpp) alternates them with the textbook's listings, launch by launch.
// Plain C++: no CUDA headers.
#pragma once
#include <optional>
#include <string>

#include "backends/cuda/gpu_stream.h"
#include "core/backend.h"

namespace stencil {

// Why `req` cannot be launched from this build (a tile rule, or not instantiated here), in one
// sentence; nullopt when it can.
std::optional<std::string> lab_kernel_unavailable(const LaunchRequest& req);

// Copies the weights, rounded to req.precision, into the constant memory of req.kernel's
// version. Synchronous; throws UserError on failure.
void upload_lab_kernel_weights(const LaunchRequest& req, const StencilWeights& weights);

// One launch of the lab's kernel on device buffers of req.dims cells (the lab's launch shape,
// launch_geometry() of kernels/versions.h), on `stream` (the default stream unless told),
// asynchronous. Throws UserError when the launch itself fails.
void launch_lab_kernel(const LaunchRequest& req, const void* d_in, void* d_out, GpuStream stream = nullptr);

// The instantiation's handle (for cudaFuncGetAttributes); nullptr when it is not built.
const void* lab_kernel_function(const LaunchRequest& req);

}  // namespace stencil
