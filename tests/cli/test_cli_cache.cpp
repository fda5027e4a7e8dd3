// `stencil-lab cache info|clear`: the location from the environment, the entries a run leaves
// there, the bound, and a clear that removes the entries and nothing else. No GPU needed.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "run_cli.h"

using namespace cli_test;

namespace {

// Sets (or, with nullopt, unsets) an environment variable for one scope; the binary inherits it.
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

fs::path fresh_dir(const std::string& name) {
    const fs::path d = fs::temp_directory_path() / ("stencil_cli_cache_" + name + "_" + std::to_string(::getpid()));
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

nlohmann::json json_of(const std::string& args) {
    const Result r = run(args);
    CAPTURE(args, r.code, r.err);
    REQUIRE(r.code == 0);
    return nlohmann::json::parse(r.out);
}

}  // namespace

TEST_CASE("cache: a run fills it, info counts it, clear empties it and leaves other files", "[cli][cache]") {
    const fs::path dir = fresh_dir("fill");
    ScopedEnv own("STENCIL_LAB_CACHE_DIR", dir.string()), bound("STENCIL_LAB_CACHE_MAX_MB", std::nullopt);

    auto info = json_of("cache info --json");
    CHECK(info["location"] == dir.string());
    CHECK(info["location_from"] == "STENCIL_LAB_CACHE_DIR");
    CHECK(info["entries"] == 0);
    CHECK(info["bound_bytes"] == 256ull << 20);

    // The CPU backend compiles the naive kernel's family with NVRTC and stores it.
    const Result r = run("run --kernel naive --size 8 --backend cpu --no-time");
    CAPTURE(r.err);
    REQUIRE(r.code == 0);
    std::uintmax_t on_disk = 0;
    int entries = 0;
    for (const auto& e : fs::directory_iterator(dir / "ptx")) {
        CHECK(e.path().extension() == ".entry");
        on_disk += fs::file_size(e.path());
        ++entries;
    }
    REQUIRE(entries >= 1);
    std::ofstream(dir / "ptx" / "my-notes.txt") << "not an entry";

    info = json_of("cache info --json");
    CHECK(info["entries"] == entries);
    CHECK(info["bytes"] == on_disk);
    CHECK(info["kinds"]["ptx"]["entries"] == entries);
    const Result text = run("cache info");
    CHECK(contains(text.out, "compile cache: " + dir.string() + " (from STENCIL_LAB_CACHE_DIR)"));
    CHECK(contains(text.out, "ptx/: " + std::to_string(entries) + " entr"));
    CHECK(contains(text.out, "bound 256.0 MiB per kind"));

    const auto cleared = json_of("cache clear --json");
    CHECK(cleared["removed_entries"] == entries);
    CHECK(cleared["removed_bytes"] == on_disk);
    CHECK(fs::exists(dir / "ptx" / "my-notes.txt"));
    CHECK(json_of("cache info --json")["entries"] == 0);
    const Result again = run("cache clear");
    CHECK(again.code == 0);
    CHECK(contains(again.out, "removed 0 entries (0 B) from " + dir.string()));
    fs::remove_all(dir);
}

TEST_CASE("cache info: XDG_CACHE_HOME and STENCIL_LAB_CACHE_MAX_MB are respected", "[cli][cache]") {
    const fs::path dir = fresh_dir("xdg");
    ScopedEnv own("STENCIL_LAB_CACHE_DIR", std::nullopt), xdg("XDG_CACHE_HOME", dir.string()),
        bound("STENCIL_LAB_CACHE_MAX_MB", "3");
    const auto info = json_of("cache info --json");
    CHECK(info["location"] == (dir / "stencil-lab").string());
    CHECK(info["location_from"] == "XDG_CACHE_HOME");
    CHECK(info["bound_bytes"] == 3ull << 20);
    CHECK(info["notes"].empty());
    {
        ScopedEnv bad("STENCIL_LAB_CACHE_MAX_MB", "lots");
        const auto j = json_of("cache info --json");
        CHECK(j["bound_bytes"] == 256ull << 20);
        REQUIRE(j["notes"].size() == 1);
        CHECK(contains(j["notes"][0].get<std::string>(), "STENCIL_LAB_CACHE_MAX_MB must be a whole number"));
    }
    fs::remove_all(dir);
}

TEST_CASE("cache: a location that cannot be written is no cache, and no run fails for it", "[cli][cache]") {
    ScopedEnv own("STENCIL_LAB_CACHE_DIR", "/proc/stencil-lab-cache");
    const auto info = json_of("cache info --json");
    CHECK(info["entries"] == 0);
    CHECK(json_of("cache clear --json")["removed_entries"] == 0);
    // A run compiles without the cache and says so in one note on stderr.
    const Result r = run("run --kernel naive --size 8 --backend cpu --no-time");
    CAPTURE(r.err);
    CHECK(r.code == 0);
    CHECK(r.err_lines() == 1);
    CHECK(contains(r.err, "note: the compile cache is off: /proc/stencil-lab-cache/ptx cannot be written"));
}
