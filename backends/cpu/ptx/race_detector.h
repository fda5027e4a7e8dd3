// Internal to the PTX engine: the checks of a checked launch (ExecOptions::check_shared), one
// observer of the interpreter (observer.h):
//   races          two accesses to one byte of shared or global memory, at least one a store and
//                  not both strong (.volatile, .relaxed, .acquire/.release, atomics), that the PTX
//                  memory model does not order. The order it gives, and nothing more:
//                    - program order within a thread;
//                    - the block's barrier (bar.sync, bar.red): everything before it in the block
//                      before everything after it (it also acts as a fence for the patterns below);
//                    - bar.warp.sync (__syncwarp(mask)): among the lanes of its mask only;
//                    - release -> acquire: a release pattern (a fence, then a strong store or atomic
//                      to a location; or .release itself) read by an acquire pattern (a strong load or
//                      atomic of that location, then a fence or barrier; or .acquire itself) orders
//                      what came before the fence in the releasing thread (and what that thread knew)
//                      before what comes after the acquire, within a block and between blocks.
//                      Atomic read-modify-writes continue a release sequence; a plain strong store
//                      ends it.
//                  Scopes (.cta, .gpu, .sys) are not told apart: a .cta fence orders as a .gpu one.
//   uninitialised  a load of a shared byte no thread of the block stored (a warning; its value is
//                  whatever Launch::explore put there)
// Launch::check_block_stride checks every k-th block only (shared memory, and no global shadow):
// the large grids' sample.
#pragma once
#include <memory>

#include "backends/cpu/ptx/observer.h"

namespace ptx::detail {

struct LaunchState;
std::unique_ptr<LaunchObservers> make_race_detector(LaunchState& L);

}  // namespace ptx::detail
