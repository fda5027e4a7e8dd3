#include "core/backend.h"
#include "core/backend_choice.h"

namespace stencil {

#ifndef STENCIL_LAB_HAVE_CUDA
std::unique_ptr<Backend> make_cuda_backend(std::string* why) {
    if (why) *why = *cuda_unavailable_reason();
    return nullptr;
}
std::optional<std::string> cuda_unavailable_reason() {
    return "this build of stencil-lab has no CUDA backend (configured without nvcc)";
}
#endif

std::unique_ptr<Backend> make_backend(std::string_view choice, std::string* why) {
    const auto parsed = parse_backend_choice(choice);
    if (!parsed) {
        if (why) *why = "unknown backend '" + std::string(choice) + "' (choose " + std::string(kBackendChoices) + ")";
        return nullptr;
    }
    switch (*parsed) {
        case BackendChoice::cpu: return make_cpu_backend();
        case BackendChoice::cuda: return make_cuda_backend(why);
        case BackendChoice::automatic: break;
    }
    std::string ignored;
    if (auto gpu = make_cuda_backend(&ignored)) return gpu;
    return make_cpu_backend();
}

}  // namespace stencil
