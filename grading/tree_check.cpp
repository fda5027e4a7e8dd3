#include "grading/tree_check.h"

#include <fmt/format.h>

#include "grading/elf_needs.h"

namespace stencil::grading {

namespace fs = std::filesystem;

PlatformImage platform_image(Platform p) {
    switch (p) {
        // Gradescope offers Ubuntu 22.04 and 24.04 base images: the tree must run on the older.
        case Platform::gradescope: return {"Ubuntu 22.04 (Gradescope's oldest base image)", {2, 35}, {3, 4, 30}};
        case Platform::prairielearn: return {"Ubuntu 24.04 (the bundle's Dockerfile)", {2, 39}, {3, 4, 33}};
        case Platform::classroom: return {"Ubuntu 24.04 (GitHub's ubuntu-latest runner)", {2, 39}, {3, 4, 33}};
    }
    return {"?", {}, {}};
}

bool library_allowed(const std::string& soname) {
    static const char* const kImage[] = {"libc.so.6",     "libm.so.6",       "libpthread.so.0", "libdl.so.2",
                                         "librt.so.1",    "libutil.so.1",    "ld-linux-x86-64.so.2",
                                         "libstdc++.so.6", "libgcc_s.so.1"};
    for (const char* s : kImage)
        if (soname == s) return true;
    return soname.rfind("libnvrtc.so.", 0) == 0 || soname.rfind("libnvrtc-builtins.so.", 0) == 0;
}

std::string tree_problem(const fs::path& tree, Platform p) {
    std::error_code ec;
    for (const char* must : {"bin/stencil-lab", "libexec/stencil-lab/stencil-check-runner"})
        if (!fs::is_regular_file(tree / must, ec))
            return fmt::format("the install tree {} has no {}", tree.string(), must);
    const PlatformImage image = platform_image(p);
    const fs::path carried = tree / "lib" / "stencil-lab";
    for (const char* dir : {"bin", "libexec/stencil-lab", "lib/stencil-lab"}) {
        if (!fs::is_directory(tree / dir, ec)) continue;
        for (auto it = fs::recursive_directory_iterator(tree / dir, ec); !ec && it != fs::recursive_directory_iterator();
             it.increment(ec)) {
            if (!it->is_regular_file(ec)) continue;
            std::string why;
            const auto needs = read_elf_needs(it->path(), why);
            if (!needs) continue;  // not ELF: a script or data
            const std::string rel = it->path().lexically_relative(tree).string();
            for (const auto& lib : needs->libraries)
                if (!library_allowed(lib) && !fs::exists(carried / lib, ec))
                    return fmt::format("{} needs {}, which {} does not have (only glibc, libstdc++, libgcc_s and "
                                       "NVRTC are there)", rel, lib, image.name);
            std::set<std::string> all;
            for (const auto& [lib, names] : needs->versions) all.insert(names.begin(), names.end());
            if (const auto v = highest_version(all, "GLIBC"); !v.empty() && v > image.glibc)
                return fmt::format("{} needs glibc {}, newer than the {} of {}", rel, version_text(v),
                                   version_text(image.glibc), image.name);
            if (const auto v = highest_version(all, "GLIBCXX"); !v.empty() && v > image.glibcxx)
                return fmt::format("{} needs libstdc++'s GLIBCXX_{}, newer than the GLIBCXX_{} of {}", rel, version_text(v),
                                   version_text(image.glibcxx), image.name);
        }
    }
    return "";
}

}  // namespace stencil::grading
