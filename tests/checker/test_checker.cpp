// The checker on its own corpus (tests/checker/submissions): every file gets its expected verdict
// on the CPU backend; hostile files never crash or hang the checker; the pieces (vetting, the
// child-process runner, the exercise table, the output formats) do what they say.
//
// Sections: the corpus and its verdicts; host code: nothing of a submission runs natively; the
// runner's result is checked, never trusted; vetting: what the compiler sees, the vetting sees;
// sizes from the seed; static shared memory; hostile paths.
#include <catch2/catch.hpp>

#include <algorithm>

#include <dirent.h>
#include <nlohmann/json.hpp>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include "core/error.h"

#include "backends/cpu/cpu_backend.h"
#include "checker/checker.h"
#include "checker/evaluate.h"
#include "checker/exercises.h"
#include "checker/process.h"
#include "checker/protocol.h"
#include "checker/sandbox.h"
#include "checker/shared_arrays.h"
#include "checker/source.h"
#include "checker/field_exercises.h"
#include "tests/checker/checker_corpus.h"

namespace fs = std::filesystem;
using namespace stencil::checker;

namespace {

CheckOptions cpu_options(const CorpusEntry& e) {
    CheckOptions o;
    o.exercise = e.exercise;
    o.tile = e.tile;
    o.backend = "cpu";
    o.time_limit_s = e.time_limit;
    o.quick = true;  // three sizes + the load-count size: CI time; the CLI runs all sizes
    o.large_case = e.awaits == Awaits::large_sizes;  // (CI time: the entries whose bug needs it)
    return o;
}

struct TempFile {
    std::string path;
    TempFile(const std::string& name, const std::string& content) {
        path = (fs::temp_directory_path() / ("stencil-test-" + std::to_string(getpid()) + "-" + name)).string();
        std::ofstream(path, std::ios::binary) << content;
    }
    ~TempFile() { std::remove(path.c_str()); }
};

}  // namespace

namespace {

// The entry's verdict on the CPU backend, unless the entry awaits what the CPU engine lacks.
void check_on_cpu(const CorpusEntry& e) {
    if (e.cpu_verdict == nullptr) return;  // GPU-only entry
    if (!engine_has(e.awaits)) {
        WARN(e.file << " (" << e.exercise << "): left out until the CPU engine models what it needs (checker_corpus.h)");
        return;
    }
    CAPTURE(e.file, e.exercise, e.tile, e.cpu_verdict);
    const CheckResult r = check_submission(corpus(e.file), cpu_options(e));
    CAPTURE(to_text(r));
    REQUIRE(std::string(to_string(r.verdict)) == e.cpu_verdict);
}

}  // namespace

TEST_CASE("corpus: every submission gets its expected verdict on the CPU backend", "[exercise]") {
    check_on_cpu(GENERATE(from_range(corpus_entries(CorpusPart::before_issue26))));
}

TEST_CASE("corpus: issue 26's submissions get their expected verdict on the CPU backend", "[exercise]") {
    check_on_cpu(GENERATE(from_range(corpus_entries(CorpusPart::issue26))));
}

TEST_CASE("corpus: evidence names the cell, the race and the student's line", "[exercise]") {
    SECTION("wrong result: first bad cell, its class, a map") {
        const CheckResult r = check_submission(corpus("naive_off_by_one.cu"),
                                               cpu_options({"naive_off_by_one.cu", "naive", 0, "wrong_result"}));
        REQUIRE(r.evidence.first_bad.has_value());
        CHECK(r.evidence.first_bad->z >= 1);
        CHECK(!r.evidence.slice_map.empty());
        CHECK(r.evidence.message.find("expected") != std::string::npos);
        const auto j = to_json(r);
        CHECK(j["verdict"] == "wrong_result");
        CHECK(j["evidence"]["first_bad"].contains("cell"));
    }
    SECTION("unwritten: the skipped column is next to the boundary") {
        const CheckResult r = check_submission(corpus("naive_skips_cell.cu"),
                                               cpu_options({"naive_skips_cell.cu", "naive", 0, "unwritten"}));
        REQUIRE(r.evidence.first_bad.has_value());
        CHECK(r.evidence.first_bad->cell == CellClass::next_to_boundary);
    }
    SECTION("race: block and barrier interval") {
        const CheckResult r = check_submission(corpus("tiled_no_sync.cu"),
                                               cpu_options({"tiled_no_sync.cu", "tiled", 0, "race"}));
        REQUIRE(r.verdict == Verdict::race);
        REQUIRE(r.evidence.race.has_value());
        CHECK(r.evidence.race->interval == 0);
        CHECK(to_json(r)["evidence"]["race"].contains("barrier_interval"));
        // the shared cell by the student's own name and indices, not "#0 element 146"
        CAPTURE(r.evidence.message);
        CHECK(r.evidence.message.find(" of tile[") != std::string::npos);
        CHECK(r.evidence.message.find("shared array #") == std::string::npos);
    }
    SECTION("compile error: FILE.cu:line of the student's file") {
        const CheckResult r = check_submission(corpus("naive_syntax_error.cu"),
                                               cpu_options({"naive_syntax_error.cu", "naive", 0, "compile_error"}));
        REQUIRE(r.verdict == Verdict::compile_error);
        CAPTURE(r.evidence.compiler_output);
        // g++ reports the missing `;` of line 5 at the `if` of line 6
        CHECK(r.evidence.compiler_output.find("naive_syntax_error.cu:6") != std::string::npos);
        CHECK(r.evidence.compiler_output.find("simt") == std::string::npos);
    }
    SECTION("a passing kernel: loads per output within the budget, every test with its size") {
        const CheckResult r = check_submission(corpus("tiled_ok.cu"),
                                               cpu_options({"tiled_ok.cu", "tiled", 0, "pass"}));
        REQUIRE(r.verdict == Verdict::pass);
        REQUIRE(r.loads.has_value());
        // counted in one of the checked runs, not in an extra launch nobody checks
        CHECK(r.loads->source.find("checked run") != std::string::npos);
        CHECK(r.loads->within_budget);
        CHECK(r.loads->loads_per_output == Approx(r.loads->budget));
        // one test per size, each naming its size; the sizes drawn from the seed are told apart (a
        // rubric's hidden tests, grading/score.h)
        CHECK(r.tests.size() == r.sizes.size());
        for (const auto& t : r.tests) CHECK(std::find(r.sizes.begin(), r.sizes.end(), t.size) != r.sizes.end());
        CHECK_FALSE(r.drawn_sizes.empty());
        for (int n : r.drawn_sizes) CHECK(std::find(r.sizes.begin(), r.sizes.end(), n) != r.sizes.end());
    }
}

// Every diagnosis of the CPU engine names the line of the student's file it came from.
TEST_CASE("corpus: engine diagnostics name the student's line", "[exercise]") {
    struct Case {
        const char* file;
        const char* exercise;
        const char* verdict;
        const char* says;  // in the message, after the line
    };
    const Case c = GENERATE(
        Case{"naive_pads_past_end.cu", "naive", "out_of_bounds_write", "out-of-bounds store of out["},
        Case{"naive_writes_input.cu", "naive", "input_modified", "a store to in["},
        // NVRTC compiles the store through a null pointer to `trap`
        Case{"naive_null_deref.cu", "naive", "crash", "executed trap"},
        Case{"naive_reads_past_alloc.cu", "naive", "crash", "out-of-bounds load of in["},
        Case{"tiled_no_sync.cu", "tiled", "race", "with no __syncthreads() between them"},
        Case{"tiled_early_return.cu", "tiled", "race", "__syncthreads()"},
        Case{"naive_endless_loop.cu", "naive", "timeout", ""},
        Case{"hole_typedef_tile_race.cu", "tiled", "race", "of tile element "});
    CAPTURE(c.file);
    const CheckResult r = check_submission(corpus(c.file), cpu_options({c.file, c.exercise, 0, c.verdict}));
    CAPTURE(to_text(r));
    REQUIRE(std::string(to_string(r.verdict)) == c.verdict);
    REQUIRE(r.evidence.line.has_value());
    CHECK(r.evidence.line->file == c.file);
    CHECK(r.evidence.line->line > 0);
    CHECK(r.evidence.message.find(fmt::format("{}:{}", c.file, r.evidence.line->line)) != std::string::npos);
    CHECK(r.evidence.message.find(c.says) != std::string::npos);
}

// The table itself: where the backends may differ, it is the CPU that is stricter, for a reason
// the table names (checker_corpus.h); everywhere else they must agree.
TEST_CASE("corpus: GPU verdicts differ from the CPU's only where the CPU is stricter", "[exercise]") {
    for (const auto& e : corpus_entries()) {
        if (!e.gpu_verdict || !e.cpu_verdict) continue;
        CAPTURE(e.file, e.exercise, e.cpu_verdict, e.gpu_verdict);
        if (e.cpu_stricter == Stricter::no) {
            CHECK(std::string(e.gpu_verdict) == e.cpu_verdict);
            continue;
        }
        const std::string may = std::string("|") + gpu_may_show(e.cpu_stricter) + "|";
        std::string gpu = e.gpu_verdict;
        for (size_t a = 0; a <= gpu.size();) {
            const size_t b = std::min(gpu.find('|', a), gpu.size());
            CHECK(may.find("|" + gpu.substr(a, b - a) + "|") != std::string::npos);
            a = b + 1;
        }
    }
}

TEST_CASE("hostile files end in compile_error without running anything", "[exercise]") {
    struct Hostile {
        const char* name;
        std::string content;
        const char* says;
    };
    const std::string sig = "__global__ void stencil_kernel(float* in, float* out, unsigned int N) { }\n";
    const std::vector<Hostile> files = {
        {"empty.cu", "", "empty"},
        {"blank.cu", "\n\n  \n", "empty"},
        {"binary.cu", std::string("\x7f" "ELF\x02\x01\x01\0\0\0", 10) + sig, "not a text file"},
        {"huge.cu", sig + std::string(kMaxSourceBytes, ' '), "larger than"},
        {"no_kernel.cu", "__device__ float f(float x) { return x; }\n", "no kernel"},
        {"two_kernels.cu", sig + "__global__ void other(float* a) { }\n", "2 __global__"},
        {"wrong_sig.cu", "__global__ void stencil_kernel(int* in, int* out, unsigned int N) { }\n",
         "wrong signature"},
        {"mixed_types.cu", "__global__ void stencil_kernel(float* in, double* out, unsigned int N) { }\n",
         "wrong signature"},
        // double is the fp64 exercises' type: for an fp32 exercise the message names the precision
        {"wrong_precision.cu", "__global__ void stencil_kernel(double* in, double* out, unsigned int N) { }\n",
         "wrong precision: the naive exercise is single precision"},
        {"wrong_name.cu", "__global__ void stencil(float* in, float* out, unsigned int N) { }\n",
         "must be declared"},
        {"template.cu", "template <int T>\n__global__ void stencil_kernel(float* in, float* out, unsigned int N) { }\n",
         "template"},
        {"include.cu", "#include <cstdlib>\n" + sig, "#include is not allowed"},
        {"include_spliced.cu", "#\\\ninclude <cstdlib>\n" + sig, "#include is not allowed"},
        {"digraph.cu", "%:include <cstdlib>\n" + sig, "not allowed"},
        // #line would misplace every line the evidence names
        {"line.cu", "#line 1 \"other.cu\"\n" + sig, "#line is not allowed"},
        // NVRTC compiles device code only: a host function is unknown to it
        {"system.cu", "__global__ void stencil_kernel(float* in, float* out, unsigned int N) { system(\"rm -rf /\"); }\n",
         "system.cu:1: error: identifier \"system\" is undefined"},
        {"asm.cu", "__global__ void stencil_kernel(float* in, float* out, unsigned int N) { asm(\"trap;\"); }\n",
         "`asm`"},
        {"pragma_op.cu", "__global__ void stencil_kernel(float* in, float* out, unsigned int N) { _Pragma(\"message(1)\") }\n",
         "`_Pragma`"},
        {"extern_shared.cu", "__global__ void stencil_kernel(float* in, float* out, unsigned int N) { extern __shared__ float s[]; }\n",
         "dynamic shared"},
        {"redefine_tile.cu", "#define IN_TILE_DIM 4\n" + sig, "harness defines it"},
        {"pragma.cu", "#pragma GCC optimize(\"O0\")\n" + sig, "#pragma unroll"},
    };
    for (const auto& h : files) {
        CAPTURE(h.name);
        TempFile f(h.name, h.content);
        CheckOptions o;
        o.backend = "cpu";
        const CheckResult r = check_submission(f.path, o);
        CAPTURE(r.evidence.message, r.evidence.compiler_output);
        CHECK(r.verdict == Verdict::compile_error);
        CHECK((r.evidence.message + r.evidence.compiler_output).find(h.says) != std::string::npos);
    }
}

TEST_CASE("vetting ignores comments and strings, and keeps line numbers", "[exercise]") {
    const std::string src =
        "// #include <stdio.h> and system() in a comment are fine\n"
        "/* __global__ void other() */\n"
        "__global__ void stencil_kernel(const float* __restrict__ in,\n"
        "                               float* out, unsigned N) {\n"
        "    __shared__ float t[IN_TILE_DIM];\n"
        "}\n";
    const VettedSource v = vet_source(src, "x.cu");
    REQUIRE(v.ok);
    // the file as it is after the harness: both backends compile this, and line 5 is line 5
    const std::string tu = translation_unit(v, *find_exercise("tiled"), 8);
    CHECK(tu.find("__constant__ float c0, c1, c2, c3, c4, c5, c6;") != std::string::npos);
    const auto at = tu.find("#line 1 \"x.cu\"\n");
    REQUIRE(at != std::string::npos);
    CHECK(tu.substr(at + 15) == src + "\n");
}

TEST_CASE("the child runner: limits end a hang and a crash in a result", "[exercise]") {
    ChildLimits lim;
    lim.wall_seconds = 1;
    const ChildResult hang = run_child({"sh", "-c", "sleep 30"}, lim);
    CHECK(hang.timed_out);
    CHECK(hang.seconds < 10);
    const ChildResult seg = run_child({"sh", "-c", "kill -SEGV $$"}, lim);
    CHECK(seg.signal == SIGSEGV);
    const ChildResult out = run_child({"sh", "-c", "echo hello; exit 3"}, lim);
    CHECK(out.exit_code == 3);
    CHECK(out.output == "hello\n");
    const ChildResult missing = run_child({"/nonexistent/program"}, lim);
    CHECK_FALSE(missing.ok());
    // a child that prints without end: the output kept is bounded
    lim.max_output_bytes = 1000;
    const ChildResult spam = run_child({"sh", "-c", "yes"}, lim);
    CHECK(spam.output.size() <= 1000);
}

TEST_CASE("exercise table: launch geometry and the load budget", "[exercise]") {
    const Exercise* tiled = find_exercise("tiled");
    REQUIRE(tiled);
    const Launch l = launch_for(*tiled, 13, 8);
    CHECK(l.grid[0] == 3);  // ceil(13 / 6)
    CHECK(l.block[2] == 8);
    const Exercise* coarse = find_exercise("coarsened");
    const Launch c = launch_for(*coarse, 61, 32);
    CHECK(c.grid[2] == 3);  // ceil(61 / 30)
    CHECK(c.block[2] == 1);
    CHECK(load_budget(*find_exercise("naive"), 20, 8) == 7.0);
    // sizes include one smaller than a tile and ones that are not multiples of OUT_TILE_DIM
    for (const auto& ex : exercises()) {
        if (!ex.is_star3d()) continue;  // their cases: field_exercises.h (the next test)
        const auto sizes = test_sizes(ex, default_tile(ex), false);
        CAPTURE(ex.name);
        CHECK(sizes.front() < default_tile(ex));
        CHECK(std::any_of(sizes.begin(), sizes.end(),
                          [&](int n) { return n % out_tile_dim(ex, default_tile(ex)) != 0; }));
        CHECK(tile_problem(ex, default_tile(ex)).empty());
    }
    CHECK_FALSE(tile_problem(*tiled, 11).empty());  // 1331 threads
    // radius 2: OUT_TILE_DIM = T - 4, a tile needs T >= 5, grids start at 5 (one interior cell)
    const Exercise* r2 = find_exercise("tiled-r2");
    REQUIRE(r2);
    CHECK(out_tile_dim(*r2, 8) == 4);
    CHECK_FALSE(tile_problem(*r2, 4).empty());
    CHECK(test_sizes(*r2, 8, true).front() == 5);
    CHECK(kernel_signature(*find_exercise("register-tiled-f64")) ==
          "__global__ void stencil_kernel(double* in, double* out, unsigned int N)");
    CHECK(weight_names(*r2) == "c0..c12");
}

// The budget is "the textbook kernel's count": it must be exactly what the lab's own kernel of
// the exercise loads (its kernels/*.cuh, traced on the CPU backend) at the count size, for every
// exercise, radius and precision. At T = 6 the radius-2 tile loads 27 per output, more than the
// 13 of a naive 13-point kernel: the lesson of tiled-r2.
TEST_CASE("the load budget is the lab kernel's own count, traced", "[exercise]") {
    const auto& ex = GENERATE(from_range(exercises().begin(), exercises().end()));
    if (!ex.is_star3d()) return;  // the other problems: the next test
    const int T = default_tile(ex);
    const int n = load_count_size(ex, T);
    CAPTURE(ex.name, T, n);
    const stencil::LaunchRequest req{ex.kernel(), T, ex.radius, ex.precision, {n, n, n}};
    const stencil::StencilWeights w = stencil::random_weights(ex.radius, 5).rounded_to(ex.precision);
    stencil::CpuOptions o;
    o.exec.trace.count = true;
    const size_t bytes = static_cast<size_t>(n) * n * n * stencil::bytes_of(ex.precision);
    std::vector<unsigned char> in(bytes, 0), out(bytes, 0);
    const auto run = stencil::run_cpu(req, w, in.data(), out.data(), o);
    REQUIRE(run.ok());
    const double outputs = std::pow(n - 2.0 * ex.radius, 3);
    CHECK(double(run.report.counts.global_loads) / outputs == Approx(load_budget(ex, n, T)).epsilon(1e-12));
    if (std::string(ex.name) == "tiled-r2") {  // on a large grid: (T / (T - 4))^3
        CHECK(load_budget(ex, 1002, 6) == Approx(27.0).epsilon(0.01));  // > 13, the naive count
        CHECK(load_budget(ex, 1004, 8) == Approx(8.0).epsilon(0.01));
    }
}

// cardiac-shared and x-derivative: the budget is the lab's kernel's exact count (field_exercises.cpp
// derives it from the table's tile). The corpus's correct submissions are the lab's kernels as a
// student writes them, so the engine's count of their checked run must equal it exactly; the
// kernels that read every neighbour from global memory pass with a warning.
TEST_CASE("the other problems' load budget is the lab kernel's count", "[exercise]") {
    struct Case {
        const char* file;
        const char* exercise;
        double loads_per_output;  // at the count size
        bool within;
    };
    const Case c = GENERATE(Case{"cardiac_shared_ok.cu", "cardiac-shared", -1, true},
                            Case{"cardiac_fused_global.cu", "cardiac-shared", 6, false},
                            Case{"derivative_x_ok.cu", "x-derivative", 1, true},
                            Case{"derivative_x_global.cu", "x-derivative", 8, false});
    CAPTURE(c.file);
    const CheckResult r = check_submission(corpus(c.file), cpu_options({c.file, c.exercise, 0, "pass"}));
    CAPTURE(to_text(r));
    REQUIRE(r.verdict == Verdict::pass);
    REQUIRE(r.loads.has_value());
    CHECK(r.loads->within_budget == c.within);
    if (c.within) CHECK(r.loads->loads_per_output == Approx(r.loads->budget).epsilon(1e-12));
    if (c.loads_per_output > 0) CHECK(r.loads->loads_per_output == Approx(c.loads_per_output).epsilon(1e-12));
    CHECK(r.warnings.empty() == c.within);
}

TEST_CASE("verdict names round-trip", "[exercise]") {
    for (Verdict v : {Verdict::internal_error, Verdict::pass, Verdict::compile_error, Verdict::wrong_result, Verdict::unwritten,
                      Verdict::boundary_modified, Verdict::input_modified, Verdict::out_of_bounds_write,
                      Verdict::race, Verdict::timeout, Verdict::crash})
        CHECK(parse_verdict(to_string(v)) == v);
}

// ---- host code: nothing of a submission runs natively ---------------------------------------------

namespace {

// A process whose command line contains `needle`, other than this one.
bool process_running(const std::string& needle) {
    for (const auto& e : fs::directory_iterator("/proc")) {
        const std::string pid = e.path().filename().string();
        if (pid.find_first_not_of("0123456789") != std::string::npos || pid == std::to_string(getpid()))
            continue;
        std::ifstream f(e.path() / "cmdline", std::ios::binary);
        std::string cmd((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
        std::replace(cmd.begin(), cmd.end(), '\0', ' ');
        if (cmd.find(needle) != std::string::npos) return true;
    }
    return false;
}

struct Escape {
    const char* file;
    const char* marker;  // under /tmp: what the code would create if it ran
    const char* says;    // NVRTC's reason, on the student's line
};

}  // namespace

// NVRTC compiles device code only, on both backends: host functions are unknown to it, host
// objects and functions are refused, and an external device function cannot be linked or loaded.
TEST_CASE("host code that tries to get out does not compile and changes nothing", "[exercise][sandbox]") {
    const Escape e = GENERATE(
        Escape{"escape_exec.cu", "exec", "escape_exec.cu:7: error: identifier \"execvpe\" is undefined"},
        Escape{"escape_fork.cu", "fork", "escape_fork.cu:5: error: identifier \"daemon\" is undefined"},
        Escape{"escape_write.cu", "write", "escape_write.cu:5: error: identifier \"fopen64\" is undefined"},
        Escape{"escape_setsid_exec.cu", "setsid", "escape_setsid_exec.cu:5: error: identifier \"setsid\" is undefined"},
        Escape{"escape_kill_parent.cu", "none", "escape_kill_parent.cu:9: error: identifier \"execvpe\" is undefined"},
        Escape{"hole_host_static_ctor.cu", "static", "host functions are not allowed"},
        Escape{"hole_extern_device_call.cu", "extern", "system"});
    const std::string marker = std::string("/tmp/stencil-lab-escape-") + e.marker + ".marker";
    std::remove(marker.c_str());
    CAPTURE(e.file);
    const CheckResult r = check_submission(corpus(e.file), cpu_options({e.file, "naive", 0, "compile_error"}));
    CAPTURE(to_text(r));
    const bool contained = r.verdict == Verdict::compile_error && !fs::exists(marker) &&
                           !process_running("sleep 1171") &&
                           r.evidence.compiler_output.find(e.says) != std::string::npos;
    REQUIRE(contained);
}

// The CPU runner's second wall (checker/sandbox.h): once the filter is on, an exec is trapped and
// the runner ends with one line naming the call. Nothing of a submission runs natively, so no
// submission can reach it: the runner's own probe does.
TEST_CASE("the CPU runner's seccomp filter traps an exec", "[exercise][sandbox]") {
    const std::string dir = (fs::temp_directory_path() / ("stencil-test-probe-" + std::to_string(getpid()))).string();
    fs::create_directories(dir);
    Request probe;
    probe.mode = RunnerMode::probe_sandbox;
    std::ofstream(dir + "/probe.json") << nlohmann::json(probe).dump();
    ChildLimits lim;
    lim.wall_seconds = 30;
    const ChildResult r = run_child({std::string(STENCIL_LAB_BINARY_DIR) + "/stencil-check-runner", "probe.json"}, lim, dir);
    fs::remove_all(dir);
    CAPTURE(r.describe(), r.output);
    REQUIRE((r.exit_code == kForbiddenCallExit && r.output.find("forbidden system call execve") != std::string::npos));
}

// NVRTC's compile is bounded by the runner's own clock: past it, the runner ends with the exit
// code the parent reads as "NVRTC did not finish" (a compile_error), whatever NVRTC is doing.
TEST_CASE("the runner ends a compile that runs past its limit", "[exercise]") {
    const std::string dir = (fs::temp_directory_path() / ("stencil-test-clock-" + std::to_string(getpid()))).string();
    fs::create_directories(dir);
    std::ofstream(dir + "/tu.cu") << "__global__ void stencil_kernel(float* in, float* out, unsigned int N) { }\n";
    Request req;
    req.mode = RunnerMode::cpu;
    req.source = "tu.cu";
    req.display_name = "tu.cu";
    req.kernel_name = "stencil_kernel";
    req.constants = {{"c0", {1}}};
    req.compile_seconds = 0.001;
    req.compile_memory_bytes = kCompileMemoryBytes;
    req.time_limit = 10;
    std::ofstream(dir + "/request.json") << nlohmann::json(req).dump();
    ChildLimits lim;
    lim.wall_seconds = 60;
    const ChildResult r = run_child({std::string(STENCIL_LAB_BINARY_DIR) + "/stencil-check-runner", "request.json"}, lim, dir);
    fs::remove_all(dir);
    CAPTURE(r.describe(), r.output);
    REQUIRE((r.exit_code == kCompileTimeLimitExit && r.output.find("NVRTC ran past its time limit") != std::string::npos));
}

// ---- the runner's result is checked, never trusted ----------------------------------------------

TEST_CASE("a malformed runner result is a crash with a clear message, not an exception", "[exercise]") {
    // A well-formed result with one run and one diagnostic, then broken one field at a time.
    Result good;
    RunOutcome run;
    run.diagnostics.push_back(EngineDiagnostic{});
    good.runs.push_back(run);
    const nlohmann::json base = good;
    const std::string forged = GENERATE_COPY(
        [&] { auto j = base; j.erase("runs"); return j.dump(); }(),
        [&] { auto j = base; j["runs"] = 3; return j.dump(); }(),
        [&] { auto j = base; j["runs"][0]["diagnostics"][0]["kind"] = 5; return j.dump(); }(),
        [&] { auto j = base; j["runs"][0]["diagnostics"][0]["kind"] = "gremlin"; return j.dump(); }(),
        [&] { auto j = base; j["runs"][0]["launch_error"] = 17; return j.dump(); }(),
        [&] { auto j = base; j["runs"][0]["diagnostics"][0]["block"] = {1}; return j.dump(); }(),
        [&] { auto j = base; j["counts"] = {{"case", 0}, {"global_loads", "many"}, {"source", ""}}; return j.dump(); }(),
        std::string("[1, 2]"), std::string("{\"runs\": [}"));
    CAPTURE(forged);
    const Exercise& ex = *find_exercise("naive");
    std::vector<TestCase> cases = {make_case(ex, 5, 8, 1)};
    cases[0].runs = {RunSpec{}};
    ChildResult child;
    child.started = true;
    child.exit_code = 0;
    const Judgement j = judge_runs(ex, 8, stencil::random_weights(1, 1), cases,
                                   result_file_from_text(forged), child, "/nonexistent");
    CAPTURE(j.evidence.message);
    REQUIRE((j.verdict == Verdict::crash &&
             j.evidence.message.find(kMalformedResult) != std::string::npos));
}

// ---- vetting: what the compiler sees, the vetting sees --------------------------------------------

// The vetting's few rules (no inline PTX here) hold whatever the spelling: it lexes the file as
// the compiler does.
TEST_CASE("vetting sees through splices, digit separators and raw strings", "[exercise]") {
    const std::string head = "__global__ void stencil_kernel(float* in, float* out, unsigned int N) {\n";
    const std::string src = GENERATE(
        std::string("    as\\\nm(\"trap;\");\n}\n"),        // line splice
        std::string("    as\\  \nm(\"trap;\");\n}\n"),      // splice with trailing blanks (GCC)
        std::string("    int a = 1'0; asm(\"trap;\"); int b = 0'1;\n}\n"),
        std::string("    const char* s = R\"(\")\"; asm(\"trap;\"); //\"\n}\n"),
        std::string("    const char* s = u8R\"d()\")d\"; asm(\"trap;\");\n}\n"));
    CAPTURE(src);
    const VettedSource v = vet_source(head + src, "x.cu");
    REQUIRE(v.problem.find("`asm` is not allowed") != std::string::npos);
}

TEST_CASE("vetting keeps valid code with separators, splices and strings", "[exercise]") {
    const std::string src =
        "#define SUM(a, b) \\\n    ((a) + \\\n     (b))\n"
        "__global__ void stencil_kernel(float* in, float* out, unsigned int N) {\n"
        "    const int big = 1'000'000; const float f = 1.5e-3f; const char c = '\\'';\n"
        "    (void)big; (void)f; (void)c;\n"
        "    out[SUM(1, 2)] = 0;\n"
        "}\n";
    const VettedSource v = vet_source(src, "x.cu");
    CAPTURE(v.problem);
    // and the kernel line keeps its number (4) after the splices of lines 1-3
    REQUIRE((v.ok && std::count(v.text.begin(), v.text.begin() + v.text.find("__global__"), '\n') == 3));
}

// The declaration's spellings are NVRTC's to accept: the text vetting reads only the kernel's
// name and its body; the parameters' types are checked on the PTX (tests/checker/
// test_ptx_vetting.cpp), where no spelling can mislead.
TEST_CASE("vetting accepts every spelling of the kernel's declaration", "[exercise][vetting]") {
    const std::string body = " { }\n";
    const std::string decl = GENERATE(
        std::string("__global__ void __launch_bounds__(256) stencil_kernel(float* in, float* out, unsigned int N)"),
        std::string("__global__ __launch_bounds__(256, 2) void stencil_kernel(float* in, float* out, unsigned int N)"),
        std::string("void __global__ stencil_kernel(float* in, float* out, unsigned int N)"),
        std::string("__global__ void stencil_kernel(float* in, float* out, unsigned int /*N*/)"),
        std::string("__global__ void stencil_kernel(const float* __restrict__ in, float* const __restrict__ out, const unsigned N)"),
        std::string("typedef float real;\n__global__ void stencil_kernel(const real* in, real* out, unsigned int N)"),
        std::string("__global__ void stencil_kernel(float in[], float out[], unsigned int N = 64)"),
        std::string("__global__ auto stencil_kernel(float* in, float* out, unsigned int N) -> void"),
        std::string("extern \"C\" __global__ void stencil_kernel(float* in, float* out, unsigned int N)"),
        std::string("static __global__ void (stencil_kernel)(float* in, float* out, unsigned int N)"),
        std::string("__global__ void\nstencil_kernel(float* in,\n               float* out,\n               unsigned int N)"));
    CAPTURE(decl);
    const VettedSource v = vet_source(decl + body, "x.cu");
    CAPTURE(v.problem);
    REQUIRE(v.ok);
}

TEST_CASE("vetting still refuses a kernel of another name, a template or no body, in one line", "[exercise][vetting]") {
    struct Case {
        std::string source;
        SourceProblem kind;
    };
    const Case c = GENERATE(
        Case{"__global__ void __launch_bounds__(256) stencil(float* in, float* out, unsigned int N) { }\n",
             SourceProblem::declaration},
        Case{"__global__ void stencil_kernel_v2(float* in, float* out, unsigned int N) { }\n", SourceProblem::declaration},
        Case{"template <typename T>\n__global__ void stencil_kernel(T* in, T* out, unsigned int N) { }\n",
             SourceProblem::template_kernel},
        Case{"__global__ void stencil_kernel(float* in, float* out, unsigned int N);\n", SourceProblem::definition},
        Case{"__global__ void stencil_kernel(float* in, float* out, unsigned int N) { }\n__global__ void b() { }\n",
             SourceProblem::several_kernels});
    CAPTURE(c.source);
    const VettedSource v = vet_source(c.source, "x.cu");
    CAPTURE(v.problem);
    REQUIRE((!v.ok && v.kind == c.kind && v.problem.find('\n') == std::string::npos &&
             v.problem.rfind("x.cu", 0) == 0));
}

// Both backends compile the file with NVRTC and run the same PTX: a test of the compiler or the
// platform cannot tell them apart, so the contract has no rule about it.
TEST_CASE("vetting leaves tests of the compiler or platform to the compiler", "[exercise]") {
    const std::string test = GENERATE(std::string("#ifdef __CUDACC__"), std::string("#if defined(__CUDA_ARCH__)"),
                                      std::string("#ifndef __CUDACC_RTC__"), std::string("#if __GNUC__ > 3"),
                                      std::string("#ifdef __x86_64__"));
    const std::string src = "__global__ void stencil_kernel(float* in, float* out, unsigned int N) {\n" +
                            test + "\n    out[0] = 0;\n#endif\n}\n";
    CAPTURE(src);
    const VettedSource v = vet_source(src, "x.cu");
    CAPTURE(v.problem);
    REQUIRE(v.ok);
}

// ---- sizes from the seed ---------------------------------------------------------------------------

TEST_CASE("the other problems' cases: sizes, launch, arguments", "[exercise]") {
    const std::uint64_t seed = GENERATE(1ull, 0xdeadbeefull);
    int timing = -1;
    const Exercise& cardiac = *find_exercise("cardiac-shared");
    CHECK(tile_problem(cardiac, 16).empty());
    CHECK(tile_problem(cardiac, 8).find("fixed") != std::string::npos);
    const auto c = make_field_cases(cardiac, default_tile(cardiac), seed, false, true, false, false, timing);
    CHECK(timing == -1);
    std::vector<int> ns;
    for (const FieldCase& f : c) ns.push_back(f.n);
    CAPTURE(ns);
    CHECK(ns.front() == 1);                                                               // one cell
    CHECK(std::any_of(ns.begin(), ns.end(), [](int n) { return n > 16 && n % 16 != 0; }));  // a partial tile
    CHECK(std::any_of(ns.begin(), ns.end(), [](int n) { return n >= 50; }));              // drawn from the seed
    for (const FieldCase& f : c) {
        CHECK(f.dims == stencil::GridDims{f.n + 2, f.n + 2, 1});
        CHECK(f.launch.grid[0] == unsigned((f.n + 15) / 16));
        CHECK(f.launch.block[0] * f.launch.block[1] == 256u);
        REQUIRE(f.args.size() == 6);
        CHECK(f.args[3].value == f.n);
        CHECK(f.buffers[0].read_only);
        CHECK(f.runs.size() == (f.large ? 1u : 3u));  // checker/run_plan.h
    }
    CHECK((c.back().large && c.back().n >= 128));
    const Exercise& dx = *find_exercise("x-derivative");
    const auto d = make_field_cases(dx, default_tile(dx), seed, false, true, true, true, timing);
    REQUIRE(timing == int(d.size()) - 1);
    CHECK(d[size_t(timing)].runs.size() == 1);  // the timed case: one checked run, 20 timed
    // the timed case is the GPU's alone; the large one before it runs on every backend
    CHECK((d[size_t(timing)].gpu_only && !d[size_t(timing) - 1].gpu_only && d[size_t(timing) - 1].large &&
           !d.front().gpu_only));
    for (const FieldCase& f : d) {
        CAPTURE(f.label);
        CHECK(f.dims.nx == 64);
        CHECK(f.n % 4 == 0);  // my: whole blocks of sPencils rows
        CHECK(f.launch.grid[0] == unsigned(f.n / 4));
        CHECK(f.launch.grid[1] == unsigned(f.dims.nz));
        CHECK(f.lab_loads == f.dims.cells());
    }
}

TEST_CASE("each check adds an odd prime, an even size and one above 64, from its seed", "[exercise]") {
    const Exercise& ex = GENERATE(from_range(exercises()));
    if (!ex.is_star3d()) return;  // the test above
    const std::uint64_t seed = GENERATE(1ull, 2ull, 0xdeadbeefull, 12345678901ull);
    const auto fixed = test_sizes(ex, default_tile(ex), false);
    const auto extra = random_sizes(ex, default_tile(ex), seed, fixed);
    CAPTURE(ex.name, seed, extra);
    auto is_prime = [](int n) {
        for (int d = 2; d * d <= n; ++d)
            if (n % d == 0) return false;
        return n > 2;
    };
    auto untested = [&](int n) { return std::find(fixed.begin(), fixed.end(), n) == fixed.end(); };
    REQUIRE((extra.size() == 3 && is_prime(extra[0]) && extra[1] % 2 == 0 && extra[2] > 64 &&
             extra[2] <= 80 && untested(extra[0]) && untested(extra[1]) && untested(extra[2]) &&
             random_sizes(ex, default_tile(ex), seed, fixed) == extra));
}

TEST_CASE("the report lists every size tested", "[exercise]") {
    const CheckResult r = check_submission(corpus("naive_ok.cu"), cpu_options({"naive_ok.cu", "naive", 0, "pass"}));
    REQUIRE((r.sizes.size() == r.tests.size() && to_json(r)["sizes"].size() == r.sizes.size() &&
             std::any_of(r.sizes.begin(), r.sizes.end(), [](int n) { return n > 64; })));
}

// ---- static shared memory ----------------------------------------------------------------------------

TEST_CASE("more than 48 KiB of static shared memory is a compile error that says so", "[exercise]") {
    const CheckResult r = check_submission(corpus("tiled_too_much_shared.cu"),
                                           cpu_options({"tiled_too_much_shared.cu", "tiled", 0, "compile_error"}));
    CAPTURE(r.evidence.message);
    // 256 KiB of scratch + the 8^3 tile
    REQUIRE(r.evidence.message.find("264192 bytes") != std::string::npos);
}

// ---- hostile paths ---------------------------------------------------------------------------------------

TEST_CASE("a path that is not a regular file is a user error, not a hang", "[exercise]") {
    const std::string dir = (fs::temp_directory_path() / ("stencil-test-paths-" + std::to_string(getpid()))).string();
    fs::create_directories(dir + "/folder.cu");
    mkfifo((dir + "/fifo.cu").c_str(), 0600);
    const std::string which = GENERATE(std::string("/fifo.cu"), std::string("/folder.cu"), std::string("/missing.cu"));
    CheckOptions o;
    o.backend = "cpu";
    o.exercise = "naive";
    std::string what;
    try {
        check_submission(dir + which, o);
    } catch (const stencil::UserError& e) {
        what = e.what();
    }
    fs::remove_all(dir);
    CAPTURE(which, what);
    REQUIRE(what.find(which.substr(1)) != std::string::npos);
}

// Every exercise's skeleton (exercises/<name>/stencil.cu) compiles under its own harness (the
// signature, the weights and the macros it was written for) and is not a solution: its TODOs
// leave cells unwritten, or, for find-the-race, its bug is a race.
TEST_CASE("every exercise's skeleton compiles and does not pass", "[exercise]") {
    const auto& ex = GENERATE(from_range(exercises().begin(), exercises().end()));
    CAPTURE(ex.name);
    CheckOptions o;
    o.exercise = ex.name;
    o.backend = "cpu";
    o.quick = true;
    o.count_loads = false;
    const CheckResult r = check_submission(std::string(STENCIL_LAB_SOURCE_DIR) + "/exercises/" +
                                               ex.name + "/stencil.cu", o);
    CAPTURE(to_text(r));
    CHECK(r.verdict == (std::string(ex.name) == "find-the-race" ? Verdict::race : Verdict::unwritten));
}

// The find-the-race kernel's race is between threads (3,2,2) and (2,2,2) on tile[2][2][2] in
// every block, whichever worker runs it, on the line of the student's load.
TEST_CASE("race evidence names the student's shared cell and line on every worker", "[exercise]") {
    CheckOptions o;
    o.exercise = "find-the-race";
    o.backend = "cpu";
    o.count_loads = false;
    const CheckResult r = check_submission(std::string(STENCIL_LAB_SOURCE_DIR) + "/exercises/find-the-race/stencil.cu", o);
    REQUIRE(r.verdict == Verdict::race);
    int failing = 0;
    for (const auto& t : r.tests) {
        if (t.passed) continue;
        ++failing;
        CAPTURE(t.output);
        CHECK(t.output.find("of tile[2][2][2] with no __syncthreads()") != std::string::npos);
        CHECK(t.output.find(" at stencil.cu:") != std::string::npos);
    }
    CHECK(failing >= 5);
    REQUIRE(r.evidence.line.has_value());
    CHECK(r.evidence.line->file == "stencil.cu");
    CHECK(to_json(r)["evidence"]["source"]["line"] == r.evidence.line->line);
}

// Shared cells by the student's own names and indices: extents read off plain declarations (the
// harness's macros and the file's own #defines evaluated); anything else by its flat element.
TEST_CASE("shared arrays are named as declared, or by their flat element", "[exercise]") {
    const Exercise& tiled = *find_exercise("tiled");
    const std::string src =
        "#define PAD (IN_TILE_DIM + 1)\n"
        "typedef float Tile[IN_TILE_DIM][IN_TILE_DIM];\n"
        "__global__ void stencil_kernel(float* in, float* out, unsigned int N) {\n"
        "    __shared__ float a[4], b[IN_TILE_DIM][2];\n"
        "    __shared__ volatile double t[OUT_TILE_DIM][PAD]; // a comment [9]\n"
        "    __shared__ Tile typed;\n"
        "}\n";
    const SharedArrays arrays = find_shared_arrays(src, tiled, 8);
    CHECK(shared_cell_name(arrays, "a", 3 * 4, 4) == "a[3]");
    CHECK(shared_cell_name(arrays, "b", (5 * 2 + 1) * 4, 4) == "b[5][1]");
    CHECK(shared_cell_name(arrays, "t", (2 * 9 + 7) * 8, 8) == "t[2][7]");  // 6 x 9 doubles
    CHECK(shared_cell_name(arrays, "typed", 146 * 4, 4) == "typed element 146");
    CHECK(shared_cell_name(arrays, "a", 40 * 4, 4) == "a element 40");  // past its 4 cells
    CHECK(shared_cell_name(arrays, "", 8, 4) == "shared array element 2");
}

// Shared arrays declared in every form compile and run (NVRTC, as on the GPU).
TEST_CASE("kernels with named and unnamed shared arrays compile and pass", "[exercise]") {
    const std::string path = std::string(STENCIL_LAB_BINARY_DIR) + "/checker-shared-forms.cu";
    {
        std::ofstream f(path);
        f << "#define SH __shared__ float\n"
             "__global__ void stencil_kernel(float* in, float* out, unsigned int N) {\n"
             "    __shared__ float volatile unused[4], also[2];\n"
             "    SH spare[2];\n"
             "    unsigned int i = blockIdx.z * blockDim.z + threadIdx.z;\n"
             "    unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;\n"
             "    unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1)\n"
             "        out[i*N*N + j*N + k] = c0 * in[i*N*N + j*N + k] + c1 * in[i*N*N + j*N + k - 1]"
             " + c2 * in[i*N*N + j*N + k + 1] + c3 * in[i*N*N + (j - 1)*N + k] + c4 * in[i*N*N + (j + 1)*N + k]"
             " + c5 * in[(i - 1)*N*N + j*N + k] + c6 * in[(i + 1)*N*N + j*N + k];\n"
             "}\n";
    }
    CheckOptions o;
    o.exercise = "naive";
    o.backend = "cpu";
    o.quick = true;
    o.count_loads = false;
    const CheckResult r = check_submission(path, o);
    CAPTURE(to_text(r));
    CHECK(r.verdict == Verdict::pass);
}

TEST_CASE("vetting applies the contract to what the preprocessor keeps, and takes every #pragma unroll form",
          "[exercise]") {
    const std::string kernel = "__global__ void stencil_kernel(float* in, float* out, unsigned int N) { }\n";
    const std::string other = "__global__ void other(float* a) { }\n";
    struct Case {
        const char* what;
        std::string text;
        bool ok;
    };
    const std::vector<Case> cases = {
        {"#if 0", "#if 0\n" + other + "#endif\n" + kernel, true},
        {"#if 1", "#if 1\n" + other + "#endif\n" + kernel, false},
        {"#if 0 / #else", "#if 0\n" + kernel + "#else\n" + other + "#endif\n", false},
        {"#if 1 / #else", "#if 1\n" + kernel + "#else\n" + other + "#endif\n", true},
        {"#if 0 / #elif 1", "#if 0\n#elif 1\n" + other + "#endif\n" + kernel, false},
        {"#if 0 / #elif 0 / #else", "#if 0\n" + other + "#elif 0\n" + other + "#else\n" + kernel + "#endif\n", true},
        {"a macro of the submission", "#define DEBUG_KERNELS 0\n#if DEBUG_KERNELS && 2 > 1\n" + other + "#endif\n" + kernel, true},
        {"a macro it sets to 1", "#define DEBUG_KERNELS (3 - 2)\n#if DEBUG_KERNELS\n" + other + "#endif\n" + kernel, false},
        // a name it did not define may be NVRTC's: every branch is kept
        {"#ifdef a name it did not define", "#ifdef NOT_DEFINED\n" + other + "#endif\n" + kernel, false},
        {"#ifndef a name it did not define", "#ifndef linux\n#else\n#include \"/etc/passwd\"\n#endif\n" + kernel, false},
        {"an unsigned literal", "#if -1 > 0u\n#else\n" + other + "#endif\n" + kernel, false},
        {"nested in #if 0", "#if 0\n#if 1\n" + other + "#endif\n#endif\n" + kernel, true},
        {"#undef", "#define X 1\n#undef X\n#if defined(X)\n" + other + "#endif\n" + kernel, true},
        // what vetting cannot know (the harness's tile, the compiler's names) keeps every branch
        {"a harness macro", "#if IN_TILE_DIM > 100\n" + other + "#endif\n" + kernel, false},
        {"a compiler's name", "#ifdef __CUDA_ARCH__\n#else\n" + other + "#endif\n" + kernel, false},
        {"asm in #if 0", "#if 0\nvoid f() { asm(\"trap;\"); }\n#endif\n" + kernel, true},
        {"#include in #if 0", "#if 0\n#include <cstdio>\n#endif\n" + kernel, true},
        {"#pragma unroll(4)", "#pragma unroll(4)\n" + kernel, true},
        {"#pragma unroll (4)", "#pragma unroll (4)\n" + kernel, true},
        {"#pragma unroll 4", "#pragma   unroll 4\n" + kernel, true},
        {"#pragma nounroll", "#pragma nounroll\n" + kernel, true},
        {"#pragma unrolled", "#pragma unrolled\n" + kernel, false},
    };
    for (const Case& c : cases) {
        CAPTURE(c.what, c.text);
        const VettedSource v = vet_source(c.text, "x.cu");
        CAPTURE(v.problem);
        CHECK(v.ok == c.ok);
    }
    // line numbers stay: a misnamed kernel after a dropped block is named at its own line
    const VettedSource v =
        vet_source("#if 0\n" + other + "#endif\n__global__ void stencil(float* in, float* out, unsigned int N) { }\n", "x.cu");
    CAPTURE(v.problem);
    CHECK((!v.ok && v.problem.find("x.cu:4") != std::string::npos));
}

TEST_CASE("a printf per block leaves the loads per output the kernel's own (issue 46 item 7)", "[exercise]") {
    CheckOptions o;
    o.exercise = "tiled";
    o.backend = "cpu";
    o.quick = true;
    o.seed = 7;
    const CheckResult plain = check_submission(corpus("tiled_ok.cu"), o);
    const CheckResult printing = check_submission(corpus("tiled_valid_printf_per_block.cu"), o);
    CAPTURE(to_text(plain), to_text(printing));
    REQUIRE((plain.loads && printing.loads && printing.verdict == Verdict::pass));
    // the same loads, exactly: what printf reads (its format and %s string) is not counted
    CHECK(printing.loads->loads_per_output == plain.loads->loads_per_output);
    CHECK(printing.loads->within_budget);
}

TEST_CASE("corpus: issue 44's submissions get their expected verdict on the CPU backend", "[exercise]") {
    check_on_cpu(GENERATE(from_range(corpus_entries(CorpusPart::issue44))));
}

TEST_CASE("the child runner: a parent woken after the limit takes the exit of a child that finished in time", "[exercise]") {
    // The parent reads the child's output late (a loaded machine): the child printed, exited at
    // once and left its result whole, so its exit code counts, not a timeout.
    ChildLimits lim;
    lim.wall_seconds = 1;
    lim.on_output = [](std::string_view) { usleep(1500 * 1000); };
    const ChildResult late = run_child({"sh", "-c", "echo done; exit 0"}, lim);
    CAPTURE(late.describe(), late.output);
    REQUIRE((!late.timed_out && late.ok() && late.output == "done\n"));
    // a child still running at the limit is still a timeout
    lim.on_output = nullptr;
    const ChildResult slow = run_child({"sh", "-c", "echo started; sleep 30"}, lim);
    REQUIRE((slow.timed_out && !slow.ok() && slow.output == "started\n" && slow.seconds < 10));
}
