// Work split over z-planes (or any index range) on threads of their own: the checker's large cases
// (16.7 M cells made, referenced and judged), the derivative's reference. Plain C++ threads; each
// slab writes only its own part of the output, so no locking.
#pragma once
#include <cstdint>
#include <functional>

namespace stencil {

// Slabs for n items: one per hardware thread, at most 16, none thinner than min_per_slab, at
// least 1.
int slab_count(long long n, long long min_per_slab);

// fn(slab, begin, end) for each of `slabs` contiguous parts of [0, n), slab 0 on the calling
// thread; returns when all are done.
void for_each_slab(int n, int slabs, const std::function<void(int slab, int begin, int end)>& fn);

// SplitMix64's output function: a seed for each part (case, plane, size draw) of a check from
// the check's one seed, so that parts can be made in any order or in parallel.
constexpr std::uint64_t mix_seed(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

}  // namespace stencil
