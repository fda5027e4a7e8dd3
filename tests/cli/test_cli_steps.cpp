// `run --steps S` for star3d and `--fuse K` (temporal), `versions --json`'s new fields and `model
// --kernel temporal|streaming|naive --block`: the contract (one line, exit 2 for bad values) and a
// small checked run on the CPU backend.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "run_cli.h"

using namespace cli_test;

TEST_CASE("run --steps / --fuse: refusals in one line, exit 2", "[cli]") {
    struct Case {
        const char* args;
        const char* message;
    };
    const Case c = GENERATE(
        Case{"run --kernel temporal --steps 0", "--steps"},
        Case{"run --kernel temporal --fuse 5 --steps 4", "--fuse"},
        Case{"run --kernel tiled --fuse 2 --steps 4 --backend cpu", "--fuse applies to temporal only"},
        Case{"run --kernel temporal --tile 8 --fuse 4 --steps 4", "cannot fuse 4 steps at r=1"},
        Case{"run --kernel temporal --tile 16 --radius 4 --steps 3", "cannot fuse 3 steps at r=4"},
        Case{"run --kernel temporal --radius 4 --fuse 4 --steps 4", "32 must exceed 2rK = 32"},
        Case{"run --kernel temporal --tile 10 --steps 2", "multiple of 4"},
        Case{"run --problem derivative --kernel x --fuse 2", "--fuse does not apply to --problem derivative"});
    CAPTURE(c.args);
    const Result r = run(c.args);
    CAPTURE(r.code, r.err, r.out);
    REQUIRE((r.code == 2 && r.err_lines() == 1 && contains(r.err, c.message) && r.out.empty()));
}

TEST_CASE("run --steps 3 --fuse 2 on the CPU backend: checked against 3 reference steps", "[cli]") {
    const Result r = run("run --kernel temporal --tile 16 --fuse 2 --steps 3 --radius 1 --backend cpu --nx 33 "
                         "--ny 19 --nz 11 --no-time --json");
    CAPTURE(r.code, r.err, r.out);
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    // The first launch fuses K = 2: T - 2rK = 12 output rows, 64 - 2rK = 60 across the warp (2 floats
    // a lane), 16 / 4 strips.
    REQUIRE((j["ok"] == true && j["steps"] == 3 && j["fused_steps"] == 2 && j["out_tile"] == 12 &&
             j["out_width"] == 60 && j["block"][0] == 32 && j["block"][1] == 4 &&
             contains(j["check"].get<std::string>(), "ok")));
    const Result t = run("run --kernel tiled --tile 6 --steps 2 --backend cpu --size 9 --no-time");
    CAPTURE(t.code, t.err, t.out);
    REQUIRE((t.code == 0 && contains(t.out, "against 2 steps of the fp64 reference")));
}

TEST_CASE("run --z-chunk: the planes a streaming block marches, refusals in one line", "[cli]") {
    struct Case {
        const char* args;
        const char* message;
    };
    const Case c = GENERATE(Case{"run --kernel naive --z-chunk 8", "--z-chunk applies to streaming, temporal only"},
                            Case{"run --kernel streaming --z-chunk 0", "--z-chunk"},
                            Case{"run --problem cardiac2d --kernel fused --z-chunk 8", "--z-chunk does not apply"});
    CAPTURE(c.args);
    const Result r = run(c.args);
    CAPTURE(r.code, r.err, r.out);
    REQUIRE((r.code == 2 && r.err_lines() == 1 && contains(r.err, c.message) && r.out.empty()));
    // 40 planes in chunks of 8: 5 blocks along z (the kernel takes ceil(nz / gridDim.z) planes each).
    const Result ok = run("run --kernel streaming --tile 4 --z-chunk 8 --backend cpu --nx 36 --ny 9 --nz 40 "
                          "--no-time --json");
    CAPTURE(ok.code, ok.err);
    REQUIRE(ok.code == 0);
    const auto j = nlohmann::json::parse(ok.out);
    REQUIRE((j["ok"] == true && j["grid"][2] == 5 && j["z_chunk"] == 8 && j["block"][0] == 32 && j["out_width"] == 128));
}

TEST_CASE("versions --json: takes_block and the fused steps of each row", "[cli]") {
    const Result r = run("versions --json");
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    int seen = 0;
    for (const auto& row : j["versions"]) {
        if (row["problem"] != "star3d") continue;
        ++seen;
        const bool naive = row["kernel"] == "naive", temporal = row["kernel"] == "temporal";
        CAPTURE(row.dump());
        REQUIRE((row["takes_block"] == naive && row["max_fused_steps"] == (temporal ? 4 : 1) &&
                 row["fused_steps"] == (temporal ? 3 : 1)));
    }
    REQUIRE(seen == 7);
}

TEST_CASE("model --kernel temporal --fuse K: bytes per update fall as K grows", "[cli]") {
    double last = 1e9;
    for (int K : {1, 2, 3, 4}) {
        const Result r = run("model --kernel temporal --tile 64 --fuse " + std::to_string(K) + " --json");
        CAPTURE(K, r.code, r.err);
        REQUIRE(r.code == 0);
        const auto j = nlohmann::json::parse(r.out);
        const double dram = j["per_update"]["dram_bytes"].get<double>();
        CAPTURE(dram);
        REQUIRE((j["fused_steps"] == K && j["out_tile"] == 64 - 2 * K && dram < last));
        last = dram;
    }
    const Result s = run("model --kernel streaming --json");
    REQUIRE(s.code == 0);
    REQUIRE(nlohmann::json::parse(s.out).contains("per_update"));
    const Result bad = run("model --kernel naive --fuse 2");
    CAPTURE(bad.err);
    REQUIRE((bad.code == 2 && bad.err_lines() == 1 && contains(bad.err, "--fuse applies to temporal only")));
}

TEST_CASE("model --kernel naive --block: sectors per request of that shape", "[cli]") {
    const Result a = run("model --kernel naive --block 32x4x2 --json");
    const Result b = run("model --kernel naive --block 4x4x4 --json");
    CAPTURE(a.err, b.err);
    REQUIRE((a.code == 0 && b.code == 0));
    const auto ja = nlohmann::json::parse(a.out), jb = nlohmann::json::parse(b.out);
    // A warp of 32x4x2 reads one 128-byte row per request (fp32): 4 sectors; 4x4x4 spans 8 rows.
    REQUIRE((ja["user_block"] == "32x4x2" && ja["warp_pattern"]["rows_per_warp"] == 1 &&
             jb["warp_pattern"]["rows_per_warp"] == 8 &&
             ja["warp_pattern"]["interior_sectors_per_request"].get<double>() <
                 jb["warp_pattern"]["interior_sectors_per_request"].get<double>()));
    const Result bad = run("model --kernel tiled --block 32x4x2");
    REQUIRE((bad.code == 2 && bad.err_lines() == 1 && contains(bad.err, "--block applies to naive only")));
}
