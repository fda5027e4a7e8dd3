// What every generated launch unit (backends/cuda/launch_unit.cu.in, one per row of
// kernels/version_shapes.h) expands: its version's instantiations over every runnable (precision,
// T, r, K), picked at run time, and the KernelTable that hands them to cudaLaunchKernel. The
// kernel's template parameters follow from its shape: <real, R> when T is only the block edge,
// <real, IN_TILE_DIM, R> when T is a template parameter, <real, IN_TILE_DIM, R, K> when a launch
// fuses K time steps.
#pragma once
#include <utility>

#include "backends/cuda/cuda_internal.h"
#include "kernels/dispatch.h"

namespace stencil::cuda_detail {

// The instantiation of version K for (precision, T, r) fusing `fused` steps, or nullptr when that
// combination was not built. `make<real, T, R, K>()` names the kernel's instantiation.
template <KernelId K, class Make>
const void* version_function(Precision p, int T, int radius, int fused, Make make) {
    const void* f = nullptr;
    dispatch<K>(p, T, radius, [&]<class real, int TT, int RR>() {
        auto one = [&]<int KK>() {
            if constexpr (rules::fuse_fits(K, TT, RR, KK))
                if (fused == KK) f = make.template operator()<real, TT, RR, KK>();
        };
        [&]<int... I>(std::integer_sequence<int, I...>) {
            (one.template operator()<I + 1>(), ...);
        }(std::make_integer_sequence<int, shape_of(K).max_fused_steps>{});
    });
    return f;
}

}  // namespace stencil::cuda_detail
