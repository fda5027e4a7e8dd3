#include "core/backend.h"

namespace stencil {

std::string_view to_string(BackendKind k) { return k == BackendKind::cuda ? "cuda" : "cpu"; }

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
    if (choice == "cpu") return make_cpu_backend();
    if (choice == "cuda" || choice == "gpu") return make_cuda_backend(why);
    if (choice == "auto") {
        std::string ignored;
        if (auto gpu = make_cuda_backend(&ignored)) return gpu;
        return make_cpu_backend();
    }
    if (why) *why = "unknown backend '" + std::string(choice) + "' (choose auto, cuda or cpu)";
    return nullptr;
}

}  // namespace stencil
