// Internal to the PTX engine: what a loaded module keeps between launches on a GPU, its __device__
// variables and its device heap (engine.h's DeviceState), and the heap's allocations as buffers the
// executor bounds-checks like any other.
#pragma once
#include <array>
#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "backends/cpu/ptx/block.h"

namespace ptx {

struct DeviceState::Impl {
    explicit Impl(const Module& m);
    const Module& m;
    std::vector<unsigned char> globals;  // the module's .global variables
    // The heap: allocation k is buffer slot detail::kHeapFirstIndex + k; a slot is published once
    // (its pointer stored with release) and never moves, so workers read it without the lock.
    static constexpr int kSlots = detail::kHeapLastIndex - detail::kHeapFirstIndex + 1;
    std::mutex heap_mutex;
    std::vector<std::atomic<detail::BufferSlot*>> slots;
    std::vector<std::unique_ptr<detail::BufferSlot>> owned;
    std::vector<std::unique_ptr<unsigned char[]>> storage;
    int next_slot = 0;
    long long heap_used = 0;
};

namespace detail {

// The GPU's default heap for device malloc (cudaLimitMallocHeapSize): a request past it returns
// a null pointer, as there.
inline constexpr long long kHeapBytes = 8LL << 20;

// The heap allocation at buffer slot `index`, or nullptr.
inline const BufferSlot* heap_slot(DeviceState::Impl& d, int index) {
    const int k = index - kHeapFirstIndex;
    if (k < 0 || k >= DeviceState::Impl::kSlots) return nullptr;
    return d.slots[(size_t)k].load(std::memory_order_acquire);
}

}  // namespace detail
}  // namespace ptx
