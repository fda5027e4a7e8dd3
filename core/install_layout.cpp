#include "core/install_layout.h"

#include <cstdlib>
#include <system_error>

namespace stencil {

namespace fs = std::filesystem;

fs::path self_executable() {
    std::error_code ec;
    fs::path p = fs::read_symlink("/proc/self/exe", ec);
    return ec ? fs::path() : p;
}

std::vector<fs::path> runner_candidates(const std::string& build_fallback) {
    std::vector<fs::path> c;
    if (const char* v = std::getenv("STENCIL_CHECK_RUNNER"); v && *v) c.emplace_back(v);
    const fs::path self = self_executable();
    if (!self.empty()) {
        const fs::path bin = self.parent_path();
        c.push_back(bin / "stencil-check-runner");                                   // beside it
        c.push_back(bin.parent_path() / "libexec" / "stencil-lab" / "stencil-check-runner");  // installed
        c.push_back(bin.parent_path() / "stencil-check-runner");                     // <build>/tests
    }
    if (!build_fallback.empty()) c.emplace_back(build_fallback);
    return c;
}

std::string find_runner(const std::string& build_fallback) {
    const auto c = runner_candidates(build_fallback);
    // $STENCIL_CHECK_RUNNER is taken as given: a wrong path there must fail loudly, not quietly
    // fall back to another runner.
    if (const char* v = std::getenv("STENCIL_CHECK_RUNNER"); v && *v) return v;
    std::error_code ec;
    for (const auto& p : c)
        if (fs::is_regular_file(p, ec)) return p.string();
    return c.empty() ? build_fallback : c.back().string();
}

fs::path install_prefix() {
    const fs::path self = self_executable();
    if (self.empty()) return {};
    const fs::path prefix = self.parent_path().parent_path();
    std::error_code ec;
    if (self.parent_path().filename() == "bin" && fs::is_directory(prefix / "share" / "stencil-lab", ec))
        return prefix;
    return {};
}

fs::path data_dir(const std::string& source_fallback) {
    std::error_code ec;
    auto holds = [&](const fs::path& d) { return !d.empty() && fs::is_directory(d / "exercises", ec); };
    if (const char* v = std::getenv("STENCIL_LAB_DATA_DIR"); v && *v) return holds(v) ? fs::path(v) : fs::path();
    if (const fs::path prefix = install_prefix(); holds(prefix / "share" / "stencil-lab"))
        return prefix / "share" / "stencil-lab";
    if (holds(source_fallback)) return source_fallback;
    return {};
}

}  // namespace stencil
