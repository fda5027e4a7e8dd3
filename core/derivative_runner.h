// Text 004's derivative kernels on a backend: one launch on host data, its timing and the compiler's
// facts of it. The CPU backend runs them on the PTX engine (backends/cpu/derivative_cpu.h), the
// CUDA backend through nvcc's launches (backends/cuda/derivative.h); make_derivative_runner gives
// the one of the Backend make_backend() gave, so no front end names either.
#pragma once
#include <memory>
#include <optional>
#include <vector>

#include "core/backend.h"
#include "core/derivative.h"

namespace stencil {

class DerivativeRunner {
public:
    virtual ~DerivativeRunner() = default;
    virtual BackendKind kind() const = 0;

    // One launch on host data: `in` and `out` hold req.dims.cells() values of req.precision (`out`
    // arrives poisoned and returns as the kernel left it). The weights are
    // derivative_coefficient_values(req.dims) rounded to the precision. Throws UserError in one
    // line when the grid does not suit the kernel, a launch fails or the kernel faults.
    virtual void execute(const DerivativeRequest& req, const void* in, void* out) = 0;

    // Milliseconds per launch of `reps` launches after `warmup` untimed ones on the input `in`
    // (req.dims.cells() values of req.precision): on the GPU with the L2 flushed before each,
    // between CUDA events; on the CPU the engine's wall time of each launch.
    virtual std::vector<double> time_ms(const DerivativeRequest& req, const void* in, int warmup, int reps) = 0;

    // Registers per thread and occupancy of the instantiation, where the backend's compiler says
    // (the GPU's); nullopt elsewhere.
    virtual std::optional<KernelAttributes> attributes(const DerivativeRequest& req) = 0;
};

// backends/problem_backends.cpp.
std::unique_ptr<DerivativeRunner> make_derivative_runner(const Backend& backend);

}  // namespace stencil
