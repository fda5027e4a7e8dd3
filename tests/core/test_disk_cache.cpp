// The on-disk cache (core/disk_cache.h): hits, misses for another key or a damaged entry, the
// size bound and its LRU order, the location from the environment, and a location that cannot be
// written (no cache, no error).
#include <catch2/catch.hpp>

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "core/disk_cache.h"
#include "core/sha256.h"

using namespace stencil;
namespace fs = std::filesystem;

namespace {

fs::path fresh_dir(const std::string& name) {
    const fs::path d = fs::temp_directory_path() / ("stencil_disk_cache_" + name + "_" + std::to_string(getpid()));
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

// Sets (or, with nullopt, unsets) an environment variable for one scope.
struct ScopedEnv {
    std::string name;
    std::optional<std::string> saved;
    ScopedEnv(std::string n, std::optional<std::string> value) : name(std::move(n)) {
        if (const char* v = std::getenv(name.c_str())) saved = v;
        if (value) setenv(name.c_str(), value->c_str(), 1);
        else unsetenv(name.c_str());
    }
    ~ScopedEnv() {
        if (saved) setenv(name.c_str(), saved->c_str(), 1);
        else unsetenv(name.c_str());
    }
};

void set_age(const fs::path& p, std::chrono::seconds age) {
    fs::last_write_time(p, fs::file_time_type::clock::now() - age);
}

std::string slurp(const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

}  // namespace

TEST_CASE("a stored payload comes back for its key, from any cache object on the folder", "[cache]") {
    const fs::path dir = fresh_dir("hit");
    const DiskCache cache(dir);
    REQUIRE(cache.enabled());
    const std::string key = "nvrtc 13.0\noption -lineinfo\nsource ...";
    const std::string payload = std::string("PTX with a NUL \0 inside", 23) + std::string(5000, 'x');
    CHECK_FALSE(cache.get(key));
    REQUIRE(cache.put(key, payload));
    // The file is named by the key's SHA-256.
    CHECK(cache.entry_path(key) == (dir / (sha256_hex(key) + ".entry")).string());
    CHECK(fs::exists(cache.entry_path(key)));
    CHECK(cache.get(key) == payload);
    CHECK(DiskCache(dir).get(key) == payload);
    // Put again (another process compiled the same): still one entry.
    REQUIRE(cache.put(key, payload));
    CHECK(cache.usage().entries == 1);
    CHECK(cache.usage().bytes == fs::file_size(cache.entry_path(key)));
    // No temporary file stays behind.
    for (const auto& e : fs::directory_iterator(dir)) CHECK(e.path().extension() == ".entry");
    fs::remove_all(dir);
}

TEST_CASE("another key's entry under this key's name is a miss", "[cache]") {
    // As a hash collision would look: the stored key is compared in full.
    const fs::path dir = fresh_dir("mismatch");
    const DiskCache cache(dir);
    REQUIRE(cache.put("key A", "payload A"));
    fs::copy_file(cache.entry_path("key A"), cache.entry_path("key B"));
    CHECK_FALSE(cache.get("key B"));
    CHECK(cache.get("key A") == "payload A");
    // A key that only extends the other one is another key too.
    fs::copy_file(cache.entry_path("key A"), cache.entry_path("key A2"));
    CHECK_FALSE(cache.get("key A2"));
    fs::remove_all(dir);
}

TEST_CASE("a truncated or corrupt entry is a miss, and a put repairs it", "[cache]") {
    const fs::path dir = fresh_dir("corrupt");
    const DiskCache cache(dir);
    const std::string key = "the key", payload(4000, 'p');
    REQUIRE(cache.put(key, payload));
    const fs::path path = cache.entry_path(key);
    const std::string good = slurp(path);
    const std::size_t payload_at = good.size() - payload.size();

    struct Damage {
        const char* what;
        std::string (*apply)(std::string entry, std::size_t payload_at);
    };
    const Damage d = GENERATE(
        Damage{"cut in half", [](std::string s, std::size_t) { return s.substr(0, s.size() / 2); }},
        Damage{"one byte short", [](std::string s, std::size_t) { return s.substr(0, s.size() - 1); }},
        Damage{"empty", [](std::string, std::size_t) { return std::string(); }},
        Damage{"a byte of the payload changed", [](std::string s, std::size_t at) { s[at + 10] ^= 1; return s; }},
        Damage{"a byte of the key changed", [](std::string s, std::size_t at) { s[at - 2] ^= 1; return s; }},
        Damage{"bytes after the payload", [](std::string s, std::size_t) { return s + "\n"; }},
        Damage{"another format's header", [](std::string s, std::size_t) { s[18] = '9'; return s; }},
        Damage{"a size that is not a number", [](std::string s, std::size_t) { s[20] = 'x'; return s; }});
    CAPTURE(d.what);
    std::ofstream(path, std::ios::binary | std::ios::trunc) << d.apply(good, payload_at);
    CHECK_FALSE(cache.get(key));
    REQUIRE(cache.put(key, payload));
    CHECK(cache.get(key) == payload);
    fs::remove_all(dir);
}

TEST_CASE("past the bound the least recently used entries go, and the total stays under it", "[cache]") {
    const fs::path dir = fresh_dir("bound");
    const std::uintmax_t bound = 10000;
    const DiskCache cache(dir, bound);
    const std::string payload(2900, 'e');  // about 3000 bytes an entry: three fit, four do not
    for (int i = 0; i < 3; ++i) {
        REQUIRE(cache.put("entry " + std::to_string(i), payload));
        set_age(cache.entry_path("entry " + std::to_string(i)), std::chrono::hours(10 - i));  // 0 is oldest
    }
    REQUIRE(cache.usage().entries == 3);
    // Entry 0 is used: now 1 is the least recently used.
    REQUIRE(cache.get("entry 0"));
    REQUIRE(cache.put("entry 3", payload));
    CHECK(cache.get("entry 0"));
    CHECK_FALSE(fs::exists(cache.entry_path("entry 1")));
    CHECK(cache.get("entry 2"));
    CHECK(cache.get("entry 3"));
    CHECK(cache.usage().bytes <= bound);
    // Many more: never over the bound after a put.
    std::uintmax_t worst = 0;
    for (int i = 4; i < 20; ++i) {
        REQUIRE(cache.put("entry " + std::to_string(i), payload));
        worst = std::max(worst, cache.usage().bytes);
    }
    CHECK(worst <= bound);
    CHECK(cache.get("entry 19"));
    // A payload larger than the bound is not stored (it would evict everything, itself too).
    CHECK_FALSE(cache.put("huge", std::string(bound, 'h')));
    CHECK_FALSE(fs::exists(cache.entry_path("huge")));
    CHECK(cache.get("entry 19"));
    fs::remove_all(dir);
}

TEST_CASE("eviction counts only entries and drops stale temporary files", "[cache]") {
    const fs::path dir = fresh_dir("temp");
    const DiskCache cache(dir, 1 << 20);
    REQUIRE(cache.put("k", "v"));
    const std::string entry = fs::path(cache.entry_path("k")).filename().string();
    const fs::path stale = dir / (entry + ".tmp.123.0"), young = dir / (entry + ".tmp.124.0");
    std::ofstream(stale) << "half";
    std::ofstream(young) << "half";
    set_age(stale, std::chrono::hours(2));
    const fs::path foreign = dir / "README.txt";
    std::ofstream(foreign) << std::string(3 << 20, 'r');  // bigger than the bound: not ours, not counted
    REQUIRE(cache.put("k2", "v2"));
    CHECK_FALSE(fs::exists(stale));
    CHECK(fs::exists(young));  // perhaps a writer at work
    CHECK(fs::exists(foreign));
    CHECK(cache.get("k") == "v");
    CHECK(cache.usage().entries == 2);
    fs::remove_all(dir);
}

TEST_CASE("clear removes the entries and nothing else, and says how many and how much", "[cache]") {
    const fs::path dir = fresh_dir("clear");
    const DiskCache cache(dir);
    REQUIRE(cache.put("a", std::string(100, 'a')));
    REQUIRE(cache.put("b", std::string(200, 'b')));
    const std::uintmax_t bytes = cache.usage().bytes;
    std::ofstream(dir / "notes.txt") << "mine";
    std::ofstream(dir / (std::string(64, 'a') + ".txt")) << "mine too";  // hex name, not an entry
    std::ofstream(dir / (std::string(63, 'a') + ".entry")) << "too short a name";
    const CacheUsage removed = cache.clear();
    CHECK(removed.entries == 2);
    CHECK(removed.bytes == bytes);
    CHECK(cache.usage().entries == 0);
    CHECK_FALSE(cache.get("a"));
    CHECK(fs::exists(dir / "notes.txt"));
    CHECK(fs::exists(dir / (std::string(64, 'a') + ".txt")));
    CHECK(fs::exists(dir / (std::string(63, 'a') + ".entry")));
    CHECK(cache.clear().entries == 0);
    fs::remove_all(dir);
}

TEST_CASE("entry names: 64 hex digits and .entry, their temporaries, the old PTX cache's files", "[cache]") {
    CHECK(is_cache_entry_name(std::string(64, 'f') + ".entry"));
    CHECK_FALSE(is_cache_entry_name(std::string(64, 'F') + ".entry"));
    CHECK_FALSE(is_cache_entry_name(std::string(64, 'g') + ".entry"));
    CHECK_FALSE(is_cache_entry_name(std::string(65, 'f') + ".entry"));
    CHECK_FALSE(is_cache_entry_name(".entry"));
    CHECK(is_cache_entry_name("0123456789abcdef.ptxc"));  // lab_ptx's own files before this module
    CHECK_FALSE(is_cache_entry_name("0123456789abcdef.ptx"));
    CHECK(is_cache_temp_name(std::string(64, '0') + ".entry.tmp.77.3"));
    CHECK_FALSE(is_cache_temp_name("notes.tmp.1"));
}

TEST_CASE("the location: STENCIL_LAB_CACHE_DIR, else XDG_CACHE_HOME/stencil-lab, else ~/.cache", "[cache]") {
    const fs::path dir = fresh_dir("where");
    {
        ScopedEnv own("STENCIL_LAB_CACHE_DIR", std::nullopt), xdg("XDG_CACHE_HOME", (dir / "xdg").string()),
            home("HOME", (dir / "home").string());
        CHECK(cache_root().path == dir / "xdg" / "stencil-lab");
        CHECK(cache_root().source == "XDG_CACHE_HOME");
        const DiskCache c = DiskCache::for_kind("ptx");
        REQUIRE(c.enabled());
        CHECK(c.dir() == dir / "xdg" / "stencil-lab" / "ptx");
        CHECK(fs::is_directory(dir / "xdg" / "stencil-lab" / "ptx"));
        CHECK(c.put("k", "v"));
        CHECK(fs::exists(dir / "xdg" / "stencil-lab" / "ptx" / (sha256_hex("k") + ".entry")));
    }
    {
        // The XDG spec: a relative XDG_CACHE_HOME is invalid and ignored.
        ScopedEnv own("STENCIL_LAB_CACHE_DIR", std::nullopt), xdg("XDG_CACHE_HOME", "relative/cache"),
            home("HOME", (dir / "home").string());
        CHECK(cache_root().path == dir / "home" / ".cache" / "stencil-lab");
        CHECK(cache_root().source == "HOME");
    }
    {
        ScopedEnv own("STENCIL_LAB_CACHE_DIR", (dir / "own").string()),
            xdg("XDG_CACHE_HOME", (dir / "xdg").string());
        CHECK(cache_root().path == dir / "own");
        CHECK(DiskCache::for_kind("ptx").dir() == dir / "own" / "ptx");
    }
    {
        ScopedEnv own("STENCIL_LAB_CACHE_DIR", std::nullopt), xdg("XDG_CACHE_HOME", std::nullopt),
            home("HOME", std::nullopt);
        CHECK(cache_root().path.empty());
        const DiskCache c = DiskCache::for_kind("ptx");
        CHECK_FALSE(c.enabled());
        CHECK_THAT(c.note(), Catch::Contains("none of STENCIL_LAB_CACHE_DIR, XDG_CACHE_HOME, HOME is set"));
    }
    fs::remove_all(dir);
}

TEST_CASE("the bound comes from STENCIL_LAB_CACHE_MAX_MB; a bad value keeps 256 MiB with a note", "[cache]") {
    {
        ScopedEnv bound("STENCIL_LAB_CACHE_MAX_MB", std::nullopt);
        CHECK(cache_max_bytes() == 256ull << 20);
    }
    {
        ScopedEnv bound("STENCIL_LAB_CACHE_MAX_MB", "3");
        CHECK(cache_max_bytes() == 3ull << 20);
        const fs::path dir = fresh_dir("bound-env");
        ScopedEnv own("STENCIL_LAB_CACHE_DIR", dir.string());
        const DiskCache c = DiskCache::for_kind("ptx");
        CHECK(c.max_bytes() == 3ull << 20);
        CHECK(c.note().empty());
        fs::remove_all(dir);
    }
    for (const char* bad : {"-1", "lots", "1.5", "99999999999999999999", "2000000"}) {
        CAPTURE(bad);
        ScopedEnv bound("STENCIL_LAB_CACHE_MAX_MB", bad);
        std::string note;
        CHECK(cache_max_bytes(&note) == kDefaultCacheMaxBytes);
        CHECK_THAT(note, Catch::Contains("STENCIL_LAB_CACHE_MAX_MB must be a whole number of MiB") &&
                             Catch::Contains(bad));
    }
}

TEST_CASE("a location that cannot be written is no cache, with a note, and no error", "[cache]") {
    const fs::path dir = fresh_dir("unwritable");
    std::ofstream(dir / "a-file") << "x";
    for (const fs::path& where : {fs::path("/proc/stencil-lab-cache"), dir / "a-file"}) {
        CAPTURE(where);
        ScopedEnv own("STENCIL_LAB_CACHE_DIR", where.string());
        DiskCache c = DiskCache::for_kind("ptx");
        CHECK_FALSE(c.enabled());
        CHECK_THAT(c.note(), Catch::Contains("the compile cache is off") && Catch::Contains(where.string()));
        CHECK_NOTHROW(c.get("k"));
        CHECK_FALSE(c.get("k"));
        CHECK_FALSE(c.put("k", "v"));
        CHECK(c.usage().entries == 0);
        CHECK(c.clear().entries == 0);
        CHECK(c.entry_path("k").empty());
        // The same through the folder constructor.
        CHECK_FALSE(DiskCache(where / "ptx").enabled());
    }
    CHECK_FALSE(DiskCache("").enabled());
    fs::remove_all(dir);
}
