// A modelled timeline of the stepper's block, for a machine without a GPU: the CPU engine runs a
// block's warps in lock step, so its own clock (the step) never shows a warp waiting at a barrier.
// This model replays the engine's trace of the block warp by warp with a few costs a GPU has, so
// the barrier waits a GPU shows (warps whose loads queue behind others', halo warps idle while
// others compute) appear, labelled "modelled". docs/DESIGN.md ("The viewer") gives the model and
// its constants; the GPU's measured timeline (block_timeline.h) is the truth beside it.
//
// The model, per warp, instructions in the trace's order:
//   - every instruction issues in `issue` cycles (a shared access once per bank-conflict way);
//   - a global load's sectors pass the block's one memory pipe, one every `cycles_per_sector`
//     (the SM's share of DRAM bandwidth), in the order the trace issues them; its data arrive
//     `global_latency` after its last sector; the warp waits for them at its next instruction
//     that is not a global load (drawn as load);
//   - a shared load's value arrives `shared_latency` later; at its global store the warp computes
//     the output's 6r + 1 products as one dependent chain of `fma_latency` each (compute), then
//     the store's sectors take the pipe (store);
//   - a barrier releases `barrier_latency` after the last warp's arrival; every other warp waits
//     from its own arrival (wait). After the last interval a warp is done.
#pragma once
#include "viewer/core/block_timeline.h"
#include "viewer/core/stepper.h"

namespace stencil::viewer {

struct TimingModel {
    double issue = 1;
    double cycles_per_sector = 2.2;
    double global_latency = 500;
    double shared_latency = 30;
    double fma_latency = 4;
    double barrier_latency = 20;
};

// The block's warps over modelled cycles (unit "cycles", modelled = true).
BlockTimeline timeline_modelled(const StepperTrace& t, const TimingModel& m = {});

}  // namespace stencil::viewer
