// The cardiac2d branches of `stencil-lab run` and `stencil-lab model` (cli/run_cardiac2d.cpp,
// cli/model_cardiac2d.cpp): cmd_run.cpp and cmd_model.cpp parse the options and hand them here.
#pragma once
#include <string>

namespace stencil::cli {

struct Cardiac2dRunArgs {
    std::string kernel;
    int size = 0;   // n; 0: the backend's default
    int steps = 0;  // K; 0: the backend's default
    int reps = 0;   // timed samples on the GPU; 0: the default
    std::string precision = "f32";
    std::string backend = "auto";
    bool json = false;
};
// `run --problem cardiac2d`: the check against the fp64 reference, then (GPU) the timing.
// Returns the exit code: 0 right, 1 wrong; bad input throws UserError (exit 2).
int run_cardiac2d(const Cardiac2dRunArgs& a);

// `model --problem cardiac2d [--tile T] [--json]`: both ghost-cell thread assignments.
int model_cardiac2d(int tile, bool json);

}  // namespace stencil::cli
