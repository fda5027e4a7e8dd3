// `stencil-lab check` as a user runs it: exit codes (0 only for pass, 2 for a usage error),
// --batch with --csv over a mixed folder, the --gradescope file, bad flags and hostile paths.
// Runs the built stencil-lab (next to the runner in the build folder).
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "checker/process.h"
#include "tests/checker/checker_corpus.h"

namespace fs = std::filesystem;
using stencil::checker::ChildLimits;
using stencil::checker::ChildResult;
using stencil::checker::run_child;

namespace {

const std::string kStencilLab = std::string(STENCIL_LAB_BINARY_DIR) + "/stencil-lab";

// `stencil-lab check ARGS...`, stdout and stderr together.
ChildResult check(std::vector<std::string> args) {
    args.insert(args.begin(), {kStencilLab, "check"});
    ChildLimits lim;
    lim.wall_seconds = 300;
    return run_child(args, lim);
}

std::string slurp(const std::string& p) {
    std::ifstream f(p);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

struct CliScratchDir {
    std::string path = (fs::temp_directory_path() / ("stencil-test-cli-" + std::to_string(getpid()))).string();
    CliScratchDir() { fs::create_directories(path); }
    ~CliScratchDir() { fs::remove_all(path); }
};

}  // namespace

TEST_CASE("check: exit 0 only for pass", "[exercise][cli]") {
    struct Case {
        const char* file;
        int code;
    };
    const Case c = GENERATE(Case{"naive_ok.cu", 0}, Case{"naive_zeros.cu", 1}, Case{"naive_syntax_error.cu", 1},
                            Case{"naive_null_deref.cu", 1});
    const ChildResult r = check({corpus(c.file), "--exercise", "naive", "--backend", "cpu"});
    CAPTURE(c.file, r.output);
    REQUIRE(r.exit_code == c.code);
}

// No student code runs natively: the CPU path compiles with NVRTC (a library) inside the runner
// and interprets the PTX. No compiler on PATH, no HOME, no CUDA_PATH, nothing of the environment.
TEST_CASE("check: the CPU backend needs no compiler on PATH and no environment", "[exercise][cli]") {
    ChildLimits lim;
    lim.wall_seconds = 300;
    const ChildResult r = run_child({"/usr/bin/env", "-i", "PATH=/nonexistent", kStencilLab, "check",
                                     corpus("tiled_ok.cu"), "--exercise", "tiled", "--backend", "cpu"},
                                    lim);
    CAPTURE(r.output);
    REQUIRE((r.exit_code == 0 && r.output.find(": pass (tiled exercise") != std::string::npos));
}

TEST_CASE("check: bad flags are a one-line error with exit code 2", "[exercise][cli]") {
    struct Bad {
        std::vector<std::string> args;
        const char* says;
    };
    const std::string ok = corpus("naive_ok.cu");
    const Bad b = GENERATE_COPY(
        Bad{{ok, "-e", "naive", "--time-limit", "0"}, "--time-limit must be a positive"},
        Bad{{ok, "-e", "naive", "--time-limit=-5"}, "--time-limit must be a positive"},
        Bad{{ok, "-e", "naive", "--time-limit", "nan"}, "--time-limit must be a positive"},
        Bad{{ok, "-e", "naive", "--time-limit", "inf"}, "--time-limit must be a positive"},
        Bad{{ok, "-e", "tiled", "--tile", "0"}, "--tile must be a positive"},
        Bad{{ok, "-e", "tiled", "--tile=-1"}, "--tile must be a positive"},
        Bad{{ok, "-e", "tiled", "--tile=-8"}, "--tile must be a positive"},
        Bad{{ok, "-e", "naive", "--seed", "abc"}, "--seed must be a non-negative integer"},
        Bad{{"/dev/null"}, "--exercise is required (nothing in the file's folder, opening comment or name says which)"},
        Bad{{ok, "-e", "nope"}, "unknown exercise"});
    const ChildResult r = check(b.args);
    CAPTURE(b.args, r.output);
    REQUIRE((r.exit_code == 2 && r.output.find(b.says) != std::string::npos &&
             r.output.find("internal error") == std::string::npos));
}

TEST_CASE("check: hostile paths are a one-line error with exit code 2, never a hang", "[exercise][cli]") {
    struct Path {
        const char* path;  // under the temporary folder, except an absolute one
        const char* says;
    };
    // (generated values are fixed on the first run: the folder's name is added after)
    const Path p = GENERATE(Path{"fifo.cu", "not a regular file"}, Path{"folder.cu", "is a folder"},
                            Path{"missing.cu", "No such file"}, Path{"/nonexistent", "is not a folder"});
    CliScratchDir d;
    fs::create_directories(d.path + "/folder.cu");
    mkfifo((d.path + "/fifo.cu").c_str(), 0600);
    const std::vector<std::string> args =
        p.path[0] == '/' ? std::vector<std::string>{"--batch", p.path, "-e", "naive"}
                         : std::vector<std::string>{d.path + "/" + p.path, "-e", "naive"};
    const ChildResult r = check(args);
    CAPTURE(args, r.output);
    REQUIRE((!r.timed_out && r.exit_code == 2 && r.output.find(p.says) != std::string::npos));
}

TEST_CASE("check: an unwritable --gradescope or --csv path is refused before any grading", "[exercise][cli]") {
    CliScratchDir d;
    fs::create_directories(d.path + "/folder");
    fs::copy_file(corpus("naive_ok.cu"), d.path + "/a_ok.cu");
    const bool csv = GENERATE(false, true);
    const std::vector<std::string> args =
        csv ? std::vector<std::string>{"--batch", d.path, "--csv", d.path + "/folder", "-e", "naive", "--backend", "cpu"}
            : std::vector<std::string>{d.path + "/a_ok.cu", "--gradescope", d.path + "/no/such/dir/results.json",
                                       "-e", "naive", "--backend", "cpu"};
    const ChildResult r = check(args);
    CAPTURE(args, r.output);
    // exit 2 and one line naming the option, and no grading happened: a graded naive_ok would have
    // printed its verdict (pass) before the file was written
    REQUIRE((r.exit_code == 2 && r.output.find(csv ? "--csv" : "--gradescope") != std::string::npos &&
             r.output.find("pass") == std::string::npos));
}

TEST_CASE("check --batch --csv: one row per file, errors included, exit 1 unless all pass", "[exercise][cli]") {
    CliScratchDir d;
    fs::copy_file(corpus("naive_ok.cu"), d.path + "/a_ok.cu");
    fs::copy_file(corpus("naive_zeros.cu"), d.path + "/b_zeros.cu");
    fs::copy_file(corpus("naive_null_deref.cu"), d.path + "/c_null.cu");
    std::ofstream(d.path + "/d_empty.cu") << "";
    const ChildResult r = check({"--batch", d.path, "--csv", d.path + "/grades.csv", "-e", "naive",
                                 "--backend", "cpu"});
    const std::string csv = slurp(d.path + "/grades.csv");
    CAPTURE(r.output, csv);
    REQUIRE((r.exit_code == 1 && csv.rfind("file,verdict,score,", 0) == 0 &&
             csv.find("\"a_ok.cu\",pass,1,") != std::string::npos &&
             csv.find("\"b_zeros.cu\",wrong_result,0,") != std::string::npos &&
             csv.find("\"c_null.cu\",crash,0,") != std::string::npos &&
             csv.find("\"d_empty.cu\",compile_error,0,") != std::string::npos &&
             csv.find("grades.csv\",") == std::string::npos &&  // its own output is no entry
             r.output.find("1 of 4 passed; batch seed 0x") != std::string::npos));
}

// Issue 16: the batch used to drop what it could not grade and report "2 of 2 passed".
TEST_CASE("check --batch: every entry it cannot grade is an `error` row with the reason, and counted", "[exercise][cli]") {
    CliScratchDir d;
    fs::copy_file(corpus("naive_ok.cu"), d.path + "/a_ok.cu");
    fs::copy_file(corpus("naive_ok.cu"), d.path + "/b_ok.cu");
    struct Odd {
        const char* name;
        const char* reason;
    };
    std::vector<Odd> odd = {{"UPPER.CU", "not a .cu file"},
                            {"notes.txt", "not a .cu file"},
                            {"folder.cu", "a folder"},
                            {"fifo.cu", "not a regular file"},
                            {"dangling.cu", "dangling"}};
    fs::copy_file(corpus("naive_ok.cu"), d.path + "/UPPER.CU");
    std::ofstream(d.path + "/notes.txt") << "not graded";
    fs::create_directory(d.path + "/folder.cu");
    REQUIRE(mkfifo((d.path + "/fifo.cu").c_str(), 0600) == 0);
    fs::create_symlink(d.path + "/nowhere.cu", d.path + "/dangling.cu");
    if (geteuid() != 0) {  // root reads any file
        fs::copy_file(corpus("naive_ok.cu"), d.path + "/locked.cu");
        fs::permissions(d.path + "/locked.cu", fs::perms::none);
        odd.push_back({"locked.cu", "cannot be read"});
    }
    const std::string out = d.path + "/../stencil-test-batch-" + std::to_string(getpid()) + ".csv";
    const ChildResult r = check({"--batch", d.path, "--csv", out, "-e", "naive", "--backend", "cpu"});
    const std::string csv = slurp(out);
    std::remove(out.c_str());
    CAPTURE(r.output, csv);
    bool rows = true;
    for (const Odd& o : odd) {
        const size_t at = csv.find(std::string("\"") + o.name + "\",error,0,");
        rows = rows && at != std::string::npos && csv.find(o.reason, at) < csv.find('\n', at);
    }
    const std::string summary = "2 of " + std::to_string(2 + odd.size()) + " passed; " +
                                std::to_string(odd.size()) + " could not be graded";
    REQUIRE((r.exit_code == 1 && rows && csv.find("\"a_ok.cu\",pass,1,") != std::string::npos &&
             r.output.find(summary) != std::string::npos));
}

TEST_CASE("check --gradescope: the file holds the points and the verdict", "[exercise][cli]") {
    struct Case {
        const char* file;
        double score;
    };
    const Case c = GENERATE(Case{"naive_ok.cu", 1.0}, Case{"naive_zeros.cu", 0.0},
                            Case{"escape_forge_gradescope.cu", 0.0});
    CliScratchDir d;
    const std::string gs = d.path + "/results.json";
    const ChildResult r = check({corpus(c.file), "-e", "naive", "--backend", "cpu", "--gradescope", gs});
    usleep(500 * 1000);  // escape_forge_gradescope's forger would rewrite the file once we exit
    const std::string text = slurp(gs);
    CAPTURE(c.file, r.output, text);
    const auto g = nlohmann::json::parse(text, nullptr, false);
    // points by the exercise's default rubric: all 100 for a pass (no GPU: the time item's points
    // go to the others), none here for a kernel wrong on every size
    REQUIRE((!g.is_discarded() && g["score"] == c.score * 100 &&
             g["tests"][0]["status"] == (c.score == 1.0 ? "passed" : "failed") &&
             g["extra_data"]["verdict"].is_string()));
}

TEST_CASE("check --explain and --json: the flag reaches the check, the report holds findings once", "[exercise][cli]") {
    const ChildResult r = check({corpus("tiled_no_sync.cu"), "-e", "tiled", "--backend", "cpu", "--seed", "1",
                                 "--explain", "--json", "--no-timing"});
    CAPTURE(r.output);
    const auto j = nlohmann::json::parse(r.output, nullptr, false);
    REQUIRE(!j.is_discarded());
    REQUIRE(j["verdict"] == "race");
    REQUIRE(j["evidence"]["explain"].is_array());  // the engine's steps, when it gives them
    REQUIRE(j["findings"].size() >= 1);
    REQUIRE(j["findings"][0]["sizes"].size() == j["sizes"].size());
    REQUIRE(j["findings"][0]["hint"] == 2);
    REQUIRE(j["smallest_failing_size"] == j["sizes"][0]);
    REQUIRE(j["passed_sizes"].empty());
    // text: the race's sentence once, not once per size
    const ChildResult t = check({corpus("tiled_no_sync.cu"), "-e", "tiled", "--backend", "cpu", "--seed", "1", "--explain"});
    CAPTURE(t.output);
    size_t count = 0;
    for (size_t p = t.output.find("with no __syncthreads()"); p != std::string::npos;
         p = t.output.find("with no __syncthreads()", p + 1))
        ++count;
    REQUIRE(count == 1);
}

TEST_CASE("check without --exercise takes the one the file's folder names, and says so", "[exercise][cli]") {
    const std::string dir = std::string(STENCIL_LAB_SOURCE_DIR) + "/exercises/heat2d/";
    const ChildResult r = check({dir + "solution.cu", "--backend", "cpu"});
    CAPTURE(r.output);
    CHECK(r.exit_code == 0);
    CHECK(r.output.find("no --exercise given: checking " + dir + "solution.cu as the heat2d exercise (its folder)") !=
          std::string::npos);
    // a kernel of an instructor's own folder, in its wrong/: that folder's exercise, by path
    const ChildResult w = check({dir + "wrong/off_by_one.cu", "--backend", "cpu"});
    CAPTURE(w.output);
    CHECK(w.exit_code == 1);
    CHECK(w.output.find("as the " + dir.substr(0, dir.size() - 1) + " exercise (its exercise folder)") != std::string::npos);
    CHECK(w.output.find(": unwritten") != std::string::npos);
}

TEST_CASE("exercise validate and new: exit 0 for a valid folder, 2 with one line for a spec that is wrong", "[exercise][cli]") {
    CliScratchDir tmp;
    const std::string lab = kStencilLab;
    ChildLimits lim;
    lim.wall_seconds = 300;
    const std::string mine = tmp.path + "/mine";
    ChildResult made = run_child({lab, "exercise", "new", mine, "--from", "heat2d"}, lim, tmp.path);
    CAPTURE(made.output);
    REQUIRE(made.exit_code == 0);
    const ChildResult ok = run_child({lab, "exercise", "validate", mine, "--backend", "cpu"}, lim, tmp.path);
    CAPTURE(ok.output);
    CHECK(ok.exit_code == 0);
    CHECK(ok.output.find("mine: valid") != std::string::npos);
    // the 2D five-point stencil's model: 9 FLOP per output, 9 / 4 B at one load per output
    CHECK(ok.output.find("model: 5 points, 9 FLOP per output; OP/B ") != std::string::npos);
    CHECK(ok.output.find(", 2.25 at one load per output") != std::string::npos);
    // a folder that exists is never overwritten
    const ChildResult again = run_child({lab, "exercise", "new", mine, "--from", "tiled"}, lim, tmp.path);
    CHECK(again.exit_code == 2);
    CHECK(again.output.find("exists and is not an empty folder (nothing was written)") != std::string::npos);
    // an expression with an unknown name: the file, line and column, exit 2
    std::string spec = slurp(mine + "/exercise.toml");
    spec.replace(spec.find("OUT_TILE = \"T - 2*r\""), 21, "OUT_TILE = \"T - 2*q\"");
    std::ofstream(mine + "/exercise.toml") << spec;
    const ChildResult bad = run_child({lab, "exercise", "validate", mine, "--backend", "cpu"}, lim, tmp.path);
    CAPTURE(bad.output);
    CHECK(bad.exit_code == 2);
    CHECK(bad.output.find("stencil-lab: " + mine + "/exercise.toml:") == 0);
    CHECK(bad.output.find("unknown name 'q'") != std::string::npos);
    CHECK(std::count(bad.output.begin(), bad.output.end(), '\n') == 1);
    // a wrong kernel that passes fails the validation
    std::ofstream(mine + "/exercise.toml") << slurp(std::string(STENCIL_LAB_SOURCE_DIR) + "/exercises/heat2d/exercise.toml");
    std::ofstream(mine + "/wrong/passes.cu") << "// expect: race\n" << slurp(mine + "/solution.cu");
    const ChildResult wrong = run_child({lab, "exercise", "validate", mine, "--backend", "cpu"}, lim, tmp.path);
    CAPTURE(wrong.output);
    CHECK(wrong.exit_code == 2);
    CHECK(wrong.output.find("FAIL " + mine + "/wrong/passes.cu on the CPU engine: expected race, got pass") != std::string::npos);
}
