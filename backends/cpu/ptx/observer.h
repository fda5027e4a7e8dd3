// Internal to the PTX engine: the checks watch the interpreter through this interface (as
// Oclgrind's plugins watch its executor): every memory access as it happens, every fence, the
// block's barrier and a warp's __syncwarp() as they complete. The interpreter knows nothing of
// what they check; a launch without checks has no observers and pays one test per access.
//
//   race_detector.cpp   races in shared and global memory under the PTX memory model's
//                       happens-before (barriers, __syncwarp masks, fences with strong accesses,
//                       release/acquire), and reads of shared bytes no thread stored
//   provenance.cpp      the recording mode (provenance.h): stores to watched cells, and one block's
//                       instructions and accesses for the backward slice
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "backends/cpu/ptx/ir.h"
#include "core/engine_trace.h"

namespace ptx::detail {

class BlockRunner;
struct Thread;
struct BufferSlot;

// One memory access, as the interpreter performs it (after its bounds were checked).
struct AccessEvent {
    Thread& t;
    const Instr& in;
    engine::Space space;
    engine::Op op;         // an atomic is a read and a write at once
    int size = 0;        // bytes
    const BufferSlot* buffer = nullptr;  // global: the buffer (nullptr for the module's variables)
    int buffer_index = -1;               // global: Launch::buffers' index, or kModuleGlobalsIndex
    int var = -1;        // shared: the variable (-1: none, or dynamic shared memory)
    long long offset = 0;  // global: bytes into the buffer; shared: bytes into the block's memory
    long long inner = 0;   // shared: bytes into the variable
    // The PTX memory model: a strong access (.volatile, .relaxed, .acquire, .release, atomics) may
    // synchronise; acquire / release as the instruction says.
    bool strong = false, acquire = false, release = false;
};

// A worker's view of one block at a time.
class BlockObserver {
public:
    virtual ~BlockObserver() = default;
    virtual void block_start(BlockRunner&) {}
    virtual void access(BlockRunner&, const AccessEvent&) {}
    virtual void fence(BlockRunner&, Thread&, const Instr&) {}
    // Every thread of the block passed the barrier (their intervals already advanced).
    virtual void barrier_released(BlockRunner&) {}
    // These lanes of one warp completed a bar.warp.sync together.
    virtual void warp_synced(BlockRunner&, const std::vector<Thread*>&) {}
    // Whether this block's instructions are wanted (asked once, at its start): then each
    // instruction a group reaches is reported before it executes, `active` the lanes that execute
    // it and the rest of `mask` the lanes whose guard was false. A launch where no observer wants
    // them runs the interpreter's loop without the call.
    virtual bool wants_steps(BlockRunner&) { return false; }
    // Whether this block's memory accesses are wanted (asked once, at its start). A block no
    // observer watches runs the plain loads and stores (a large grid's unsampled blocks).
    virtual bool wants_accesses(BlockRunner&) { return true; }
    virtual void step(BlockRunner&, Thread* const* /*lanes*/, std::uint32_t /*mask*/, std::uint32_t /*active*/,
                      int /*fn*/, int /*pc*/) {}
};

// What the checks of one launch share between its workers (the shadows of global memory, the
// synchronising locations), and each worker's observers.
class LaunchObservers {
public:
    virtual ~LaunchObservers() = default;
    virtual std::vector<std::unique_ptr<BlockObserver>> for_worker() = 0;
};

}  // namespace ptx::detail
