// Run time (kernel, precision, T, r) -> the compile-time instantiation, for either backend.
//
//   dispatch<KernelId::tiled>(Precision::f32, 8, 1, [&]<class real, int T, int R>() { ... });
//
// instantiates the lambda for every built (T, r, precision) that fits the default device limits
// and calls the one asked for. Returns false when that combination was not built (tile_error in
// versions.h says why, in words). A kernel whose T is not a template parameter (naive, conv27)
// has one instantiation per (r, precision): its lambda gets T = 0.
#pragma once
#include <utility>

#include "kernels/version_rules.h"
#include "kernels/versions.h"  // Precision

namespace stencil {

namespace detail {

template <KernelId K, class real, int R, class F, std::size_t... I>
bool dispatch_tile(int T, F& f, std::index_sequence<I...>) {
    bool called = false;
    auto try_one = [&]<int TT>() {
        if constexpr (rules::tile_fits(K, TT, R, sizeof(real))) {
            if (T == TT) {
                f.template operator()<real, TT, R>();
                called = true;
            }
        }
    };
    (try_one.template operator()<rules::kBuiltTiles[I]>(), ...);
    return called;
}

template <KernelId K, class real, class F>
bool dispatch_radius(int T, int R, F& f) {
    auto one = [&]<int RR>() -> bool {
        if constexpr (!shape_of(K).tile_is_template) {  // T is only the block edge
            f.template operator()<real, 0, RR>();
            return true;
        } else {
            return dispatch_tile<K, real, RR>(T, f, std::make_index_sequence<std::size(rules::kBuiltTiles)>{});
        }
    };
    switch (R) {
        case 1: return one.template operator()<1>();
        case 2: return one.template operator()<2>();
        case 3: return one.template operator()<3>();
        case 4: return one.template operator()<4>();
        default: return false;
    }
}

}  // namespace detail

template <KernelId K, class F>
bool dispatch(Precision p, int T, int R, F&& f) {
    if (p == Precision::f32) return detail::dispatch_radius<K, float>(T, R, f);
    return detail::dispatch_radius<K, double>(T, R, f);
}

}  // namespace stencil
