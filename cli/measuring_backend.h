// The backend a measuring command (sweep, tune) runs on, with its defaults there: N = 256 and 20
// timed launches after 3 warm-ups on a GPU; N = 16 and one launch on the CPU backend, whose times
// are an emulator's and rank nothing. A size or a count the user gave wins.
#pragma once
#include <memory>
#include <string>

#include "core/backend.h"

namespace stencil::cli {

struct MeasuringBackend {
    std::unique_ptr<Backend> backend;
    bool gpu = false;
    int size = 0, reps = 0, warmup = 0;
};

// `size` / `reps`: 0 when not given. Throws UserError ("--backend B: why") when the backend
// cannot be made.
MeasuringBackend measuring_backend(const std::string& choice, int size, int reps);

}  // namespace stencil::cli
