// The engine's recording mode (Launch::recording): what a replay of a failing run needs to name the
// statements behind a wrong output, and nothing a normal run pays for.
//
//   watched cells   a few cells of global memory (the first bad output, its neighbours): the last
//                   store to each (its site, block and thread) and how many stores it had, over
//                   the whole grid; and the sites that stored into each buffer at all
//   traced block    one block: every instruction each of its threads executed or skipped (a
//                   guard that was false), every global and shared access it made with the bytes
//                   it loaded, in the order the block ran them: the input of the backward slice
//                   (slice.h)
// The traced block runs on one worker; the watched cells' stores come from any (two blocks storing
// one cell is a race, whose last store depends on the workers' timing).
#pragma once
#include <cstdint>
#include <vector>

#include "core/engine_trace.h"

namespace ptx {

struct WatchedCell {
    int buffer = 0;        // Launch::buffers' index
    long long offset = 0;  // bytes into the buffer
    int bytes = 4;
};

// The last store to a watched cell.
struct CellStore {
    int site = -1;  // -1: no store reached the cell
    engine::Idx3 block, thread;
    long long stores = 0;
};

// One instruction a traced thread reached: executed, or skipped because its guard was false.
struct StepRecord {
    int fn = 0, pc = 0;
    bool executed = true;
};

// One access of a traced thread (after its bounds were checked).
struct AccessRecord {
    int step = 0;          // the StepRecord of its instruction
    int interval = 0;      // the block's barrier interval it was made in
    long long order = 0;   // the block's order of accesses (who stored a shared cell before a load)
    engine::Space space = engine::Space::global;
    engine::Op op = engine::Op::load;
    int where = -1;        // global: Launch::buffers' index; shared: the variable (-1: none)
    long long offset = 0;  // global: bytes into the buffer; shared: bytes into the block's memory
    long long inner = 0;   // shared: bytes into the variable
    int bytes = 0;
    std::uint64_t loaded = 0;  // a load's first 8 bytes
};

struct ThreadRecord {
    engine::Idx3 idx;
    std::vector<StepRecord> steps;
    std::vector<AccessRecord> accesses;
};

struct Recording {
    // asked
    std::vector<WatchedCell> cells;
    bool trace_block = false;
    engine::Idx3 block;
    // found
    std::vector<CellStore> stores;                // by cell
    std::vector<std::vector<int>> store_sites;    // by buffer: the sites that stored into it
    std::vector<ThreadRecord> threads;            // the traced block's, by linear thread
    bool traced = false;                          // the traced block ran
};

}  // namespace ptx
