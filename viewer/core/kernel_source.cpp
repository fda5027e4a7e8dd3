#include "viewer/core/kernel_source.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace stencil::viewer {

namespace fs = std::filesystem;

std::optional<std::string> find_source_file(const std::string& relative, const std::string& exe_dir) {
    std::vector<fs::path> roots;
    if (const char* env = std::getenv("STENCIL_LAB_SOURCE_DIR"); env && *env) roots.emplace_back(env);
    if (!exe_dir.empty()) {
        roots.emplace_back(exe_dir);
        roots.emplace_back(fs::path(exe_dir).parent_path());
        roots.emplace_back(fs::path(exe_dir) / "share" / "stencil-lab");
    }
#ifdef STENCIL_VIEWER_SOURCE_DIR
    roots.emplace_back(STENCIL_VIEWER_SOURCE_DIR);
#endif
    roots.emplace_back(fs::current_path());
    for (const auto& r : roots) {
        std::error_code ec;
        const fs::path p = r / relative;
        if (fs::is_regular_file(p, ec)) return p.string();
    }
    return std::nullopt;
}

namespace {

// The code part of a line (before a // comment).
std::string code_of(const std::string& line) {
    const auto c = line.find("//");
    return c == std::string::npos ? line : line.substr(0, c);
}

// Line of the brace matching the first '{' at or after `line`; -1 if none.
int matching_brace(const std::vector<std::string>& lines, int line) {
    int depth = 0;
    bool opened = false;
    for (int i = line; i < (int)lines.size(); ++i) {
        for (char ch : code_of(lines[i])) {
            if (ch == '{') depth++, opened = true;
            if (ch == '}') {
                depth--;
                if (opened && depth == 0) return i;
            }
        }
    }
    return -1;
}

}  // namespace

KernelSource parse_kernel_source(std::string path, std::vector<std::string> lines) {
    KernelSource s;
    s.path = std::move(path);
    s.lines = std::move(lines);
    for (int i = 0; i < (int)s.lines.size(); ++i) {
        if (code_of(s.lines[i]).find("__global__") != std::string::npos) {
            s.body_first = i;
            s.body_last = matching_brace(s.lines, i);
            break;
        }
    }
    if (s.body_first < 0 || s.body_last < 0) {
        s.body_first = 0;
        s.body_last = (int)s.lines.size() - 1;
    }
    for (int i = s.body_first; i <= s.body_last; ++i)
        if (code_of(s.lines[i]).find("__syncthreads()") != std::string::npos) s.barriers.push_back(i);
    if (!s.barriers.empty()) {
        for (int i = s.body_first; i < s.barriers.front(); ++i) {
            const std::string c = code_of(s.lines[i]);
            if (c.find("for (") == std::string::npos && c.find("while (") == std::string::npos) continue;
            if (c.find('{') == std::string::npos) continue;
            const int end = matching_brace(s.lines, i);
            if (end >= s.barriers.back()) {
                s.loop_first = i;
                s.loop_last = end;
            }
        }
    }
    return s;
}

KernelSource load_source_file(const std::string& rel, const std::string& exe_dir) {
    const auto p = find_source_file(rel, exe_dir);
    if (!p) {
        KernelSource s;
        s.error = "cannot find " + rel + " (set STENCIL_LAB_SOURCE_DIR to the repository root)";
        return s;
    }
    KernelSource s = read_kernel_source(*p);
    s.name = rel;  // where it lives in the repository, not where this machine keeps it
    return s;
}

KernelSource read_kernel_source(const std::string& path) {
    std::ifstream f(path);
    std::vector<std::string> lines;
    for (std::string line; std::getline(f, line);) lines.push_back(line);
    if (lines.empty()) {
        KernelSource s;
        s.path = s.name = path;
        s.error = "cannot read " + path;
        return s;
    }
    KernelSource s = parse_kernel_source(path, std::move(lines));
    s.name = path;
    return s;
}

KernelSource load_kernel_source(KernelId k, const std::string& exe_dir) {
    return load_source_file(version(k).source_file, exe_dir);
}

KernelSource load_textbook_source(KernelId k, const std::string& exe_dir) {
    return load_source_file(version(k).textbook_file, exe_dir);
}

bool same_source_file(const std::string& a, const std::string& b) {
    if (a.empty() || b.empty()) return false;
    auto ends_with = [](const std::string& s, const std::string& tail) {
        return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0 &&
               (s.size() == tail.size() || s[s.size() - tail.size() - 1] == '/');
    };
    return ends_with(a, b) || ends_with(b, a);
}

std::vector<LineRange> interval_lines(const KernelSource& s, int interval, int intervals) {
    if (s.lines.empty() || interval < 0) return {};
    const int n = (int)s.barriers.size();
    const int first = s.body_first, last = s.body_last;
    if (n == 0) return {{first, last}};
    const bool final = interval >= intervals - 1;
    if (s.loop_first < 0) {  // straight-line code: interval k ends at barrier k
        const int k = std::min(interval, n);
        const int a = k == 0 ? first : s.barriers[k - 1];
        const int b = (k < n && !final) ? s.barriers[k] : last;
        return {{a, b}};
    }
    // Barriers inside a loop: interval 0 reaches the first barrier; then they cycle.
    if (interval == 0) return {{first, s.barriers[0]}};
    const int from = s.barriers[(interval - 1) % n];
    if (final) return {{from, last}};
    const int to_index = interval % n;
    if (to_index != 0) return {{from, s.barriers[to_index]}};
    // Crosses the end of the loop: the rest of the body, then the loop head to the first barrier.
    return {{from, s.loop_last}, {s.loop_first, s.barriers[0]}};
}

}  // namespace stencil::viewer
