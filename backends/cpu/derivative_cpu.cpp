// The derivative kernels on the PTX engine (derivative_cpu.h). The NVRTC program, its disk cache
// and the entry split are lab_ptx's (lab_ptx_detail), applied to one program per precision.
#include "backends/cpu/derivative_cpu.h"

#include <fmt/format.h>

#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <utility>

#include "backends/cpu/cpu_backend.h"  // kInputBuffer, kOutputBuffer
#include "backends/cpu/ptx/engine.h"
#include "backends/cpu/ptx/lab_ptx.h"
#include "core/error.h"

namespace stencil {

namespace {

const char* real_name(Precision p) { return p == Precision::f32 ? "float" : "double"; }

std::string kernel_expression(DerivativeKernelId k, int n, Precision p) {
    return fmt::format("stencil::{}<{}, {}>", derivative_version(k).function, real_name(p), n);
}
std::string coefficients_expression(Precision p) {
    return p == Precision::f32 ? "&stencil::c_derivative_f32" : "&stencil::c_derivative_f64";
}

// Every kernel at every extent it is built for: about 45 instantiations of small kernels, a
// second or two of NVRTC once per machine (then the disk cache).
ptx::CompileRequest family_request(Precision p) {
    ptx::CompileRequest req;
    req.name = "lab_derivative.cu";
    req.source = "#include \"kernels/derivative/all.cuh\"\n";
    for (int i = 0; i < lab_ptx_detail::kEmbeddedHeaderCount; ++i)
        req.headers.push_back({lab_ptx_detail::kEmbeddedHeaders[i].name, lab_ptx_detail::kEmbeddedHeaders[i].text});
    for (const auto& v : derivative_versions())
        for (int n : kDerivativeExtents)
            if (derivative_instantiated(v.id, n, p)) req.name_expressions.push_back(kernel_expression(v.id, n, p));
    req.name_expressions.push_back(coefficients_expression(p));
    req.options = {"--no-source-include"};
    return req;
}

struct DerivativeFamily {
    std::mutex m;
    bool compiled = false;
    ptx::CompileResult result;
    double seconds = 0;
    std::map<std::pair<DerivativeKernelId, int>, std::unique_ptr<DerivativePtx>> made;
    std::map<const DerivativePtx*, std::shared_ptr<const ptx::Module>> modules;
};

DerivativeFamily& derivative_family(Precision p) {
    static DerivativeFamily f32, f64;
    return p == Precision::f32 ? f32 : f64;
}

template <class real>
ptx::ConstantInit coefficients_for(const DerivativePtx& lab, GridDims g) {
    const auto values = derivative_coefficient_values(g);
    ptx::ConstantInit c;
    c.symbol = lab.coefficients_symbol;
    c.bytes.resize(sizeof(real) * values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
        const real v = static_cast<real>(values[i]);
        std::memcpy(c.bytes.data() + i * sizeof(real), &v, sizeof(real));
    }
    return c;
}

}  // namespace

const DerivativePtx& derivative_ptx(DerivativeKernelId k, int n, Precision p) {
    if (!derivative_instantiated(k, n, p))
        throw UserError(fmt::format("{} is not built for extent {} in {}", derivative_version(k).name, n, to_string(p)));
    DerivativeFamily& fam = derivative_family(p);
    std::lock_guard lock(fam.m);
    if (!fam.compiled) {
        static const std::string dir = lab_ptx_detail::default_cache_dir();
        bool from_cache = false;
        fam.result = lab_ptx_detail::cached_compile(family_request(p), dir, &from_cache);
        if (!fam.result.ok)
            throw ptx::Error("NVRTC could not compile kernels/derivative/all.cuh (" + std::string(to_string(p)) +
                             "): " + fam.result.log);
        fam.seconds = from_cache ? 0 : fam.result.seconds;
        fam.compiled = true;
    }
    auto& made = fam.made[{k, n}];
    if (!made) {
        auto out = std::make_unique<DerivativePtx>();
        out->entry = fam.result.lowered_name(kernel_expression(k, n, p));
        out->coefficients_symbol = fam.result.lowered_name(coefficients_expression(p));
        if (out->entry.empty() || out->coefficients_symbol.empty())
            throw ptx::Error("NVRTC gave no lowered name for " + kernel_expression(k, n, p));
        out->ptx = lab_ptx_detail::only_entry(fam.result.ptx, out->entry);
        out->compile_seconds = std::exchange(fam.seconds, 0.0);
        made = std::move(out);
    }
    return *made;
}

engine::ExecReport run_derivative_cpu(const DerivativeRequest& req, const void* in, void* out,
                                    const engine::ExecOptions& opt) {
    if (auto e = derivative_grid_error(req.kernel, req.dims, req.precision)) throw UserError(*e);
    const auto& v = derivative_version(req.kernel);
    const DerivativePtx& lab = derivative_ptx(req.kernel, axis_extent(req.dims, v.axis), req.precision);
    std::shared_ptr<const ptx::Module> module;
    {
        // One decoded module per instantiation, for the life of the process.
        DerivativeFamily& fam = derivative_family(req.precision);
        std::lock_guard lock(fam.m);
        auto& slot = fam.modules[&lab];
        if (!slot) slot = ptx::load(lab.ptx);
        module = slot;
    }
    const DerivativeLaunch geo = derivative_launch(req.kernel, req.dims, req.precision);
    const std::size_t bytes = static_cast<std::size_t>(req.dims.cells()) * bytes_of(req.precision);
    ptx::Launch l;
    l.entry = lab.entry;
    l.grid = {geo.grid.x, geo.grid.y, geo.grid.z};
    l.block = {geo.block.x, geo.block.y, geo.block.z};
    // The input is read-only: a store through it is DiagKind::input_write.
    l.buffers = {{const_cast<void*>(in), bytes, kInputBuffer, "f", true}, {out, bytes, kOutputBuffer, "df", false}};
    l.params = {ptx::buffer_address(0), ptx::buffer_address(1), std::uint64_t(req.dims.nx),
                std::uint64_t(req.dims.ny), std::uint64_t(req.dims.nz)};
    l.constants = {req.precision == Precision::f32 ? coefficients_for<float>(lab, req.dims)
                                                   : coefficients_for<double>(lab, req.dims)};
    return ptx::run(*module, l, opt);
}

}  // namespace stencil
