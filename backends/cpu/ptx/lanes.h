// Internal to the PTX engine's interpreter: FOR_LANES(active, body) runs body once for each
// lane l of the mask `active`, in lane order; a full warp as a plain loop the compiler can
// vectorise. For the hot forms, where the order of the lanes does not matter (each_lane, in
// block.h, gives the launch's exploration order for memory and atomics).
#pragma once
#include <bit>

#include "backends/cpu/ptx/block.h"

// The lanes of `active`, in lane order (the hot forms: the order does not matter).
#define FOR_LANES(active, ...)                                             \
    do {                                                                   \
        if ((active) == kAllLanes) {                                       \
            for (int l = 0; l < kWarpSize; ++l) { __VA_ARGS__; }           \
        } else {                                                           \
            for (u32 m_ = (active); m_; m_ &= m_ - 1) {                    \
                const int l = std::countr_zero(m_);                        \
                __VA_ARGS__;                                               \
            }                                                              \
        }                                                                  \
    } while (0)
