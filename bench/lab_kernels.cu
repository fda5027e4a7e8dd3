// ---------------------------------------------------------------------------------------------
// The lab's kernels, instantiated for the baseline: the same templates (kernels/*.cuh) with the
// same arguments as backends/cuda/launch_<name>.cu (real = float, R = 1, `const float*` /
// `float*`), compiled by nvcc with the same flags (bench/CMakeLists.txt copies them), so the
// machine code is the code the backend runs. What differs is only who calls cudaLaunchKernel:
// this TU, so that the baseline can alternate textbook and lab launch by launch.
//
// This TU has its own c_coefficients_f32 (static in kernels/stencil_coefficients.cuh), which
// upload_lab_weights sets, as the backend's kernel_table.cuh does for its TUs.
// ---------------------------------------------------------------------------------------------
#include <cuda_runtime.h>

#include <array>
#include <string>

#include "bench/lab_kernels.h"
#include "core/error.h"
#include "kernels/coarsened.cuh"
#include "kernels/naive.cuh"
#include "kernels/register_tiled.cuh"
#include "kernels/tiled.cuh"

namespace stencil::bench {

namespace {

using Kernel = void (*)(const float*, float*, int, int, int);

template <int T>
Kernel tiled_at() { return stencil_tiled_kernel<float, T, 1, const float*, float*>; }
template <int T>
Kernel coarsened_at() { return stencil_coarsened_kernel<float, T, 1, const float*, float*>; }
template <int T>
Kernel register_tiled_at() { return stencil_register_tiled_kernel<float, T, 1, const float*, float*>; }

Kernel kernel_for(KernelId k, int tile) {
    switch (k) {
        case KernelId::naive: {
            if (tile < 1) return nullptr;
            const Kernel f = stencil_naive_kernel<float, 1, const float*, float*>;
            return f;
        }
        case KernelId::tiled:
            switch (tile) {
                case 4: return tiled_at<4>();
                case 6: return tiled_at<6>();
                case 8: return tiled_at<8>();
                case 10: return tiled_at<10>();
            }
            return nullptr;
        case KernelId::coarsened:
            if (tile == 16) return coarsened_at<16>();
            if (tile == 32) return coarsened_at<32>();
            return nullptr;
        case KernelId::register_tiled:
            if (tile == 16) return register_tiled_at<16>();
            if (tile == 32) return register_tiled_at<32>();
            return nullptr;
    }
    return nullptr;
}

void check(cudaError_t e, const std::string& what) {
    if (e != cudaSuccess)
        throw UserError("CUDA error in " + what + ": " + cudaGetErrorString(e) + " [" + cudaGetErrorName(e) + "]");
}

}  // namespace

bool lab_is_built(KernelId k, int tile) { return kernel_for(k, tile) != nullptr; }

const void* lab_function(KernelId k, int tile) { return reinterpret_cast<const void*>(kernel_for(k, tile)); }

void upload_lab_weights(const StencilWeights& weights) {
    const StencilWeights w = weights.rounded_to(Precision::f32);
    std::array<float, kMaxCoefficients> c{};
    for (int i = 0; i < coefficient_count(w.radius); ++i) c[i] = static_cast<float>(w.c[i]);
    check(cudaMemcpyToSymbol(c_coefficients_f32, c.data(), sizeof(float) * kMaxCoefficients),
          "cudaMemcpyToSymbol (the lab's fp32 weights)");
}

void launch_lab(KernelId k, int tile, GridDims dims, const float* in, float* out) {
    const Kernel f = kernel_for(k, tile);
    if (!f) throw UserError("the lab's " + std::string(version(k).name) + " kernel is not built here for T = " +
                            std::to_string(tile));
    const LaunchGeometry g = launch_geometry(k, tile, 1, Precision::f32, dims);
    f<<<dim3(g.grid.x, g.grid.y, g.grid.z), dim3(g.block.x, g.block.y, g.block.z)>>>(in, out, dims.nx, dims.ny,
                                                                                    dims.nz);
    check(cudaGetLastError(), "the launch of the lab's " + std::string(version(k).name) + " kernel");
}

}  // namespace stencil::bench
