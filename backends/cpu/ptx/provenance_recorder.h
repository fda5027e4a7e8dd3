// Internal to the PTX engine: the recording mode's observer (provenance.h says what it records),
// beside the checks of the launch when it has them.
#pragma once
#include <memory>

#include "backends/cpu/ptx/observer.h"

namespace ptx::detail {

struct LaunchState;
// The launch's observers: `checks` (null when none) and the recorder of Launch::recording.
std::unique_ptr<LaunchObservers> make_recorder(LaunchState& L, std::unique_ptr<LaunchObservers> checks);

}  // namespace ptx::detail
