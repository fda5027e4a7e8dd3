// ---------------------------------------------------------------------------------------------
// The conv27 kernel (kernels/conv27.cuh) on the GPU: one instantiation per (precision, r) through
// dispatch<KernelId::conv27> (its T is only the block edge, as naive's), and this TU's own copy of
// the dense cube of weights. cuda_backend.cpp launches the handles with cudaLaunchKernel on the
// geometry of launch_geometry() (kernels/versions.h), so the launch shape is written once.
//
// Unlike the star kernels (backends/cuda/kernel_table.cuh), the weights go up as the cube the
// kernel multiplies: the star's 6r + 1, spread by kernels/dense_weights.h with zeros off the axes.
// ---------------------------------------------------------------------------------------------
#include <array>

#include "backends/cuda/cuda_internal.h"
#include "kernels/conv27.cuh"
#include "kernels/dense_weights.h"
#include "kernels/dispatch.h"

namespace stencil::cuda_detail {

namespace {

const void* conv27_function(Precision p, int T, int radius) {
    const void* f = nullptr;
    dispatch<KernelId::conv27>(p, T, radius, [&]<class real, int TT, int RR>() {
        f = reinterpret_cast<const void*>(&stencil_conv27_kernel<real, RR>);
    });
    return f;
}

template <class real, std::size_t N>
void upload_cube(const StencilWeights& w, const real (&symbol)[N], const char* what) {
    std::array<real, N> cube{};
    fill_dense_weights(w.c.data(), w.radius, cube.data());
    check(cudaMemcpyToSymbol(symbol, cube.data(), sizeof(real) * N), what);
}

void upload_dense_weights(const StencilWeights& weights, Precision p) {
    const StencilWeights w = weights.rounded_to(p);
    if (p == Precision::f32)
        upload_cube(w, c_dense_weights_f32, "cudaMemcpyToSymbol (fp32 conv27 weights)");
    else
        upload_cube(w, c_dense_weights_f64, "cudaMemcpyToSymbol (fp64 conv27 weights)");
}

}  // namespace

const KernelTable& conv27_table() {
    static const KernelTable table{conv27_function, upload_dense_weights};
    return table;
}

}  // namespace stencil::cuda_detail
