// Every problem's kernel versions in one listing: what `stencil-lab versions` shows across
// problems (each problem's `run` looks its kernel up in its own table). Each problem keeps its own
// table with the facts its kernels need (kernels/versions.h for star3d, kernels/cardiac2d/ and
// kernels/derivative/ for the others); this listing is derived from those tables, never written
// by hand.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/versions.h"

namespace stencil {

struct CatalogEntry {
    Problem problem = Problem::star3d;
    std::string kernel;       // the CLI's spelling
    std::string title;        // for people
    std::string idea;         // the idea in one line
    std::string source_file;  // below the repository root
    std::string threads;      // the block in words: "T^3", "T^2", "16x16", "64x4"
    std::vector<std::string> tiles;  // what runs for (r, precision): "8" (star3d's T) or "16x16"
};

// The entries of one problem, or of all problems in table order.
std::vector<CatalogEntry> catalog(std::optional<Problem> only, int radius, Precision p);
// "naive, tiled, ..." for problem p (the kernels `--kernel` accepts with `--problem p`).
std::string kernel_names(Problem p);
bool has_kernel(Problem p, std::string_view kernel);

}  // namespace stencil
