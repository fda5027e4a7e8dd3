// Wall seconds since a steady-clock instant: the runs of distributed/ time their step loops with it.
#pragma once
#include <chrono>

namespace stencil::distributed {

using Clock = std::chrono::steady_clock;
inline double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

}  // namespace stencil::distributed
