// What a user may ask for with --backend, spelled in one place: the CLI's option, the checker and
// make_backend all parse it here. "gpu" is accepted for cuda (and printed back as cuda).
#pragma once
#include <optional>
#include <string_view>

namespace stencil {

enum class BackendChoice { automatic, cuda, cpu };

constexpr std::string_view to_string(BackendChoice c) {
    switch (c) {
        case BackendChoice::automatic: return "auto";
        case BackendChoice::cuda: return "cuda";
        case BackendChoice::cpu: return "cpu";
    }
    return "auto";
}

constexpr std::optional<BackendChoice> parse_backend_choice(std::string_view s) {
    for (BackendChoice c : {BackendChoice::automatic, BackendChoice::cuda, BackendChoice::cpu})
        if (s == to_string(c)) return c;
    if (s == "gpu") return BackendChoice::cuda;
    return std::nullopt;
}

// For messages: "auto, cuda or cpu".
inline constexpr std::string_view kBackendChoices = "auto, cuda or cpu";

}  // namespace stencil
