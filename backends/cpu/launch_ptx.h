// Internal to backends/cpu: one launch of a lab kernel on the PTX engine (launch_ptx.cpp), what
// run_cpu (cpu_backend.cpp) calls once the request has been checked.
#pragma once
#include "backends/cpu/cpu_backend.h"

namespace stencil::cpu_detail {

// `in` and `out` hold req.dims.cells() values of req.precision; the weights go into the kernel's
// constant array as its row's WeightLayout says.
engine::ExecReport launch_ptx(const LaunchRequest& req, const StencilWeights& w, const void* in, void* out,
                            const engine::ExecOptions& opt, const LaunchGeometry& geo);

}  // namespace stencil::cpu_detail
