// Device printf under a bound the kernel cannot get around: every call of `vprintf` in a
// submission's PTX (printf, or vprintf named directly, or inline PTX calling it) is routed through
// a gate that counts the calls in a global counter of the module and lets only the first
// `max_calls` through. A kernel that prints in every thread of a 256^3 launch then costs one atomic
// per call, and the GPU's printf FIFO never fills (nothing is overwritten or drained while the
// kernel runs). The CPU engine caps its own printf output (it formats on the host); the GPU
// runner gates the PTX it hands to the driver.
#pragma once
#include <optional>
#include <string>

namespace stencil::checker {

// The module global that counts the calls (reset it before each launch; after the launch it holds
// the number of calls made, kept or not) and the gate's function name. Both start with '$', which
// no C++ identifier does, so a submission cannot define or reach them.
inline constexpr const char* kPrintfCounterSymbol = "$lab_printf_calls";
inline constexpr const char* kPrintfGateSymbol = "$lab_printf_gate";

// `ptx` with vprintf gated; nullopt when the PTX declares no vprintf (nothing to gate).
std::optional<std::string> gate_device_printf(const std::string& ptx, unsigned max_calls);

}  // namespace stencil::checker
