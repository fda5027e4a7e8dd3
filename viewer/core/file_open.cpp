#include "viewer/core/file_open.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

namespace fs = std::filesystem;

namespace stencil::viewer {

const char* to_string(OpenKind k) { return k == OpenKind::kernel ? "kernel" : "results"; }

std::vector<std::string> open_extensions(OpenKind k) {
    return k == OpenKind::kernel ? std::vector<std::string>{".cu"} : std::vector<std::string>{".json", ".jsonl"};
}

namespace {
bool has_extension(const fs::path& p, OpenKind k) {
    const auto ext = open_extensions(k);
    return std::find(ext.begin(), ext.end(), p.extension().string()) != ext.end();
}
}  // namespace

FolderListing list_folder(const std::string& folder, OpenKind kind) {
    FolderListing l;
    std::error_code ec;
    const fs::path at = fs::weakly_canonical(fs::absolute(folder.empty() ? "." : folder, ec), ec);
    l.folder = at.string();
    std::vector<FolderEntry> folders, files;
    fs::directory_iterator it(at, fs::directory_options::skip_permission_denied, ec);
    if (ec) {
        l.error = fmt::format("cannot list {}: {}", l.folder, ec.message());
        return l;
    }
    for (const auto& e : it) {
        const std::string name = e.path().filename().string();
        if (name.empty() || name[0] == '.') continue;
        std::error_code ec2;
        if (e.is_directory(ec2)) folders.push_back({name, true});
        else if (e.is_regular_file(ec2) && has_extension(e.path(), kind)) files.push_back({name, false});
    }
    auto by_name = [](const FolderEntry& a, const FolderEntry& b) { return a.name < b.name; };
    std::sort(folders.begin(), folders.end(), by_name);
    std::sort(files.begin(), files.end(), by_name);
    if (at.has_parent_path() && at.parent_path() != at) l.entries.push_back({"..", true});
    l.entries.insert(l.entries.end(), folders.begin(), folders.end());
    l.entries.insert(l.entries.end(), files.begin(), files.end());
    return l;
}

std::string entry_path(const std::string& folder, const FolderEntry& e) {
    if (e.name == "..") return fs::path(folder).parent_path().string();
    return (fs::path(folder) / e.name).string();
}

std::string open_error(const std::string& path, OpenKind kind) {
    if (path.empty()) return "no file chosen";
    std::error_code ec;
    if (!fs::exists(path, ec)) return fmt::format("{}: no such file", path);
    if (fs::is_directory(path, ec)) return fmt::format("{} is a folder", path);
    if (!has_extension(path, kind)) {
        const auto ext = open_extensions(kind);
        std::string list;
        for (const auto& e : ext) list += (list.empty() ? "" : " or ") + e;
        return fmt::format("{}: a {} file is {}", path, to_string(kind), list);
    }
    return "";
}

std::optional<OpenRequest> parse_open_request(const std::string& spec, std::string* why) {
    const auto colon = spec.find(':');
    const std::string what = spec.substr(0, colon);
    OpenRequest r;
    if (what == "kernel") r.kind = OpenKind::kernel;
    else if (what == "results") r.kind = OpenKind::results;
    else {
        *why = fmt::format("'{}' is not kernel[:FILE.cu] or results[:FILE.json]", spec);
        return std::nullopt;
    }
    if (colon != std::string::npos) {
        r.path = spec.substr(colon + 1);
        if (const std::string e = open_error(r.path, r.kind); !e.empty()) {
            *why = e;
            return std::nullopt;
        }
    }
    return r;
}

}  // namespace stencil::viewer
