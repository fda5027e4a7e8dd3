// ---------------------------------------------------------------------------------------------
// The derivative kernels (kernels/derivative/*.cuh) compiled by nvcc: every kernel at every extent
// N that derivative_instantiated() allows, in both precisions, and this TU's own constant-memory
// weights. The launches are derivative.cpp's (fmt is host-only: it stays out of nvcc's way).
// ---------------------------------------------------------------------------------------------
#include <cuda_runtime_api.h>

#include <type_traits>
#include <vector>

#include "backends/cuda/derivative_kernels.h"
#include "kernels/derivative/all.cuh"

namespace stencil::cuda_detail {

namespace {

// ---- the instantiations -------------------------------------------------------------------------

struct Instantiation {
    DerivativeKernelId kernel;
    int n;
    Precision precision;
    const void* function;
};

template <class real, DerivativeKernelId K, int N>
void add_one(std::vector<Instantiation>& out) {
    constexpr Precision P = std::is_same_v<real, float> ? Precision::f32 : Precision::f64;
    // Only what fits a block (nvcc refuses a static tile over 48 KiB).
    if constexpr (derivative_instantiated(K, N, P)) {
        const void* f = nullptr;
        if constexpr (K == DerivativeKernelId::x_small) f = reinterpret_cast<const void*>(&derivative_x<real, N>);
        if constexpr (K == DerivativeKernelId::x_large) f = reinterpret_cast<const void*>(&derivative_x_lPencils<real, N>);
        if constexpr (K == DerivativeKernelId::x_tile) f = reinterpret_cast<const void*>(&derivative_x_tile<real, N>);
        if constexpr (K == DerivativeKernelId::y_small) f = reinterpret_cast<const void*>(&derivative_y<real, N>);
        if constexpr (K == DerivativeKernelId::y_large) f = reinterpret_cast<const void*>(&derivative_y_lPencils<real, N>);
        if constexpr (K == DerivativeKernelId::z_small) f = reinterpret_cast<const void*>(&derivative_z<real, N>);
        if constexpr (K == DerivativeKernelId::z_large) f = reinterpret_cast<const void*>(&derivative_z_lPencils<real, N>);
        out.push_back({K, N, P, f});
    }
}

// The extents of kDerivativeExtents as a pack (a static_assert holds the two equal).
template <class real, DerivativeKernelId K, int... Ns>
void add_extents(std::vector<Instantiation>& out) {
    (add_one<real, K, Ns>(out), ...);
}
template <class real, DerivativeKernelId K>
void add_kernel(std::vector<Instantiation>& out) {
    add_extents<real, K, 16, 32, 64, 96, 128, 192, 256>(out);
}
constexpr bool extents_match() {
    constexpr int pack[] = {16, 32, 64, 96, 128, 192, 256};
    if (std::size(pack) != std::size(kDerivativeExtents)) return false;
    for (std::size_t i = 0; i < std::size(pack); ++i)
        if (pack[i] != kDerivativeExtents[i]) return false;
    return true;
}
static_assert(extents_match(), "add_kernel's extents must be kDerivativeExtents");

template <class real>
void add_precision(std::vector<Instantiation>& out) {
    add_kernel<real, DerivativeKernelId::x_small>(out);
    add_kernel<real, DerivativeKernelId::x_large>(out);
    add_kernel<real, DerivativeKernelId::x_tile>(out);
    add_kernel<real, DerivativeKernelId::y_small>(out);
    add_kernel<real, DerivativeKernelId::y_large>(out);
    add_kernel<real, DerivativeKernelId::z_small>(out);
    add_kernel<real, DerivativeKernelId::z_large>(out);
}

const std::vector<Instantiation>& instantiations() {
    static const std::vector<Instantiation> all = [] {
        std::vector<Instantiation> v;
        add_precision<float>(v);
        add_precision<double>(v);
        return v;
    }();
    return all;
}

template <class real>
cudaError_t upload(const std::array<double, 12>& v) {
    DerivativeCoefficients<real> c{};
    real* slots = &c.ax;  // twelve reals in the order of derivative_coefficient_values
    static_assert(sizeof(c) == 12 * sizeof(real));
    for (int i = 0; i < 12; ++i) slots[i] = static_cast<real>(v[i]);
    if constexpr (std::is_same_v<real, float>)
        return cudaMemcpyToSymbol(c_derivative_f32, &c, sizeof c);
    else
        return cudaMemcpyToSymbol(c_derivative_f64, &c, sizeof c);
}

}  // namespace

const void* derivative_function(DerivativeKernelId k, int n, Precision p) {
    for (const auto& i : instantiations())
        if (i.kernel == k && i.n == n && i.precision == p) return i.function;
    return nullptr;
}

cudaError_t upload_derivative_weights(Precision p, const std::array<double, 12>& weights) {
    return p == Precision::f32 ? upload<float>(weights) : upload<double>(weights);
}

}  // namespace stencil::cuda_detail
