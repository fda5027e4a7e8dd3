// Each problem's backend for the Backend make_backend() gave: the cardiac2d stepper and the
// derivative runner of the CPU backend (the PTX engine) or of the CUDA backend. The one place that
// names both backends' problem code, so that no front end does.
#include <fmt/format.h>

#include "backends/cpu/cardiac2d_cpu.h"
#include "backends/cpu/derivative_cpu.h"
#include "core/backend.h"
#include "core/cardiac2d_check.h"
#include "core/derivative_runner.h"
#include "core/error.h"

#ifdef STENCIL_LAB_HAVE_CUDA
#include "backends/cuda/cardiac2d.h"
#include "backends/cuda/derivative.h"
#endif

namespace stencil {

namespace {

class CpuDerivativeRunner final : public DerivativeRunner {
public:
    BackendKind kind() const override { return BackendKind::cpu; }

    void execute(const DerivativeRequest& req, const void* in, void* out) override {
        const engine::ExecReport rep = run_derivative_cpu(req, in, out);
        if (!rep.ok)
            throw UserError(fmt::format("{} failed on the CPU engine: {}", derivative_version(req.kernel).name,
                                        rep.diagnostics.empty() ? "no diagnostic" : rep.diagnostics.front().message));
    }

    // The engine's own wall time of each launch (into a scratch output: the times are wanted).
    std::vector<double> time_ms(const DerivativeRequest& req, const void* in, int warmup, int reps) override {
        std::vector<unsigned char> out(static_cast<std::size_t>(req.dims.cells()) * bytes_of(req.precision));
        std::vector<double> ms;
        for (int i = 0; i < warmup + reps; ++i) {
            const engine::ExecReport rep = run_derivative_cpu(req, in, out.data());
            if (i >= warmup) ms.push_back(rep.seconds * 1e3);
        }
        return ms;
    }

    std::optional<KernelAttributes> attributes(const DerivativeRequest&) override { return std::nullopt; }
};

#ifdef STENCIL_LAB_HAVE_CUDA
class CudaDerivativeRunner final : public DerivativeRunner {
public:
    BackendKind kind() const override { return BackendKind::cuda; }
    void execute(const DerivativeRequest& req, const void* in, void* out) override {
        execute_derivative_cuda(req, in, out);
    }
    std::vector<double> time_ms(const DerivativeRequest& req, const void* in, int warmup, int reps) override {
        return time_derivative_cuda(req, in, warmup, reps);
    }
    std::optional<KernelAttributes> attributes(const DerivativeRequest& req) override {
        return derivative_attributes_cuda(req);
    }
};
#endif

}  // namespace

// A CUDA Backend exists only in a build with the CUDA backend; the CPU's problem code is in every
// build.
std::unique_ptr<DerivativeRunner> make_derivative_runner(const Backend& backend) {
#ifdef STENCIL_LAB_HAVE_CUDA
    if (backend.kind() == BackendKind::cuda) return std::make_unique<CudaDerivativeRunner>();
#else
    (void)backend;
#endif
    return std::make_unique<CpuDerivativeRunner>();
}

std::unique_ptr<cardiac2d::Stepper> cardiac2d::make_stepper(const Backend& backend) {
#ifdef STENCIL_LAB_HAVE_CUDA
    if (backend.kind() == BackendKind::cuda) return std::make_unique<CudaStepper>();
#else
    (void)backend;
#endif
    return std::make_unique<CpuStepper>();
}

}  // namespace stencil
