#include "cli/measuring_backend.h"

#include <fmt/format.h>

#include "core/error.h"

namespace stencil::cli {

MeasuringBackend measuring_backend(const std::string& choice, int size, int reps) {
    MeasuringBackend m;
    std::string why;
    m.backend = make_backend(choice, &why);
    if (!m.backend) throw UserError(fmt::format("--backend {}: {}", choice, why));
    m.gpu = m.backend->kind() == BackendKind::cuda;
    m.size = size > 0 ? size : (m.gpu ? 256 : 16);
    m.reps = reps > 0 ? reps : (m.gpu ? 20 : 1);
    m.warmup = m.gpu ? 3 : 0;
    return m;
}

}  // namespace stencil::cli
