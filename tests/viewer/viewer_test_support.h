// What several of the viewer's test files need: one block of a lab kernel traced by the stepper,
// the committed sweep, and a scratch file of given text.
#pragma once
#include <filesystem>
#include <fstream>
#include <string>

#include "viewer/core/stepper.h"

namespace stencil::viewer::test {

// Block `b` of kernel k (tile T, radius r) on a grid of `d`, traced as the stepper shows it.
inline StepperTrace traced(KernelId k, int T, GridDims d = {20, 20, 20}, engine::Idx3 b = {1, 1, 1}, int r = 1) {
    StepperConfig c;
    c.kernel = k;
    c.tile = T;
    c.radius = r;
    c.dims = d;
    c.block = b;
    return trace_block(c);
}

// The committed GPU sweep the figures' tests read (one literal: GCC 12 warns, falsely, about
// `std::string + "..."` on a temporary at -O1).
inline std::string committed_sweep() { return STENCIL_LAB_SOURCE_DIR "/docs/results/h100-sweep-256-f32/results.json"; }

// `text` written to <temp>/<name>; its path.
inline std::string scratch_file(const std::string& name, const std::string& text) {
    const auto p = std::filesystem::temp_directory_path() / name;
    std::ofstream(p) << text;
    return p.string();
}

}  // namespace stencil::viewer::test
