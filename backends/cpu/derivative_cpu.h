// Text 004's derivative kernels on the CPU backend: kernels/derivative/*.cuh compiled by NVRTC to
// PTX (one program per precision holds every kernel and extent, cached in memory and on disk as
// the star3d families are: backends/cpu/ptx/lab_ptx.h) and executed by the PTX engine
// (backends/cpu/ptx/engine.h), so the CPU runs the very PTX the GPU's driver would assemble.
#pragma once
#include <string>

#include "core/engine_trace.h"
#include "core/derivative.h"

namespace stencil {

struct DerivativePtx {
    std::string ptx;                  // this instantiation's entry with the module's declarations
    std::string entry;                // its lowered name
    std::string coefficients_symbol;  // c_derivative_f32 or _f64, lowered
    double compile_seconds = 0;       // NVRTC's time for the program; 0 when it came from a cache
};

// Thread-safe, compiled on first use. Throws UserError for an (kernel, extent, precision) that is
// not instantiated (derivative_instantiated).
const DerivativePtx& derivative_ptx(DerivativeKernelId k, int n, Precision p);

// One launch on host data: `in` and `out` hold req.dims.cells() values of req.precision (`out`
// should arrive poisoned). The weights are derivative_coefficient_values(req.dims) rounded to the
// precision. Throws UserError when the grid does not suit the kernel (derivative_grid_error);
// faults of the kernel are diagnostics in the report.
engine::ExecReport run_derivative_cpu(const DerivativeRequest& req, const void* in, void* out,
                                    const engine::ExecOptions& opt = {});

}  // namespace stencil
