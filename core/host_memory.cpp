#include "core/host_memory.h"

#include <fmt/format.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

namespace stencil {

long long available_host_memory() {
    std::ifstream meminfo("/proc/meminfo");
    std::string line;
    while (std::getline(meminfo, line)) {
        if (line.rfind("MemAvailable:", 0) != 0) continue;
        std::istringstream fields(line.substr(13));
        long long kib = 0;
        if (fields >> kib) return kib * 1024;
    }
    const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? static_cast<long long>(pages) * page : 0;
}

std::optional<std::string> host_memory_error(GridDims dims, Precision p, long long available) {
    if (available <= 0) return std::nullopt;  // unknown: let the allocation decide
    const long long need = dims.cells() * checked_run_bytes_per_cell(p);
    // A quarter spare: the backend's own buffers and the rest of the process live there too.
    if (need <= available / 4 * 3) return std::nullopt;
    return fmt::format("grid {}x{}x{} in {} needs {} MiB of host memory for the input, the output and "
                       "the fp64 reference ({} B per cell), but only {} MiB are available here: use a "
                       "smaller grid",
                       dims.nx, dims.ny, dims.nz, to_string(p), need >> 20, checked_run_bytes_per_cell(p),
                       available >> 20);
}

}  // namespace stencil
