// Internal to the PTX engine: what a loaded module keeps between launches on a GPU, its __device__
// variables and its device heap (engine.h's DeviceState).
//
// The heap is one arena of the GPU's default size (8 MiB, cudaLimitMallocHeapSize) at a buffer slot
// of its own; malloc hands out 16-byte aligned blocks of it, each remembered with its size, so an
// access is checked against its own block: past its end, into no block, or after free (freed
// blocks wait in a quarantine before they are handed out again, so that a pointer kept after free
// still points into a freed block for a while). Past the arena's end malloc returns a null
// pointer, as on the GPU.
#pragma once
#include <cstdint>
#include <deque>
#include <map>
#include <shared_mutex>
#include <string>
#include <vector>

#include "backends/cpu/ptx/block.h"

namespace ptx {

struct DeviceState::Impl {
    explicit Impl(const Module& m);
    const Module& m;
    std::vector<unsigned char> globals;  // the module's .global variables

    struct Allocation {
        std::uint64_t bytes = 0;
        int id = 0;  // 1, 2, ... in the order malloc gave them (for messages)
        bool live = true;
    };
    mutable std::shared_mutex heap_mutex;
    std::vector<unsigned char> arena;  // empty until the first malloc
    detail::BufferSlot heap_slot;
    std::map<std::uint64_t, Allocation> blocks;           // by offset in the arena
    std::multimap<std::uint64_t, std::uint64_t> free_;    // size -> offset, reusable
    std::deque<std::pair<std::uint64_t, std::uint64_t>> quarantine;  // (offset, size), oldest first
    std::uint64_t quarantined = 0, top = 0;
    int next_id = 1;

    // What an access at `offset` (bytes into the arena) of `size` bytes finds: the block at or below
    // it (or none), and whether it lies wholly inside it.
    struct Hit {
        const Allocation* block = nullptr;
        std::uint64_t start = 0;  // the block's offset
        bool inside = false;
    };
    Hit find(std::uint64_t offset, int size) const;
};

namespace detail {

inline constexpr std::uint64_t kHeapBytes = 8ULL << 20;
inline constexpr std::uint64_t kHeapQuarantineBytes = 1ULL << 20;
inline constexpr std::uint64_t kHeapRedZone = 16;  // bytes after each block that belong to none

}  // namespace detail
}  // namespace ptx
