// The command line's contract (README, "The command line"), one test per rule: a usage error
// (unknown option or command, a missing or malformed value, conflicting options, no command, a
// number out of its range) exits 2 with one line `stencil-lab: <the rule>` on stderr, nothing on
// stdout, in well under a second (asserted < 5 s: CI machines are loaded); run-away inputs are
// capped with the cap in the message; every command takes --backend; --json has null for unknown
// and 64-bit seeds as strings; output paths are checked before the work starts. No GPU needed.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <sys/stat.h>

#include <filesystem>
#include <functional>
#include <fstream>
#include <string>

#include "run_cli.h"

using namespace cli_test;

namespace {

constexpr double kQuick = 5.0;  // seconds: a usage error answers at once

// Exit 2, one line on stderr that starts "stencil-lab: " and contains `says`, no stdout, quick.
void require_usage_error(const std::string& args, const std::string& says) {
    CAPTURE(args);
    const Result r = run(args);
    CAPTURE(r.code, r.err, r.out, r.seconds);
    REQUIRE(r.code == 2);
    REQUIRE(r.err_lines() == 1);
    REQUIRE(r.first_err_line().rfind("stencil-lab: ", 0) == 0);
    REQUIRE(contains(r.first_err_line(), says));
    REQUIRE(r.out.empty());
    REQUIRE(r.seconds < kQuick);
}

struct Case {
    std::string args;
    std::string says;
};

}  // namespace

TEST_CASE("contract: no command is a usage error", "[cli][contract]") {
    require_usage_error("", "a command is required (one of info, versions, run, model, sweep, baseline, tune, check, exercise, cache, lab, "
                            "autograder)");
}

TEST_CASE("contract: an unknown command is a usage error", "[cli][contract]") {
    require_usage_error("fly --kernel naive", "unknown command 'fly' (one of info, versions, run, model");
    require_usage_error("--frobnicate", "unknown option '--frobnicate': the command comes first");
}

TEST_CASE("contract: an unknown option is a usage error", "[cli][contract]") {
    const Case c = GENERATE(Case{"run --kernel naive --frobnicate", "unknown option '--frobnicate' (see stencil-lab run"},
                            Case{"model --kernel naive --sizee 12", "unknown option '--sizee' (did you mean '--size'?)"},
                            Case{"info --verbose", "unknown option '--verbose'"},
                            Case{"sweep --out /tmp/x --fast", "unknown option '--fast'"},
                            Case{"baseline extra", "unknown option or extra argument 'extra'"});
    require_usage_error(c.args, c.says);
}

TEST_CASE("contract: a missing value is a usage error", "[cli][contract]") {
    const Case c = GENERATE(Case{"run --kernel", "--kernel needs a value"},
                            Case{"run --kernel naive --size", "--size needs a value"},
                            Case{"sweep --backend cpu --out", "--out needs a value"},
                            Case{"run", "--kernel is required (see stencil-lab run --help)"},
                            Case{"sweep --backend cpu", "--out DIR"});
    require_usage_error(c.args, c.says);
}

TEST_CASE("contract: a malformed number is a usage error", "[cli][contract]") {
    const Case c = GENERATE(Case{"run --kernel naive --size many",
                                 "--size must be a whole number between 1 and 1048576 (got 'many')"},
                            Case{"run --kernel naive --reps 2.5",
                                 "--reps must be a whole number between 1 and 10000 (got '2.5')"},
                            Case{"run --kernel naive --tile 8x",
                                 "--tile must be a whole number between 1 and 1024 (got '8x')"},
                            Case{"model --kernel naive --radius one",
                                 "--radius must be a whole number between 1 and 4"},
                            Case{"sweep --backend cpu --out /tmp/x --tiles 4,x",
                                 "each of --tiles must be a whole number between 1 and 1024 (got 'x')"},
                            Case{"info --copy-mib lots", "--copy-mib must be a whole number between 1 and 65536"},
                            Case{"run --kernel naive --seed abc",
                                 "--seed must be a whole number between 0 and 2^64 - 1"},
                            Case{"run --kernel naive --seed -1",
                                 "--seed must be a whole number between 0 and 2^64 - 1"},
                            Case{"run --kernel naive --seed 18446744073709551616", "--seed must be a whole number"},
                            Case{"run --kernel naive --json=maybe",
                                 "--json is a flag and takes no value (got 'maybe')"},
                            Case{"run --kernel naive --backend fpga",
                                 "--backend must be auto, cuda or cpu (got 'fpga')"},
                            Case{"run --kernel naive --size 8 --size 9", "--size is given more than once"});
    require_usage_error(c.args, c.says);
}

TEST_CASE("contract: conflicting options are a usage error", "[cli][contract]") {
    const Case c = GENERATE(Case{"run --kernel naive --size 32 --nx 16", "cannot be used together"},
                            Case{"run --kernel naive --no-time --reps 3", "cannot be used together"},
                            Case{"run --kernel naive --check-races --counters", "cannot be used together"},
                            Case{"run --kernel naive --check-races --backend cuda",
                                 "--check-races needs --backend cpu"},
                            Case{"model --bounds --registers", "cannot be used together"},
                            Case{"model --ghost 16 --kernel tiled", "cannot be used together"},
                            Case{"baseline --no-time --strict", "cannot be used together"},
                            Case{"baseline --json --json-file /tmp/x.json", "cannot be used together"});
    require_usage_error(c.args, c.says);
}

TEST_CASE("contract: cache takes info or clear, and nothing else", "[cli][contract]") {
    const Case c = GENERATE(Case{"cache", "action is required: cache info or cache clear"},
                            Case{"cache --json", "action is required: cache info or cache clear"},
                            Case{"cache purge", "action must be info or clear (got 'purge')"},
                            Case{"cache info clear", "unknown option or extra argument 'clear'"},
                            Case{"cache info --frobnicate", "unknown option '--frobnicate'"},
                            Case{"cache clear --json=maybe", "--json is a flag and takes no value (got 'maybe')"});
    require_usage_error(c.args, c.says);
    // Listed among the commands when none is given.
    require_usage_error("", ", cache");
}

// run --size 0 used to mean "the default" while -1 was an error; both are errors now.
TEST_CASE("contract: grid sizes are 1..1048576, 0 and negative included, no silent default", "[cli][contract]") {
    const Case c = GENERATE(Case{"run --kernel naive --size 0", "--size must be between 1 and 1048576 (got '0')"},
                            Case{"run --kernel naive --size -1", "--size must be between 1 and 1048576 (got '-1')"},
                            Case{"run --kernel naive --nx 0 --ny 8 --nz 8",
                                 "--nx must be between 1 and 1048576 (got '0')"},
                            Case{"run --kernel naive --size 99999999999", "--size must be between 1 and 1048576"},
                            Case{"run --kernel naive --size 2000000", "--size must be between 1 and 1048576"},
                            Case{"run --kernel naive --size 2000 --backend cpu", "is too large"},
                            Case{"model --kernel naive --size 0", "--size must be between 1 and 1048576 (got '0')"},
                            Case{"sweep --backend cpu --out /tmp/x --size -3", "--size must be between 1 and 1048576"},
                            Case{"baseline --size 2", "--size must be between 3 and 1625 (got '2')"},
                            Case{"baseline --size 1626", "2^32"});
    require_usage_error(c.args, c.says);
}

TEST_CASE("contract: --reps and --warmup are capped, negatives refused", "[cli][contract]") {
    const Case c = GENERATE(Case{"run --kernel naive --reps -1", "--reps must be between 1 and 10000 (got '-1')"},
                            Case{"run --kernel naive --reps 0", "--reps must be between 1 and 10000 (got '0')"},
                            Case{"run --kernel naive --reps 1000000000",
                                 "--reps must be between 1 and 10000 (got '1000000000')"},
                            Case{"run --kernel naive --warmup -5", "--warmup must be between 0 and 1000 (got '-5')"},
                            Case{"run --kernel naive --warmup 1001", "--warmup must be between 0 and 1000"},
                            Case{"sweep --backend cpu --out /tmp/x --reps 20000", "--reps must be between 1 and 10000"},
                            Case{"baseline --reps 0", "--reps must be between 1 and 10000 (got '0')"},
                            Case{"baseline --warmup -1", "--warmup must be between 0 and 1000 (got '-1')"});
    require_usage_error(c.args, c.says);
}

TEST_CASE("contract: tiles, radii and the other numbers have their ranges", "[cli][contract]") {
    const Case c = GENERATE(Case{"run --kernel tiled --tile 0", "--tile must be between 1 and 1024 (got '0')"},
                            Case{"run --kernel tiled --tile -8", "--tile must be between 1 and 1024"},
                            Case{"run --kernel tiled --tile 99999",
                                 "--tile must be between 1 and 1024 (got '99999'): a CUDA block"},
                            Case{"run --kernel tiled --tile 11", "needs 1331 threads per block"},
                            Case{"run --kernel naive --radius 9", "--radius must be between 1 and 4 (got '9')"},
                            Case{"model --kernel naive --radius 0", "--radius must be between 1 and 4 (got '0')"},
                            Case{"model --kernel tiled --tile 99999", "--tile must be between 1 and 1024"},
                            Case{"model --ghost 2", "--ghost must be between 3 and 1024 (got '2')"},
                            Case{"model --ghost 0", "--ghost must be between 3 and 1024 (got '0')"},
                            Case{"sweep --backend cpu --out /tmp/x --tiles 4,0",
                                 "each of --tiles must be between 1 and 1024 (got '0')"},
                            Case{"sweep --backend cpu --out /tmp/x --radius 5", "--radius must be between 1 and 4"},
                            Case{"info --copy-mib 0", "--copy-mib must be between 1 and 65536 (got '0')"});
    require_usage_error(c.args, c.says);
}

// The model of an invalid tile grew with T^2 and did not return for --tile 99999.
TEST_CASE("contract: model --explain-invalid caps the tile and answers at once", "[cli][contract]") {
    require_usage_error("model --kernel coarsened --tile 99999 --explain-invalid",
                        "--tile must be between 1 and 1024");
    require_usage_error("model --kernel coarsened --tile 65 --explain-invalid",
                        "--tile with --explain-invalid must be between 1 and 64 (got '65')");
    for (const char* k : {"naive", "tiled", "coarsened", "register-tiled"}) {
        const std::string args = std::string("model --kernel ") + k + " --tile 64 --explain-invalid --json";
        CAPTURE(args);
        const Result r = run(args);
        CAPTURE(r.code, r.err, r.seconds);
        REQUIRE(r.code == 0);
        REQUIRE(r.seconds < kQuick);
        REQUIRE(nlohmann::json::parse(r.out)["cannot_run"].get<bool>());
    }
}

TEST_CASE("contract: --help exits 0", "[cli][contract]") {
    for (const char* args : {"--help", "--help-all", "run --help", "model --help", "sweep --help", "baseline --help",
                             "info --help", "check --help", "cache --help", "autograder --help", "lab --help"}) {
        CAPTURE(args);
        const Result r = run(args);
        CAPTURE(r.code, r.err);
        REQUIRE(r.code == 0);
        REQUIRE(contains(r.out, "--help"));
        REQUIRE(r.seconds < kQuick);
    }
    CHECK(contains(run("--help").out, "2 a usage error"));
}

TEST_CASE("contract: every command takes --problem", "[cli][contract]") {
    for (const char* cmd : {"info", "versions", "run --kernel naive", "sweep --out /tmp/x", "baseline",
                            "check x.cu --exercise naive", "cache info", "lab key 1", "autograder rubric --exercise naive"}) {
        require_usage_error(std::string(cmd) + " --problem nope", "--problem must be one of star3d");
    }
    require_usage_error("model --kernel tiled --problem nope", "--problem must be one of star3d");
    CHECK(run("versions --problem star3d").code == 0);
    CHECK(run("info --backend cpu --problem star3d").code == 0);
    // A command that does star3d's work only refuses another problem's name instead of doing
    // star3d's work under it.
    require_usage_error("sweep --out /tmp/x --problem derivative", "--problem derivative: `sweep` covers star3d only");
    require_usage_error("baseline --problem cardiac2d", "--problem cardiac2d: `baseline` covers star3d only");
    // An option of another problem is refused by name, never ignored.
    require_usage_error("run --kernel naive --convergence", "--convergence does not apply to --problem star3d");
    require_usage_error("run --problem cardiac2d --kernel fused --tile 8", "--tile does not apply to --problem cardiac2d");
    require_usage_error("run --problem cardiac2d --kernel fused --radius 2", "--radius does not apply to --problem cardiac2d");
    require_usage_error("model --problem cardiac2d --kernel fused", "--kernel does not apply to model --problem cardiac2d");
    require_usage_error("model --problem derivative --kernel x-spencils", "--kernel does not apply to model --problem derivative");
}

TEST_CASE("contract: every command takes --backend", "[cli][contract]") {
    // A bad value is the same usage error everywhere.
    for (const char* cmd : {"info", "versions", "run --kernel naive", "model --kernel tiled", "sweep --out /tmp/x",
                            "baseline", "check x.cu --exercise naive", "cache info", "cache clear", "lab key 1",
                            "autograder rubric --exercise naive"}) {
        require_usage_error(std::string(cmd) + " --backend fpga", "--backend must be auto, cuda or cpu (got 'fpga')");
    }
    // model runs nothing: it accepts every backend and says which limits it used.
    for (const char* b : {"cpu", "cuda", "auto", "gpu"}) {
        const Result r = run(std::string("model --kernel tiled --tile 8 --size 32 --backend ") + b);
        CAPTURE(b, r.code, r.err);
        REQUIRE(r.code == 0);
        REQUIRE(contains(r.out, "tile limits of CUDA blocks (1024 threads, 48 KiB static shared memory, 96 KiB dynamic), the same on "
                                "both backends; the model runs nothing"));
    }
    const Result j = run("model --kernel tiled --tile 8 --size 32 --backend cpu --json");
    REQUIRE(j.code == 0);
    const auto doc = nlohmann::json::parse(j.out);
    CHECK(doc["backend"] == "cpu");
    CHECK(doc["limits"]["max_threads_per_block"] == 1024);
    const Result t = run("model --bounds --backend cpu");
    REQUIRE(t.code == 0);
    CHECK(contains(t.out, "(--backend cpu: this table needs no backend)"));
    CHECK(run("info --backend cpu").code == 0);
    CHECK(run("info --backend gpu").code == 0);  // "gpu" is cuda: says whether there is one, exit 0
    // The baseline's listings are CUDA only: cpu is refused as a rule, not as an unknown option.
    require_usage_error("baseline --backend cpu", "baseline runs the textbook's CUDA listings on the GPU only");
}

TEST_CASE("contract: run --json has null for unknown figures and the seed as a string", "[cli][contract]") {
    const Result r = run("run --kernel tiled --tile 6 --size 12 --backend cpu --reps 1 --json --seed 18446744073709551615");
    CAPTURE(r.code, r.err);
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    REQUIRE(j["seed"] == "18446744073709551615");
    // The CPU backend has no register count, occupancy or compute capability: null, not -1.
    for (const char* key : {"registers", "active_blocks_per_sm", "occupancy"}) {
        CAPTURE(key);
        CHECK(j.contains(key));
        CHECK(j[key].is_null());
    }
    CHECK(j["device_info"]["compute_capability"].is_null());
    std::function<void(const nlohmann::json&)> no_minus_one = [&](const nlohmann::json& v) {
        if (v.is_number()) CHECK(v.get<double>() != -1.0);
        if (v.is_structured())
            for (const auto& x : v) no_minus_one(x);
    };
    no_minus_one(j);

    // The seed comes back as printed: as the JSON string (quotes and all), or in hex.
    const Result again = run("run --kernel tiled --tile 6 --size 12 --backend cpu --reps 1 --json --seed '\"" +
                             j["seed"].get<std::string>() + "\"'");
    CAPTURE(again.err);
    REQUIRE(again.code == 0);
    const auto j2 = nlohmann::json::parse(again.out);
    CHECK(j2["seed"] == j["seed"]);
    CHECK(j2["max_abs_err"] == j["max_abs_err"]);
    const Result hex = run("run --kernel naive --size 8 --backend cpu --no-time --json --seed 0x10");
    REQUIRE(hex.code == 0);
    CHECK(nlohmann::json::parse(hex.out)["seed"] == "16");

    const Result races = run("run --kernel tiled --tile 6 --size 12 --check-races --json --seed 7");
    CAPTURE(races.err);
    REQUIRE(races.code == 0);
    CHECK(nlohmann::json::parse(races.out)["seed"] == "7");
}

TEST_CASE("contract: output paths are checked before the work starts", "[cli][contract]") {
    const fs::path dir = fs::temp_directory_path() / ("stencil_cli_contract_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const fs::path ro = dir / "read-only";
    fs::create_directories(ro);
    ::chmod(ro.c_str(), 0555);
    const bool root = ::geteuid() == 0;  // root writes anywhere: the read-only folder case does not apply
    // sweep --out: a file, /proc, and (unless root) a read-only folder; nothing is written.
    require_usage_error("sweep --backend cpu --size 12 --kernels naive --tiles 4 --out /etc/passwd", "--out /etc/passwd: exists and is not a folder");
    require_usage_error("sweep --backend cpu --size 12 --kernels naive --tiles 4 --out /proc/stencil-x", "--out /proc/stencil-x");
    if (!root) require_usage_error("sweep --backend cpu --size 12 --kernels naive --tiles 4 --out " + (ro / "out").string(), "--out");
    // baseline --json-file: said before the GPU is looked at (here: before "no GPU").
    require_usage_error("baseline --json-file /nonexistent-folder/b.json", "--json-file /nonexistent-folder/b.json: the folder /nonexistent-folder does not exist");
    require_usage_error("baseline --json-file " + dir.string(), "is a folder, not a file");
    require_usage_error("baseline --json-file /proc/stencil-b.json", "--json-file /proc/stencil-b.json: cannot be written");
    const fs::path fifo = dir / "fifo";
    ::mkfifo(fifo.c_str(), 0600);
    require_usage_error("baseline --json-file " + fifo.string(), "exists and is not a regular file");
    if (!root) require_usage_error("baseline --json-file " + (ro / "b.json").string(), "cannot be written");
    // An existing file is neither truncated nor removed by a run that fails (here: no GPU).
    if (!has_gpu()) {
        const fs::path keep = dir / "keep.json";
        std::ofstream(keep) << "{\"kept\": true}\n";
        const Result r = run("baseline --size 48 --reps 1 --json-file " + keep.string());
        CAPTURE(r.err);
        CHECK((r.code == 2 && contains(r.err, "no GPU")));
        CHECK(slurp(keep) == "{\"kept\": true}\n");
    }
    ::chmod(ro.c_str(), 0755);
    fs::remove_all(dir);
}

TEST_CASE("contract: tune's usage errors", "[cli][contract]") {
    const Case c = GENERATE(Case{"tune", "tune needs --kernel (one of naive"},
                            Case{"tune --kernel fast", "unknown kernel 'fast'"},
                            Case{"tune --kernel tiled --size 2 --backend cpu", "grid 2x2x2 is too small for radius 1"},
                            Case{"tune --kernel tiled --cache /tmp/x.json --no-cache", "cannot be used together"},
                            Case{"tune --kernel tiled --problem cardiac2d", "covers star3d only"});
    require_usage_error(c.args, c.says);
}
