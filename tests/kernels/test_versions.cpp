// The versions table is the one place a kernel's facts are written: its rows agree with the launch
// geometry and the tile rules derived from them, and no other source file restates a shape.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "kernels/versions.h"

using namespace stencil;

TEST_CASE("every row's launch geometry covers the grid with the row's block shape", "[versions]") {
    for (const auto& v : kernel_versions()) {
        for (int r = 1; r <= kMaxRadius; ++r) {
            for (int T : runnable_tiles(v.id, r, Precision::f32)) {
                const GridDims g{37, 29, 23};
                const LaunchGeometry geo = launch_geometry(v.id, T, r, Precision::f32, g);
                INFO(v.name << " T=" << T << " r=" << r);
                CHECK(geo.block.count() == threads_per_block(v.id, T));
                CHECK(geo.block.z == (v.threads == ThreadShape::cube ? T : 1));
                // A warp per row (streaming): 32 lanes of 16-byte vectors, 4 floats each. A warp per
                // row of strips (temporal): 32 lanes of 2 floats, its halo inside, T / 4 strips of 4 rows.
                const bool rows = v.threads == ThreadShape::warp_rows, strips = v.threads == ThreadShape::warp_strips;
                CHECK(geo.block.x == (rows || strips ? 32 : T));
                CHECK(geo.block.y == (strips ? T / 4 : T));
                const int out = v.halo_in_tile ? T - 2 * r : T;
                const int width = rows ? 32 * 4 : strips ? 64 - 2 * r : out;
                CHECK(geo.out_tile == out);
                CHECK(geo.out_width == width);
                // Enough blocks for every cell, and not one block more.
                CHECK((long long)geo.grid.x * width >= g.nx);
                CHECK((long long)(geo.grid.x - 1) * width < g.nx);
                CHECK((long long)geo.grid.y * out >= g.ny);
                CHECK((long long)(geo.grid.y - 1) * out < g.ny);
                CHECK((long long)geo.grid.z * geo.out_planes >= g.nz);
                CHECK(geo.smem_bytes <= DeviceLimits{}.max_static_smem_per_block);
            }
        }
    }
}

TEST_CASE("the rows' tiles, sweeps and defaults are consistent", "[versions]") {
    std::set<std::string> names;
    for (const auto& v : kernel_versions()) {
        INFO(v.name);
        CHECK(names.insert(v.name).second);
        CHECK(&version(v.id) == &v);
        CHECK(find_version(v.name) == &v);
        CHECK_FALSE(tile_error(v.id, v.default_tile, 1, Precision::f32));
        CHECK_FALSE(tile_error(v.id, v.small_tile, 1, Precision::f32));
        const auto sweep = sweep_tiles(v.id, 1, Precision::f32);
        CHECK_FALSE(sweep.empty());
        for (int T : sweep) CHECK_FALSE(tile_error(v.id, T, 1, Precision::f32));
        CHECK(std::string(v.source_file).rfind("kernels/", 0) == 0);
        CHECK(std::filesystem::exists(std::filesystem::path(STENCIL_LAB_SOURCE_DIR) / v.source_file));
        CHECK(std::filesystem::exists(std::filesystem::path(STENCIL_LAB_SOURCE_DIR) / v.textbook_file));
    }
    // The rules in words follow the rows.
    CHECK(threads_formula(KernelId::tiled) == "T^3");
    CHECK(threads_formula(KernelId::coarsened) == "T^2");
    CHECK(smem_formula(KernelId::coarsened, 2) == "(2r+1) T^2 = 5 T^2");
    CHECK(smem_formula(KernelId::naive, 1).empty());
    CHECK(smem_bytes(KernelId::register_tiled, 32, 4, 8) == 32 * 32 * 8);
    // A tile that cannot hold its own halo is refused; naive has no halo.
    CHECK(tile_error(KernelId::tiled, 4, 2, Precision::f32));
    CHECK_FALSE(tile_error(KernelId::naive, 2, 4, Precision::f32));
    CHECK(*parse_problem("star3d") == Problem::star3d);
    CHECK_FALSE(parse_problem("star"));
}

// fuse_fits (versions.h) promises that shared memory never limits a fused temporal launch at a
// built tile: the strips' edge rows of every level fit the 96 KiB of dynamic shared memory any GPU
// since Volta gives a block, in both precisions.
TEST_CASE("temporal: every built tile, radius and K that fuse_fits fits the dynamic shared memory", "[versions]") {
    const KernelId k = KernelId::temporal;
    int launches = 0;
    for (int T : built_tiles())
        for (int r = 1; r <= kMaxRadius; ++r)
            for (int K = 1; K <= version(k).max_fused_steps; ++K) {
                if (!tile_fits(k, T, r, 8) || !fuse_fits(k, T, r, K)) continue;
                ++launches;
                INFO("T=" << T << " r=" << r << " K=" << K);
                CHECK(smem_bytes(k, T, r, 8, K) <= DeviceLimits{}.max_dynamic_smem_per_block);
                CHECK(smem_bytes(k, T, r, 4, K) == smem_bytes(k, T, r, 8, K));  // 256 B a row in both
            }
    CHECK(launches > 0);
    CHECK(smem_bytes(k, 64, 3, 8, 4) == 96 * 1024);  // the largest: 16 strips x 24 rows x 256 B
    CHECK(smem_bytes(k, 64, 3, 8, 4) > DeviceLimits{}.max_static_smem_per_block);  // hence dynamic
    CHECK(smem_is_dynamic(k));
    CHECK(threads_per_block(k, 64) == 512);
    CHECK((out_width(k, 64, 1, 4, 1) == 62 && out_width(k, 64, 1, 8, 1) == 30));  // 64 floats, 32 doubles a row
    CHECK(fuse_fits(k, 64, 3, 4));        // 2rK = 24: 8 outputs across the fp64 warp
    CHECK_FALSE(fuse_fits(k, 64, 4, 4));  // 2rK = 32: none in fp64 (one rule for both precisions)
    CHECK_FALSE(tile_fits(k, 10, 1, 4));  // not whole strips
}

// ---- the grep: no other source file restates a kernel's shape --------------------------------

namespace {
// What "restating a shape" looks like in this code base: kernel ids combined to pick a class of
// kernels (`k == KernelId::naive || k == KernelId::tiled`), the thread-count and shared-memory
// formulas as string literals, and the point / FLOP counts written as arithmetic.
const std::regex kRestated[] = {
    std::regex(R"(KernelId::\w+\s*(\|\||&&)\s*[\w.]+\s*[!=]=\s*KernelId::)"),  // a class of kernels
    std::regex(R"(KernelId::.*\bT\s*[<>]=?\s*2\s*\*)"),  // the halo rule T > 2r, per kernel
    std::regex(R"(\bT\s*[<>]=?\s*2\s*\*.*KernelId::)"),
    std::regex(R"("T\^[23]")"),                              // threads per block, in words
    std::regex(R"(\b(6|12)\s*\*\s*(r|radius|R|ex\.radius)\s*\+\s*1\b)"),  // points, FLOPs
    std::regex(R"(\b1\s*\+\s*6\s*\*\s*(r|radius|R)\b)"),
};
// Where the facts live (and the model's own per-kernel cases, which are the model, not a shape).
const std::set<std::string> kOwners = {"kernels/versions.h", "kernels/versions.cpp", "kernels/version_shapes.h",
                                       "kernels/version_rules.h", "kernels/version_rows.cpp",
                                       "kernels/stencil_shape.h"};

// Calls f(path below the root, line number, the line's code without its // comment) for every
// line of every C++ / CUDA source under the given folders of the tree.
template <class F>
void for_each_code_line(std::initializer_list<const char*> dirs, F f) {
    namespace fs = std::filesystem;
    const fs::path root = STENCIL_LAB_SOURCE_DIR;
    for (const char* dir : dirs) {
        if (!fs::exists(root / dir)) continue;
        for (const auto& e : fs::recursive_directory_iterator(root / dir)) {
            const auto ext = e.path().extension().string();
            if (!e.is_regular_file() || (ext != ".cpp" && ext != ".h" && ext != ".cu" && ext != ".cuh")) continue;
            const std::string rel = fs::relative(e.path(), root).generic_string();
            std::ifstream in(e.path());
            std::string line;
            for (int n = 1; std::getline(in, line); ++n) f(rel, n, line.substr(0, line.find("//")), line);
        }
    }
}
}  // namespace

TEST_CASE("the versions table is the only place a kernel's shape is written", "[versions]") {
    std::string found;
    std::set<std::string> read;
    for_each_code_line({"kernels", "core", "backends", "analysis", "experiments", "checker", "cli", "viewer", "bench"},
                       [&](const std::string& rel, int n, const std::string& code, const std::string& line) {
                           if (kOwners.count(rel) || rel.rfind("bench/textbook/", 0) == 0) return;  // as printed
                           read.insert(rel);
                           for (const auto& re : kRestated)
                               if (std::regex_search(code, re))
                                   found += rel + ":" + std::to_string(n) + ": " + line + "\n";
                       });
    CHECK(read.size() > 50);
    INFO("restated outside kernels/versions.*:\n" << found);
    CHECK(found.empty());
}

// Adding a version is its kernel file, its shape row and its run-time row: no other source file
// names the last version added (conv27) in code. A switch over KernelId elsewhere would fail this.
TEST_CASE("a version is named in code only by its kernel file and its two rows", "[versions]") {
    const std::regex named(R"(KernelId::conv27\b)");
    std::set<std::string> files;
    for_each_code_line({"kernels", "core", "backends", "analysis", "experiments", "checker", "cli", "viewer",
                        "distributed", "grading", "labs"},
                       [&](const std::string& rel, int, const std::string& code, const std::string&) {
                           if (std::regex_search(code, named)) files.insert(rel);
                       });
    const std::set<std::string> rows = {"kernels/version_shapes.h", "kernels/version_rows.cpp"};
    std::string list;
    for (const auto& f : files) list += f + "\n";
    INFO("files naming KernelId::conv27:\n" << list);
    CHECK(files == rows);
}
