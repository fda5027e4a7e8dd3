// Internal to stencil-check-runner (CPU half): the replay of a failing run (protocol.h's
// ReplaySpec), on the PTX engine's recording mode.
#pragma once
#include <functional>

#include "backends/cpu/ptx/provenance.h"
#include "checker/protocol.h"

namespace ptx {
class Module;
}

namespace stencil::checker::runner {

// An engine index (block, thread, cell) as the protocol carries it.
Int3 to_int3(engine::Idx3 i);

// `run` runs the case's run once more on a recording launch of `rec` (a fresh device state each
// time); the cells are of `elem_bytes` bytes each.
ReplayOutcome replay_run(const ReplaySpec& spec, const CaseSpec& cs, int elem_bytes, const ptx::Module& m,
                         const std::function<void(ptx::Recording&)>& run);

}  // namespace stencil::checker::runner
