// `stencil-lab cache info|clear [--json]`: where the compile cache lives (core/disk_cache.h), what
// it holds and its bound; `clear` removes its entries (only files named as entries: anything else
// a user keeps in the folder stays) and says how many and how much.
//
// The cache serves both backends (NVRTC's PTX is the same for each), so --backend is accepted, as
// by every command, and changes nothing.
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <iostream>

#include "cli/command.h"
#include "cli/report_run.h"
#include "core/disk_cache.h"
#include "core/error.h"

namespace stencil::cli {
namespace {

namespace fs = std::filesystem;

struct CacheArgs {
    std::string action;
    bool json = false;
    std::string backend = "auto";
};

// One folder per kind of entry ("ptx"), as they exist under the root now.
std::vector<fs::path> kind_folders(const fs::path& root) {
    std::vector<fs::path> out;
    std::error_code ec;
    for (fs::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
        std::error_code e;
        if (it->is_directory(e) && !e) out.push_back(it->path());
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::string where_text(const CacheRoot& root) {
    return fmt::format("{} (from {})", root.path.string(), root.source);
}

int cache_info(const CacheArgs& a, const CacheRoot& root, std::uintmax_t bound, const std::string& bound_note) {
    nlohmann::json j;
    j["location"] = root.path.empty() ? nlohmann::json(nullptr) : nlohmann::json(root.path.string());
    j["location_from"] = root.source.empty() ? nlohmann::json(nullptr) : nlohmann::json(root.source);
    j["bound_bytes"] = bound;
    std::string text;
    std::vector<std::string> notes;
    if (!bound_note.empty()) notes.push_back(bound_note);
    CacheUsage total;
    j["kinds"] = nlohmann::json::object();
    if (root.path.empty()) {
        notes.push_back("the compile cache is off: none of STENCIL_LAB_CACHE_DIR, XDG_CACHE_HOME, HOME is set");
        text += "compile cache: none (no location)\n";
    } else {
        std::error_code ec;
        const bool exists = fs::is_directory(root.path, ec);
        if (exists && access(root.path.c_str(), W_OK | X_OK) != 0)
            notes.push_back("the compile cache is off: " + root.path.string() + " cannot be written");
        text += fmt::format("compile cache: {}{}\n", where_text(root), exists ? "" : ", nothing cached yet");
        for (const fs::path& kind : kind_folders(root.path)) {
            const CacheUsage u = DiskCache::usage_of(kind);
            const std::string name = kind.filename().string();
            j["kinds"][name] = {{"entries", u.entries}, {"bytes", u.bytes}};
            text += fmt::format("  {}/: {} entr{}, {}\n", name, u.entries, u.entries == 1 ? "y" : "ies",
                                bytes_text(double(u.bytes)));
            total.entries += u.entries;
            total.bytes += u.bytes;
        }
    }
    j["entries"] = total.entries;
    j["bytes"] = total.bytes;
    j["notes"] = notes;
    text += fmt::format("  total {} entr{}, {}; bound {} per kind (least recently used go first; "
                        "STENCIL_LAB_CACHE_MAX_MB sets it)\n",
                        total.entries, total.entries == 1 ? "y" : "ies", bytes_text(double(total.bytes)),
                        bytes_text(double(bound)));
    for (const auto& n : notes) text += "  note: " + n + "\n";
    if (a.json) std::cout << j.dump(2) << "\n";
    else std::cout << text;
    return 0;
}

int cache_clear(const CacheArgs& a, const CacheRoot& root, std::uintmax_t bound) {
    if (root.path.empty())
        throw UserError("cache clear: there is no cache location (none of STENCIL_LAB_CACHE_DIR, XDG_CACHE_HOME, "
                        "HOME is set)");
    CacheUsage removed;
    for (const fs::path& kind : kind_folders(root.path)) {
        if (access(kind.c_str(), W_OK | X_OK) != 0)
            throw UserError(fmt::format("cache clear: {} cannot be written", kind.string()));
        const CacheUsage r = DiskCache(kind, bound).clear();
        removed.entries += r.entries;
        removed.bytes += r.bytes;
    }
    if (a.json) {
        std::cout << nlohmann::json{{"location", root.path.string()},
                                    {"removed_entries", removed.entries},
                                    {"removed_bytes", removed.bytes}}
                         .dump(2)
                  << "\n";
    } else {
        std::cout << fmt::format("removed {} entr{} ({}) from {}\n", removed.entries,
                                 removed.entries == 1 ? "y" : "ies", bytes_text(double(removed.bytes)),
                                 where_text(root));
    }
    return 0;
}

const Command cache_cmd("cache", 70, [](CLI::App& app) -> std::function<int()> {
    app.description("the compile cache: info (where, what, the bound) or clear (remove its entries)");
    auto a = std::make_shared<CacheArgs>();
    app.add_option("action", a->action, "info or clear")
        ->check(CLI::Validator(
            [](std::string& s) -> std::string {
                if (s == "info" || s == "clear") return {};
                return fmt::format("action must be info or clear (got '{}')", s);
            },
            "info|clear"));
    app.add_flag("--json", a->json, "print a JSON object");
    add_backend_option(app, a->backend, "accepted by every command; the cache serves both backends");
    add_problem_option(app);
    // A missing action, said as the rule (CLI11's own words would be "action is required").
    app.parse_complete_callback([a] {
        if (a->action.empty()) throw CLI::ValidationError("action", "action is required: cache info or cache clear");
    });
    return [a] {
        const CacheRoot root = cache_root();
        std::string bound_note;
        const std::uintmax_t bound = cache_max_bytes(&bound_note);
        return a->action == "info" ? cache_info(*a, root, bound, bound_note) : cache_clear(*a, root, bound);
    };
});

}  // namespace
}  // namespace stencil::cli
