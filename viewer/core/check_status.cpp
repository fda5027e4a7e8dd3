#include "viewer/core/check_status.h"

#include <fmt/format.h>

namespace stencil::viewer {

std::string check_status_text(const checker::CheckProgress& p, bool stopping) {
    if (stopping) return "cancelling... (the runner's process group is being stopped)";
    if (p.size_number <= 0) return "compiling with NVRTC in the child process...";
    return fmt::format("size {} of {} (N = {}): {}", p.size_number, p.sizes, p.n, p.line);
}

float check_fraction(const checker::CheckProgress& p) {
    if (p.size_number <= 0 || p.sizes <= 0) return 0.0f;
    return float(p.size_number - 1) / float(p.sizes);
}

}  // namespace stencil::viewer
