// Text 004's derivative kernels and text 000's registers question on the GPU (label gpu).
//   - every derivative kernel, both precisions, on the post's 64^3 grid and on 128^3, against the
//     fp64 reference (the bound of core/derivative.h), the GB/s printed beside a copy's;
//   - the registers check: the fixtures' cubin (NVRTC, sm_90) loaded by the driver must report the
//     registers the ELF says (cudaFuncGetAttributes), and the driver's own JIT of the PTX must stay
//     within the model's tolerance (analysis/registers_check.h).
#include <cuda_runtime_api.h>

#include <cstdio>
#include <limits>

#include "analysis/registers_check.h"
#include "backends/cuda/derivative.h"
#include "core/stats.h"
#include "tests/derivative/derivative_run.h"
#include "tests/derivative/registers_fixture.h"
#include "tests/gpu/gpu_fixture.h"

using namespace stencil;

namespace {

template <class real>
DerivativeCheck run_and_check(const DerivativeRequest& req, const std::vector<double>& field) {
    std::vector<real> in(field.begin(), field.end());
    std::vector<real> out(in.size(), std::numeric_limits<real>::quiet_NaN());
    execute_derivative_cuda(req, in.data(), out.data());
    return check_derivative(std::vector<double>(in.begin(), in.end()), std::vector<double>(out.begin(), out.end()),
                            req.dims, derivative_version(req.kernel).axis, req.precision);
}

}  // namespace

TEST_CASE("derivative kernels on the GPU match the fp64 reference", "[gpu][derivative]") {
    test::gpu();
    const DerivativeVersion& v = GENERATE(from_range(kDerivativeTable.begin(), kDerivativeTable.end()));
    const Precision p = GENERATE(Precision::f32, Precision::f64);
    const int n = GENERATE(64, 128);
    const DerivativeRequest req{v.id, p, {n, n, n}};
    CAPTURE(v.name, to_string(p), n);
    const auto field = derivative_test::random_values(req.dims.cells(), 5);
    const DerivativeCheck check =
        p == Precision::f32 ? run_and_check<float>(req, field) : run_and_check<double>(req, field);
    INFO(check.summary());
    REQUIRE(check.ok);
    // The post's figure of merit, printed for the record (docs/results): effective GB/s and the
    // ratio to a copy of the same bytes now.
    const Stats t = summarize(p == Precision::f32 ? time_derivative_cuda(req, std::vector<float>(field.begin(), field.end()).data(), 3, 20)
                                                  : time_derivative_cuda(req, field.data(), 3, 20));
    const double bytes = 2.0 * req.dims.cells() * bytes_of(p);
    const Stats copy = summarize(test::gpu().copy_gbps(static_cast<long long>(bytes / 2), 20));
    const double gbps = bytes / (t.median * 1e-3) / 1e9;
    const KernelAttributes a = derivative_attributes_cuda(req);
    std::printf("derivative %-12s %s %3d^3: %8.4f ms  %7.1f GB/s  copy %7.1f GB/s  ratio %.2f  regs %d\n", v.name,
                std::string(to_string(p)).c_str(), n, t.median, gbps, copy.median, gbps / copy.median,
                a.registers_per_thread);
    CHECK(gbps > 0);
    CHECK(a.registers_per_thread > 0);
    CHECK(a.static_smem_bytes == derivative_smem_bytes(v.id, n, p));
}

TEST_CASE("registers: cudaFuncGetAttributes against the cubin and the model", "[gpu][registers]") {
    test::gpu();
    const CubinResult& cubin = registers_fixture::cubin();
    INFO(cubin.log);
    REQUIRE(cubin.ok);
    const auto elf = analysis::cubin_resources(cubin.cubin);
    // The same kernels as PTX, for the driver's own compiler.
    const ptx::CompileResult ptx = ptx::compile_to_ptx(registers_fixture::request());
    REQUIRE(ptx.ok);
    cudaLibrary_t from_cubin = nullptr, from_ptx = nullptr;
    REQUIRE(cudaLibraryLoadData(&from_cubin, cubin.cubin.data(), nullptr, nullptr, 0, nullptr, nullptr, 0) == cudaSuccess);
    REQUIRE(cudaLibraryLoadData(&from_ptx, ptx.ptx.c_str(), nullptr, nullptr, 0, nullptr, nullptr, 0) == cudaSuccess);
    for (const auto& c : registers_fixture::cases()) {
        const std::string mangled = cubin.lowered_name(c.expression);
        CAPTURE(c.expression, mangled);
        cudaKernel_t k1 = nullptr, k2 = nullptr;
        REQUIRE(cudaLibraryGetKernel(&k1, from_cubin, mangled.c_str()) == cudaSuccess);
        REQUIRE(cudaLibraryGetKernel(&k2, from_ptx, ptx.lowered_name(c.expression).c_str()) == cudaSuccess);
        cudaFuncAttributes a1{}, a2{};
        REQUIRE(cudaFuncGetAttributes(&a1, reinterpret_cast<const void*>(k1)) == cudaSuccess);
        REQUIRE(cudaFuncGetAttributes(&a2, reinterpret_cast<const void*>(k2)) == cudaSuccess);
        // the cubin as loaded: exactly what our ELF reader read
        CHECK(a1.numRegs == elf.at(mangled).registers);
        // the driver's JIT of the PTX: the model's count within the stated tolerance
        const analysis::RegisterCheck jit = analysis::check_registers(c.model, a2.numRegs);
        std::printf("registers %s: cubin %d, driver JIT %d, model %d\n", c.model.stencil.c_str(), a1.numRegs,
                    a2.numRegs, c.model.queue_registers);
        INFO(jit.summary());
        CHECK(jit.ok);
    }
    cudaLibraryUnload(from_cubin);
    cudaLibraryUnload(from_ptx);
}
