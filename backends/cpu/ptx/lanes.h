// Internal to the PTX engine's interpreter (interpret.cpp, memory.cpp): the loop over a group's
// lanes that the hot forms share. each_lane (block.h) is the other loop: the launch's exploration
// order, for memory and atomics.
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
