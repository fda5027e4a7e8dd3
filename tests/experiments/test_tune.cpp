// The tuner on the CPU backend at a small size: every tile checked, the ranking by the model's
// traffic (no time), the cache written after each configuration and read back, and the outputs.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "analysis/model.h"
#include "backends/cpu/cpu_backend.h"
#include "core/backend.h"
#include "core/error.h"
#include "experiments/tune.h"

using namespace stencil;
using namespace stencil::experiments;
namespace fs = std::filesystem;

namespace {
std::string temp_path(const std::string& name) {
    return (fs::temp_directory_path() / ("stencil-tune-" + std::to_string(::getpid()) + "-" + name)).string();
}
// A tune of kernel k on a size^3 grid, one rep and no warm-up: the CPU backend times nothing.
TuneOptions quick_tune(KernelId k, int size) {
    TuneOptions o;
    o.kernel = k;
    o.size = size;
    o.reps = 1;
    o.warmup = 0;
    return o;
}
}  // namespace

// A version with a z-chunk: its chunks are tried in a second stage, at the first stage's best tile,
// each checked, the model's bytes counting the 2r planes every chunk re-reads (the longest chunk
// moves the fewest bytes).
TEST_CASE("tune streaming on the CPU backend: z-chunks tried at the best tile, checked and ranked", "[tune]") {
    auto backend = make_cpu_backend();
    TuneOptions o = quick_tune(KernelId::streaming, 20);
    const auto stage1 = tune_configs(KernelId::streaming, 1, Precision::f32);
    for (const auto& c : stage1) CHECK(c.z_chunk == 0);
    const TuneResult r = run_tune(*backend, o);
    const size_t chunks = std::size(kTuneZChunks) - 1;  // all but the row's own (each tile's entry)
    REQUIRE(r.tried.size() == stage1.size() + chunks);
    // The first stage's best by the CPU's ranking (requested bytes, then sectors per request).
    size_t best1 = 0;
    for (size_t i = 1; i < stage1.size(); ++i) {
        const auto &a = r.tried[i], &b = r.tried[best1];
        if (a.requested_bytes_per_output < b.requested_bytes_per_output ||
            (a.requested_bytes_per_output == b.requested_bytes_per_output && a.sectors_per_request < b.sectors_per_request))
            best1 = i;
    }
    const int tile = r.tried[best1].tile;
    // Bytes per output at the best tile by chunk (z_chunk 0 in a report: the row's own).
    double chunk8 = 0, chunk16 = 0;
    for (size_t i = 0; i < r.tried.size(); ++i) {
        const auto& t = r.tried[i];
        CAPTURE(t.label(), t.check);
        CHECK(t.ok);
        CHECK((t.z_chunk != 0) == (i >= stage1.size()));
        if (t.z_chunk != 0) CHECK(t.tile == tile);
        if (t.tile != tile) continue;
        const int chunk = t.z_chunk != 0 ? t.z_chunk : version(KernelId::streaming).z_chunk;
        if (chunk == 8) chunk8 = t.requested_bytes_per_output;
        if (chunk == 16) chunk16 = t.requested_bytes_per_output;
    }
    REQUIRE(chunk16 > 0);
    CHECK(chunk8 > chunk16);  // 18 planes: chunks of 8 re-read 2r planes thrice, chunks of 16 twice
    const auto j = r.to_json();
    bool seen = false;
    for (const auto& t : j["tried"]) seen = seen || t.value("z_chunk", 0) == 32;
    CHECK(seen);
}

// A version that fuses steps: every trial is one launch of its K steps (the row's K in the first two
// stages), the third stage tries the other K at the best tile and chunk, and the ranking is per
// step: the model's bytes per output fall with K (the grid read once per K updates).
TEST_CASE("tune temporal on the CPU backend: K tried at the best tile and chunk, ranked per step, cached", "[tune]") {
    auto backend = make_cpu_backend();
    TuneOptions o = quick_tune(KernelId::temporal, 24);
    o.cache_file = temp_path("temporal.json");
    const int row_k = version(KernelId::temporal).fused_steps;
    const int max_k = shape_of(KernelId::temporal).max_fused_steps;
    REQUIRE(max_k > 1);
    const TuneResult r = run_tune(*backend, o);
    const size_t stage12 = tune_configs(KernelId::temporal, 1, Precision::f32).size() + std::size(kTuneZChunks) - 1;
    REQUIRE(r.tried.size() == stage12 + size_t(max_k - 1));
    std::map<int, double> bytes_by_k;
    for (size_t i = 0; i < r.tried.size(); ++i) {
        const auto& t = r.tried[i];
        CAPTURE(t.label(), t.check, t.skipped);
        CHECK(t.ok);
        CHECK(t.steps == (i < stage12 ? row_k : t.fuse));
        CHECK(t.label().find(fmt::format("K={}", t.steps)) != std::string::npos);
        if (i >= stage12) {
            CHECK(t.fuse != row_k);
            CHECK(t.tile == r.tried[stage12].tile);
            CHECK(t.z_chunk == r.tried[stage12].z_chunk);
            bytes_by_k[t.fuse] = t.requested_bytes_per_output;
        }
    }
    REQUIRE(bytes_by_k.size() == size_t(max_k - 1));
    CHECK(bytes_by_k.at(1) > bytes_by_k.at(2));
    REQUIRE(r.best.has_value());
    CHECK(r.tried[*r.best].steps == max_k);  // the fewest bytes per step at this grid
    // Every trial is in the cache under its K: a second run measures nothing.
    const TuneResult again = run_tune(*backend, o);
    REQUIRE(again.tried.size() == r.tried.size());
    for (const auto& t : again.tried) CHECK(t.from_cache);
    CHECK(again.tried[*again.best].label() == r.tried[*r.best].label());
    std::remove(o.cache_file.c_str());
}

TEST_CASE("tune on the CPU backend: every tile checked, ranked by the model's bytes, cached", "[tune]") {
    auto backend = make_cpu_backend();
    const std::string cache = temp_path("cache.json");
    fs::remove(cache);
    TuneOptions o = quick_tune(KernelId::tiled, 11);
    o.cache_file = cache;
    const TuneResult r = run_tune(*backend, o);
    CHECK_FALSE(r.timed);
    CHECK(r.ranking.find("no time was measured") != std::string::npos);
    REQUIRE(r.tried.size() == tune_tiles(KernelId::tiled, 1, Precision::f32).size());
    for (const auto& t : r.tried) {
        CAPTURE(t.tile, t.check);
        CHECK(t.ok);
        CHECK_FALSE(t.timed);
        CHECK_FALSE(t.from_cache);
        CHECK(t.requested_bytes_per_output > 0);
    }
    // The best has the fewest requested bytes per output (the model's exact count at N = 11).
    REQUIRE(r.best);
    const auto fewest = std::min_element(r.tried.begin(), r.tried.end(), [](const TuneTrial& a, const TuneTrial& b) {
        return a.requested_bytes_per_output < b.requested_bytes_per_output;
    });
    CHECK(r.tried[*r.best].requested_bytes_per_output == fewest->requested_bytes_per_output);
    const auto traffic = analysis::exact_grid_traffic(KernelId::tiled, r.tried[*r.best].tile, 1, Precision::f32, {11, 11, 11});
    CHECK(r.tried[*r.best].requested_bytes_per_output == Approx(double(traffic.load_bytes) / (9.0 * 9 * 9)));
    // JSON: best and tried, ms null where nothing was timed.
    const auto j = r.to_json();
    CHECK(j["best"]["tile"] == r.tried[*r.best].tile);
    CHECK(j["tried"].size() == r.tried.size());
    CHECK(j["tried"][0]["ms"].is_null());

    SECTION("a second run resumes from the cache; --fresh measures again") {
        const TuneResult again = run_tune(*backend, o);
        for (const auto& t : again.tried) CHECK(t.from_cache);
        REQUIRE(again.best);
        CHECK(again.tried[*again.best].tile == r.tried[*r.best].tile);
        o.fresh = true;
        for (const auto& t : run_tune(*backend, o).tried) CHECK_FALSE(t.from_cache);
    }
    SECTION("a file that is not a tune cache is refused before anything runs") {
        std::ofstream(cache) << "{\"something\": 1}";
        CHECK_THROWS_AS(run_tune(*backend, o), UserError);
    }
    SECTION("the outputs: tune.json, the data and script of the plot") {
        const std::string dir = temp_path("out");
        const TuneOutputs w = write_tune_outputs(r, dir);
        CHECK(fs::exists(dir + "/tune.json"));
        CHECK(fs::exists(dir + "/tune.gp"));
        std::ifstream dat(dir + "/tune.dat");
        std::string header, line;
        std::getline(dat, header);
        int rows = 0, best = 0;
        // Each row: "label" value low high best sectors_per_request.
        while (std::getline(dat, line)) {
            ++rows;
            std::istringstream fields(line.substr(line.rfind('"') + 1));
            double value = 0, low = 0, high = 0, sectors = 0;
            int is_best = 0;
            fields >> value >> low >> high >> is_best >> sectors;
            CHECK(sectors > 0);
            best += is_best;
        }
        CHECK(rows == int(r.tried.size()));
        CHECK(best == 1);
        fs::remove_all(dir);
    }
    fs::remove(cache);
}

TEST_CASE("tune refuses what cannot run, before running", "[tune]") {
    auto backend = make_cpu_backend();
    TuneOptions o;
    o.kernel = KernelId::tiled;
    o.size = 2;  // smaller than one interior cell
    CHECK_THROWS_AS(run_tune(*backend, o), UserError);
}

TEST_CASE("tune naive on the CPU backend: tiles and block shapes, the best by sectors per request", "[tune]") {
    auto backend = make_cpu_backend();
    const std::string cache = temp_path("blocks.json");
    fs::remove(cache);
    TuneOptions o = quick_tune(KernelId::naive, 10);
    o.cache_file = cache;
    const TuneResult r = run_tune(*backend, o);
    const auto configs = tune_configs(KernelId::naive, 1, Precision::f32);
    REQUIRE(r.tried.size() == configs.size());
    int shapes = 0;
    for (size_t i = 0; i < r.tried.size(); ++i) {
        const TuneTrial& t = r.tried[i];
        CAPTURE(t.label(), t.check);
        CHECK(t.ok);
        CHECK(t.tile == configs[i].tile);
        CHECK(t.block == configs[i].block);
        shapes += t.block ? 1 : 0;
    }
    // Every shape of kTuneBlocks fits naive's rules (a multiple of a warp, at most 1024 threads).
    CHECK(shapes == int(std::size(kTuneBlocks)));
    // Naive loads the same 6r + 1 values per output on any block: the warp pattern decides, and
    // the textbook's cure (rows of 32 or more) beats every T^3 cube.
    REQUIRE(r.best);
    const TuneTrial& best = r.tried[*r.best];
    CHECK(best.block);
    for (const auto& t : r.tried) {
        CHECK(t.requested_bytes_per_output == Approx(best.requested_bytes_per_output));
        CHECK(best.sectors_per_request <= t.sectors_per_request);
    }
    // The block shape survives the cache and the JSON.
    const TuneResult again = run_tune(*backend, o);
    REQUIRE(again.best);
    CHECK(again.tried[*again.best].from_cache);
    CHECK(again.tried[*again.best].block == best.block);
    CHECK(again.to_json()["best"]["block"].size() == 3);
    fs::remove(cache);
}
