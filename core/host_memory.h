// How much host memory a checked run needs, and whether this machine has it.
//
// Every run is checked against an fp64 reference on the host, whatever the backend: the input,
// the poisoned output and the reference (its value and its magnitude, two doubles per cell) live
// in host memory together. At 512^3 fp32 that is 3 GiB; at the 32-bit limit (about 1270^3) it is
// 47 GiB. A laptop asked for that must get a sentence, not an out-of-memory kill.
#pragma once
#include <optional>
#include <string>

#include "kernels/versions.h"

namespace stencil {

// Bytes per cell of a checked run: input + output in the kernel's precision, + 2 doubles.
constexpr long long checked_run_bytes_per_cell(Precision p) { return 2LL * bytes_of(p) + 2 * 8; }

// Host memory that can be allocated now without swapping: MemAvailable from /proc/meminfo, or the
// physical memory where that file is missing. 0 when neither can be read.
long long available_host_memory();

// Why a checked run of `dims` in precision `p` cannot fit in `available` bytes (a sentence), or
// nullopt when it fits with a quarter of the memory to spare.
std::optional<std::string> host_memory_error(GridDims dims, Precision p, long long available);

}  // namespace stencil
