// The lab's kernels on the PTX engine: kernels/*.cuh as NVRTC compiles them (lab_ptx.h), executed
// by backends/cpu/ptx/engine.h. This is how the CPU backend runs every lab kernel.
#include "backends/cpu/launch_ptx.h"

#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "backends/cpu/ptx/engine.h"
#include "backends/cpu/ptx/lab_ptx.h"
#include "kernels/dense_weights.h"

namespace stencil::cpu_detail {

namespace {

// One decoded module per instantiation, for the life of the process (decoding costs about as
// much as interpreting a small grid).
std::shared_ptr<const ptx::Module> module_for(const LabPtx& lab) {
    static std::mutex m;
    static std::map<const LabPtx*, std::shared_ptr<const ptx::Module>> modules;
    std::lock_guard lock(m);
    auto& slot = modules[&lab];
    if (!slot) slot = ptx::load(lab.ptx);
    return slot;
}

// The weights as the kernel's constant array holds them: the star's, or the dense cube made from
// them (the row's WeightLayout).
template <class real>
ptx::ConstantInit weights_for(const LabPtx& lab, const LaunchRequest& req, const StencilWeights& w) {
    std::vector<real> values(kMaxCoefficients);
    if (version(req.kernel).weights == WeightLayout::dense_cube) {
        values.resize(dense_point_count(req.radius));
        fill_dense_weights(w.c.data(), req.radius, values.data());
    } else {
        for (int i = 0; i < kMaxCoefficients; ++i) values[i] = static_cast<real>(w.c[i]);
    }
    ptx::ConstantInit c;
    c.symbol = lab.coefficients_symbol;
    c.bytes.resize(sizeof(real) * values.size());
    std::memcpy(c.bytes.data(), values.data(), c.bytes.size());
    return c;
}

}  // namespace

engine::ExecReport launch_ptx(const LaunchRequest& req, const StencilWeights& w, const void* in, void* out,
                            const engine::ExecOptions& opt, const LaunchGeometry& geo) {
    const LabPtx& lab = lab_ptx(req.kernel, req.tile, req.radius, req.precision, steps_per_launch(req));
    const auto module = module_for(lab);
    const std::size_t bytes = static_cast<std::size_t>(req.dims.cells()) * bytes_of(req.precision);
    ptx::Launch l;
    l.entry = lab.entry;
    l.grid = {geo.grid.x, geo.grid.y, geo.grid.z};
    l.block = {geo.block.x, geo.block.y, geo.block.z};
    l.dynamic_shared_bytes = static_cast<std::size_t>(dynamic_smem_bytes(req.kernel, geo));
    // The input is read-only: a store through it is DiagKind::input_write.
    l.buffers = {{const_cast<void*>(in), bytes, kInputBuffer, "in", true}, {out, bytes, kOutputBuffer, "out", false}};
    l.params = {ptx::buffer_address(0), ptx::buffer_address(1), std::uint64_t(req.dims.nx), std::uint64_t(req.dims.ny),
                std::uint64_t(req.dims.nz)};
    l.constants = {req.precision == Precision::f32 ? weights_for<float>(lab, req, w) : weights_for<double>(lab, req, w)};
    return ptx::run(*module, l, opt);
}

}  // namespace stencil::cpu_detail
