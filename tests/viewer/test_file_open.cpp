// File > Open's plain half (viewer/core/file_open.h): a folder's sub-folders and the kind's files,
// sorted, hidden ones left out; why a path cannot be opened; the command line's request.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "viewer/core/file_open.h"

using namespace stencil::viewer;
namespace fs = std::filesystem;

namespace {
std::string src(const std::string& rel) { return std::string(STENCIL_LAB_SOURCE_DIR "/") + rel; }
std::vector<std::string> names(const FolderListing& l) {
    std::vector<std::string> v;
    for (const auto& e : l.entries) v.push_back(e.folder ? e.name + "/" : e.name);
    return v;
}
}  // namespace

TEST_CASE("file open: a folder lists '..', its sub-folders, then the kind's files, hidden ones not", "[viewer][open]") {
    const fs::path dir = fs::temp_directory_path() / ("stencil-open-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir / "b_folder");
    fs::create_directories(dir / "a_folder");
    fs::create_directories(dir / ".hidden_folder");
    for (const char* f : {"z.cu", "a.cu", "notes.txt", ".hidden.cu", "run.json", "peers.jsonl", "k.cuh"})
        std::ofstream(dir / f) << "x";
    const FolderListing k = list_folder(dir.string(), OpenKind::kernel);
    const FolderListing r = list_folder(dir.string(), OpenKind::results);
    CAPTURE(names(k), names(r), k.error);
    REQUIRE((k.error.empty() && names(k) == std::vector<std::string>{"../", "a_folder/", "b_folder/", "a.cu", "z.cu"} &&
             names(r) == std::vector<std::string>{"../", "a_folder/", "b_folder/", "peers.jsonl", "run.json"} &&
             k.folder == fs::canonical(dir).string()));
    // A click: into a folder, up to the parent, or a file's path.
    REQUIRE((entry_path(k.folder, k.entries[0]) == fs::canonical(dir).parent_path().string() &&
             entry_path(k.folder, k.entries[3]) == (fs::canonical(dir) / "a.cu").string()));
    fs::remove_all(dir);
    const FolderListing gone = list_folder(dir.string(), OpenKind::kernel);
    REQUIRE((gone.entries.empty() && gone.error.find("cannot list") != std::string::npos));
}

TEST_CASE("file open: the repository's own folders", "[viewer][open]") {
    const auto race = names(list_folder(src("exercises/find-the-race"), OpenKind::kernel));
    const auto results = names(list_folder(src("docs/results"), OpenKind::results));
    CAPTURE(race, results);
    REQUIRE((std::count(race.begin(), race.end(), "stencil.cu") == 1 &&
             std::count(results.begin(), results.end(), "h100-steps-512.jsonl") == 1 &&
             std::count(results.begin(), results.end(), "h100-sweep-256-f32/") == 1));
}

TEST_CASE("file open: why a path cannot be opened, in words", "[viewer][open]") {
    const std::string race = src("exercises/find-the-race/stencil.cu");
    const auto [path, kind, says] = GENERATE_COPY(table<std::string, OpenKind, std::string>({
        {race, OpenKind::kernel, ""},
        {src("docs/results/h100-steps-512.jsonl"), OpenKind::results, ""},
        {race, OpenKind::results, ".json or .jsonl"},
        {src("docs/results/h100-steps-512.jsonl"), OpenKind::kernel, "a kernel file is .cu"},
        {src("exercises"), OpenKind::kernel, "is a folder"},
        {src("no/such.cu"), OpenKind::kernel, "no such file"},
        {"", OpenKind::kernel, "no file chosen"},
    }));
    CAPTURE(path, to_string(kind), says);
    const std::string why = open_error(path, kind);
    REQUIRE((says.empty() ? why.empty() : why.find(says) != std::string::npos));
}

TEST_CASE("file open: the command line's kernel[:FILE] and results[:FILE]", "[viewer][open]") {
    std::string why;
    const auto show = parse_open_request("results", &why);
    const auto file = parse_open_request("kernel:" + src("exercises/find-the-race/stencil.cu"), &why);
    REQUIRE((show && show->kind == OpenKind::results && show->path.empty() && file && file->kind == OpenKind::kernel &&
             file->path == src("exercises/find-the-race/stencil.cu")));
    REQUIRE((!parse_open_request("stepper:x.cu", &why) && why.find("kernel[:FILE.cu]") != std::string::npos));
    REQUIRE((!parse_open_request("kernel:" + src("nothing.cu"), &why) && why.find("no such file") != std::string::npos));
}
