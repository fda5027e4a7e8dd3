// Whether an install tree runs where a bundle is uploaded: every ELF file under bin/, libexec/
// and lib/stencil-lab needs only libraries the platform's image has (glibc's, libstdc++,
// libgcc_s) or that setup installs (NVRTC) or that the tree carries (lib/stencil-lab), and no
// newer glibc or libstdc++ symbol version than that image's. Read from the files (elf_needs.h).
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "grading/platform.h"

namespace stencil::grading {

// The oldest image a platform's bundle may run on.
struct PlatformImage {
    const char* name;              // "Ubuntu 22.04 (Gradescope's oldest base image)"
    std::vector<int> glibc;        // its glibc
    std::vector<int> glibcxx;      // its libstdc++'s highest GLIBCXX_ version
};
PlatformImage platform_image(Platform p);

// Whether a library name is one the image has or setup installs.
bool library_allowed(const std::string& soname);

// One line saying why `tree` cannot run on `p`'s image, or "" when it can.
std::string tree_problem(const std::filesystem::path& tree, Platform p);

}  // namespace stencil::grading
