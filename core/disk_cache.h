// A small on-disk cache of byte strings under a key: what the lab compiles once and reuses in the
// next process (today NVRTC's PTX of the lab's kernels: backends/cpu/ptx/lab_ptx.cpp).
//
// It lives in core/ because it knows nothing of what it stores: a caller turns everything that
// affects the stored bytes into one key text and the result into one payload. That keeps the
// rules (names, bound, eviction, location) in one place that `stencil-lab cache` and the tests
// can use without NVRTC.
//
// Location: $STENCIL_LAB_CACHE_DIR, else $XDG_CACHE_HOME/stencil-lab, else ~/.cache/stencil-lab
// (the first that is set; a relative XDG_CACHE_HOME is invalid by the XDG spec and skipped), with
// one subfolder per kind ("ptx/"). A location that cannot be written turns the cache off with one
// note (DiskCache::note): a cache is never a reason to fail.
//
// Entries: one file per key, named by the SHA-256 of the key text (core/sha256.h), holding the key
// itself and the payload's SHA-256. A read is a hit only when the stored key equals the asked one
// byte for byte and the payload matches its digest, so a collision, a stale, truncated or corrupt
// entry is a miss, never wrong bytes. Writes go to a temporary file that is renamed (readers and
// concurrent writers in other processes see the old entry or the new one). A hit sets the entry's
// modification time to now (atime is unreliable: relatime, noatime mounts), and after each write
// the least recently used entries of the folder go until the total is at most the bound:
// $STENCIL_LAB_CACHE_MAX_MB MiB, 256 by default.
#pragma once
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stencil {

inline constexpr std::uintmax_t kDefaultCacheMaxBytes = 256ull << 20;

// Where the caches live, from the environment (nothing is created).
struct CacheRoot {
    std::filesystem::path path;  // empty when no variable names a place
    std::string source;          // "STENCIL_LAB_CACHE_DIR", "XDG_CACHE_HOME" or "HOME"
};
CacheRoot cache_root();

// The bound from $STENCIL_LAB_CACHE_MAX_MB (whole MiB, 0 .. 1048576), else kDefaultCacheMaxBytes.
// A malformed value keeps the default and says why in *note.
std::uintmax_t cache_max_bytes(std::string* note = nullptr);

// What a folder of entries holds.
struct CacheUsage {
    int entries = 0;
    std::uintmax_t bytes = 0;
};

class DiskCache {
public:
    // The cache of `kind` ("ptx") at cache_root()/kind with cache_max_bytes(): created if needed;
    // off (enabled() false, note() says why) when it cannot be written.
    static DiskCache for_kind(std::string_view kind);

    // The cache in `dir` itself (created if needed); "" is a cache that is off.
    explicit DiskCache(std::filesystem::path dir, std::uintmax_t max_bytes = kDefaultCacheMaxBytes);

    bool enabled() const { return !dir_.empty(); }
    const std::filesystem::path& dir() const { return dir_; }
    std::uintmax_t max_bytes() const { return max_bytes_; }
    // Why the cache is off, or a remark on its settings; "" when there is nothing to say.
    const std::string& note() const { return note_; }

    // The payload stored under `key`, or nullopt (no entry, another key, a damaged entry, off).
    std::optional<std::string> get(std::string_view key) const;
    // Stores `payload` under `key`, then evicts down to the bound. False when nothing was stored
    // (off, the folder went away, the disk is full, the payload alone exceeds the bound).
    bool put(std::string_view key, std::string_view payload) const;

    // The file an entry for `key` has ("" when off).
    std::string entry_path(std::string_view key) const;

    CacheUsage usage() const;
    // What the folder `dir` holds, read only (nothing is created): for `stencil-lab cache info`.
    static CacheUsage usage_of(const std::filesystem::path& dir);
    // Removes every entry (and temporary files of unfinished writes); returns what was removed.
    // Other files in the folder are left alone.
    CacheUsage clear() const;
    // Least recently used entries go until the folder holds at most max_bytes(); temporary files
    // older than an hour (a writer killed mid-write) go too.
    void evict() const;

private:
    std::filesystem::path dir_;
    std::uintmax_t max_bytes_;
    std::string note_;
};

// Whether a file name is one of this module's entries (64 hex digits, ".entry") or the temporary
// file of one being written: what `cache clear` may remove.
bool is_cache_entry_name(std::string_view filename);
bool is_cache_temp_name(std::string_view filename);

}  // namespace stencil
