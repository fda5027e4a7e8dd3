// The on-disk cache (disk_cache.h).
//
// An entry file: one header line, then the key's bytes, then the payload's bytes, nothing after:
//   "stencil-lab cache 1 <key bytes> <payload bytes> <payload sha256>\n" KEY PAYLOAD
// The sizes make a truncated file visibly short, the digest makes a changed byte visible, and the
// key is compared whole (the file name is only its digest).
#include "core/disk_cache.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

#include "core/sha256.h"

namespace stencil {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kMagic = "stencil-lab cache 1 ";
constexpr std::string_view kEntryExt = ".entry";
constexpr std::string_view kTempMark = ".tmp.";
constexpr std::uintmax_t kMaxMiB = 1ull << 20;  // 1 TiB: far past any disk this runs on

bool all_hex(std::string_view s) {
    return std::all_of(s.begin(), s.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

// The files lab_ptx.cpp wrote before this module (16 hex digits of FNV-1a, ".ptxc"): counted,
// evicted and cleared like entries, never read, so that an upgrade leaves nothing unbounded.
bool is_legacy_entry_name(std::string_view name) {
    return name.size() == 16 + 5 && name.ends_with(".ptxc") && all_hex(name.substr(0, 16));
}

std::optional<std::string> read_file(const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    if (!f) return std::nullopt;
    std::string data((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    if (f.bad()) return std::nullopt;
    return data;
}

// A decimal size with nothing else; nullopt otherwise.
std::optional<std::size_t> parse_size(std::string_view s) {
    if (s.empty() || s.size() > 19) return std::nullopt;
    std::size_t v = 0;
    for (char c : s) {
        if (c < '0' || c > '9') return std::nullopt;
        v = v * 10 + std::size_t(c - '0');
    }
    return v;
}

struct Listed {
    fs::path path;
    fs::file_time_type used;
    std::uintmax_t bytes;
    bool temp;
};

// The folder's entries and temporary files (anything else is not ours and is not listed).
std::vector<Listed> list(const fs::path& dir) {
    std::vector<Listed> out;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        const bool temp = is_cache_temp_name(name);
        if (!temp && !is_cache_entry_name(name)) continue;
        std::error_code e1, e2, e3;
        if (!it->is_regular_file(e3) || e3) continue;
        const auto used = fs::last_write_time(it->path(), e1);
        const auto bytes = fs::file_size(it->path(), e2);
        if (e1 || e2) continue;  // gone meanwhile (another process evicted it)
        out.push_back({it->path(), used, bytes, temp});
    }
    return out;
}

// Creates `dir` and checks that a file can be made in it (permissions alone do not tell: root,
// read-only mounts, /proc). "" when it can; otherwise why not.
std::string unwritable(const fs::path& dir) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) return ec.message();
    if (!fs::is_directory(dir, ec)) return "not a folder";
    if (access(dir.c_str(), W_OK | X_OK) != 0) return std::strerror(errno);
    return "";
}

}  // namespace

bool is_cache_entry_name(std::string_view name) {
    if (is_legacy_entry_name(name)) return true;
    return name.size() == 64 + kEntryExt.size() && name.ends_with(kEntryExt) && all_hex(name.substr(0, 64));
}

bool is_cache_temp_name(std::string_view name) {
    const std::size_t mark = name.find(kTempMark);
    return mark != std::string_view::npos && is_cache_entry_name(name.substr(0, mark));
}

CacheRoot cache_root() {
    if (const char* d = std::getenv("STENCIL_LAB_CACHE_DIR"); d && *d)
        return {fs::absolute(d), "STENCIL_LAB_CACHE_DIR"};
    if (const char* x = std::getenv("XDG_CACHE_HOME"); x && x[0] == '/')
        return {fs::path(x) / "stencil-lab", "XDG_CACHE_HOME"};
    if (const char* h = std::getenv("HOME"); h && h[0] == '/')
        return {fs::path(h) / ".cache" / "stencil-lab", "HOME"};
    return {};
}

std::uintmax_t cache_max_bytes(std::string* note) {
    const char* v = std::getenv("STENCIL_LAB_CACHE_MAX_MB");
    if (!v || !*v) return kDefaultCacheMaxBytes;
    const auto mib = parse_size(v);
    if (!mib || *mib > kMaxMiB) {
        if (note)
            *note = "STENCIL_LAB_CACHE_MAX_MB must be a whole number of MiB between 0 and " +
                    std::to_string(kMaxMiB) + " (got '" + v + "'); the bound stays " +
                    std::to_string(kDefaultCacheMaxBytes >> 20) + " MiB";
        return kDefaultCacheMaxBytes;
    }
    return std::uintmax_t(*mib) << 20;
}

DiskCache DiskCache::for_kind(std::string_view kind) {
    std::string bound_note;
    const std::uintmax_t bound = cache_max_bytes(&bound_note);
    const CacheRoot root = cache_root();
    DiskCache c("", bound);
    if (root.path.empty()) {
        c.note_ = "the compile cache is off: none of STENCIL_LAB_CACHE_DIR, XDG_CACHE_HOME, HOME is set";
        return c;
    }
    const fs::path dir = root.path / kind;
    if (const std::string why = unwritable(dir); !why.empty()) {
        c.note_ = "the compile cache is off: " + dir.string() + " cannot be written (" + why + ")";
        return c;
    }
    c.dir_ = dir;
    c.note_ = bound_note;
    return c;
}

DiskCache::DiskCache(fs::path dir, std::uintmax_t max_bytes) : max_bytes_(max_bytes) {
    if (dir.empty()) return;
    if (const std::string why = unwritable(dir); !why.empty()) {
        note_ = "the compile cache is off: " + dir.string() + " cannot be written (" + why + ")";
        return;
    }
    dir_ = std::move(dir);
}

std::string DiskCache::entry_path(std::string_view key) const {
    if (!enabled()) return "";
    return (dir_ / (sha256_hex(key) + std::string(kEntryExt))).string();
}

std::optional<std::string> DiskCache::get(std::string_view key) const {
    if (!enabled()) return std::nullopt;
    const std::string path = entry_path(key);
    const auto data = read_file(path);
    if (!data) return std::nullopt;
    const std::string_view d(*data);
    const std::size_t nl = d.find('\n');
    if (!d.starts_with(kMagic) || nl == std::string_view::npos) return std::nullopt;
    // "<key bytes> <payload bytes> <sha256>"
    std::istringstream header(std::string(d.substr(kMagic.size(), nl - kMagic.size())));
    std::string key_size_text, payload_size_text, digest, extra;
    if (!(header >> key_size_text >> payload_size_text >> digest) || (header >> extra)) return std::nullopt;
    const auto key_size = parse_size(key_size_text), payload_size = parse_size(payload_size_text);
    const std::size_t body = d.size() - nl - 1;
    if (!key_size || !payload_size || *key_size > body || body - *key_size != *payload_size) return std::nullopt;
    if (d.substr(nl + 1, *key_size) != key) return std::nullopt;
    std::string payload(d.substr(nl + 1 + *key_size));
    if (sha256_hex(payload) != digest) return std::nullopt;
    std::error_code ec;
    fs::last_write_time(path, fs::file_time_type::clock::now(), ec);  // recently used
    return payload;
}

bool DiskCache::put(std::string_view key, std::string_view payload) const {
    if (!enabled()) return false;
    std::string data(kMagic);
    data += std::to_string(key.size()) + " " + std::to_string(payload.size()) + " " + sha256_hex(payload) + "\n";
    data += key;
    data += payload;
    if (data.size() > max_bytes_) return false;  // it would evict itself

    const std::string path = entry_path(key);
    static std::atomic<int> counter{0};
    const std::string tmp = path + std::string(kTempMark) + std::to_string(getpid()) + "." + std::to_string(counter++);
    std::error_code ec;
    {
        std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
        f.write(data.data(), static_cast<std::streamsize>(data.size()));
        f.close();
        if (!f) {
            fs::remove(tmp, ec);
            return false;
        }
    }
    fs::rename(tmp, path, ec);  // atomic: a reader sees the old entry or the new one, never half
    if (ec) {
        fs::remove(tmp, ec);
        return false;
    }
    evict();
    return fs::exists(path, ec);
}

CacheUsage DiskCache::usage() const { return enabled() ? usage_of(dir_) : CacheUsage{}; }

CacheUsage DiskCache::usage_of(const fs::path& dir) {
    CacheUsage u;
    for (const auto& e : list(dir))
        if (!e.temp) {
            ++u.entries;
            u.bytes += e.bytes;
        }
    return u;
}

CacheUsage DiskCache::clear() const {
    CacheUsage removed;
    if (!enabled()) return removed;
    for (const auto& e : list(dir_)) {
        std::error_code ec;
        if (!fs::remove(e.path, ec) || ec) continue;
        if (e.temp) continue;
        ++removed.entries;
        removed.bytes += e.bytes;
    }
    return removed;
}

void DiskCache::evict() const {
    if (!enabled()) return;
    std::vector<Listed> entries;
    std::uintmax_t total = 0;
    const auto now = fs::file_time_type::clock::now();
    std::error_code ec;
    for (auto& e : list(dir_)) {
        if (e.temp) {
            if (now - e.used > std::chrono::hours(1)) fs::remove(e.path, ec);
            continue;
        }
        total += e.bytes;
        entries.push_back(std::move(e));
    }
    std::sort(entries.begin(), entries.end(), [](const Listed& a, const Listed& b) { return a.used < b.used; });
    for (const auto& e : entries) {
        if (total <= max_bytes_) break;
        // Counted as gone even when another process removed it first.
        fs::remove(e.path, ec);
        total -= e.bytes;
    }
}

}  // namespace stencil
