// The typed protocol between the checker and its runner (checker/protocol.h): request and result
// round-trip field by field, another schema version and a malformed file are refused with one
// line, and the parent's decisions rest on typed fields and exit codes, never on the wording of a
// message (each test changes or removes the words and the decision holds).
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "checker/checker.h"
#include "checker/evaluate.h"
#include "checker/exercises.h"
#include "checker/process.h"
#include "checker/protocol.h"
#include "checker/sanitizer.h"
#include "checker/source.h"
#include "core/backend_choice.h"
#include "core/weights.h"

namespace fs = std::filesystem;
using namespace stencil::checker;
using nlohmann::json;

namespace {

// Every field away from its default, so that a field the JSON forgets cannot round-trip by luck.
Request full_request() {
    Request r;
    r.mode = RunnerMode::cuda;
    r.exercise = "tiled-r2";
    r.lab_kernel = "tiled";
    r.precision = stencil::Precision::f64;
    r.radius = 2;
    r.tile = 12;
    r.display_name = "student.cu";
    r.source = "/tmp/x/submission.cu";
    r.problem = stencil::Problem::derivative;
    r.kernel_name = "derivative_x";
    r.kernel_signature = "__global__ void derivative_x(const float* f, float* df, int mx, int my, int mz)";
    r.constants = {{"c_ax", {0.5}}, {"table", {-0.25, 0.125}}};
    r.workers = 3;
    CaseSpec c;
    c.n = 17;
    c.guard = 16384;
    c.buffers = {{"f", "case0.f", 4913, true}, {"df", "case0.df", 4913, false}};
    c.args = {{ArgKind::buffer, 1, 0}, {ArgKind::i32, 0, -3}, {ArgKind::u32, 0, 17}, {ArgKind::real, 0, 0.125}};
    c.grid = {2, 3, 4};
    c.block = {8, 7, 6};
    c.runs = {{Schedule::random, Schedule::reversed, 0xfedcba9876543210ull}, {Schedule::repeat, Schedule::in_order, 5}};
    r.cases = {c, c};
    r.cases[1].n = 33;
    r.count = RunRef{1, 1};
    r.timing = TimingSpec{1, 7};
    r.compile_seconds = 12.5;
    r.compile_memory_bytes = 3LL << 30;
    r.time_limit = 44.25;
    r.printf_cap_bytes = 4096;
    r.replay = ReplaySpec{{{1, 42, {1, 0, 0}}, {1, 41, {0, -1, 0}}}, true, Int3{1, 2, 3}, Int3{4, 5, 6}};
    return r;
}

Result full_result() {
    Result r;
    r.device = "NVIDIA H100";
    r.compile = CompileOutcome{false, CompileStage::memory, "out of memory", 1.5};
    EngineDiagnostic d;
    d.kind = DiagnosticKind::input_write;
    d.message = "a store to in[]";
    d.block = {1, 2, 3};
    d.block_b = {4, 5, 6};
    d.thread_a = {7, 8, 9};
    d.thread_b = {10, 11, 12};
    d.interval = 2;
    d.op_a = AccessOp::store;
    d.op_b = AccessOp::atomic;
    d.space = MemorySpace::shared;
    d.array = "#1";
    d.offset = 40;
    d.elem_size = 4;
    d.element = 10;
    d.site_a = "a.cu:3";
    d.site_b = "a.cu:9";
    d.file = "a.cu";
    d.line = 12;
    d.instruction = "st.global.f32";
    d.other = {"a.cu", 9, "ld.shared.f32"};
    RunOutcome run;
    run.case_index = 1;
    run.run = 2;
    run.ok = false;
    run.seconds = 0.75;
    run.instructions = 123456789012LL;
    run.races = 3;
    run.uninitialized_shared_reads = 4;
    run.diagnostics = {d, d};
    run.launch_error = "cudaErrorIllegalAddress: an illegal memory access";
    run.printf_bytes = 70000;
    run.printf_truncated = true;
    r.runs = {run};
    r.counts = LoadCounts{1, 999, "GPU counters", 888, "the lab's kernel: no"};
    r.counts_unavailable = "not measured";
    r.timing = TimingOutcome{1, 2, 0.5, 0.25, {0.5, 0.6}, {0.25, 0.3}, 1, "the lab's kernel"};
    r.timing_unavailable = "no";
    r.stopped = StopReason::instruction_budget;
    ReplayOutcome rep;
    rep.writers = {CellWriter{true, {"a.cu", 7, "st.global.f32"}, {1, 0, 0}, {2, 3, 4}, 2}, CellWriter{}};
    rep.buffer_stores = {{"a.cu", 7, "st.global.f32"}};
    rep.traced_block = Int3{1, 0, 0};
    SliceLinkOutcome link;
    link.kind = SliceLinkKind::stored_by;
    link.depth = 1;
    link.at = {"a.cu", 21, "ld.shared.f32"};
    link.thread = {2, 3, 4};
    link.space = MemorySpace::shared;
    link.array = "tile";
    link.offset = 12;
    link.elem_size = 4;
    link.loaded = 0x7fc00000u;
    link.other = Int3{1, 3, 4};
    link.other_at = {"a.cu", 10, "st.shared.f32"};
    link.lines = {18, 19};
    link.unordered = true;
    rep.slice = {link, SliceLinkOutcome{}};
    SumTermOutcome term;  // (issue 44: the stored value's products)
    term.factor = -2;
    term.weights = {"c3"};
    term.cells = {TermCell{"in", 40, 21, {10, 8}, {5, 6, 7}, "tile", 48, {36}}};
    term.others = {"the result of div at line 9"};
    term.line = 22;
    rep.terms = {term, SumTermOutcome{}};
    rep.terms_note = "more than 256 products";
    r.replay = rep;
    return r;
}

ChildResult exited(int code, std::string output = "") {
    ChildResult c;
    c.started = true;
    c.exit_code = code;
    c.output = std::move(output);
    return c;
}

std::string runner_path() { return std::string(STENCIL_LAB_BINARY_DIR) + "/stencil-check-runner"; }

struct TempDir {
    std::string path;
    explicit TempDir(const std::string& name)
        : path((fs::temp_directory_path() / ("stencil-test-" + name + "-" + std::to_string(getpid()))).string()) {
        fs::create_directories(path);
    }
    ~TempDir() { fs::remove_all(path); }
};

}  // namespace

TEST_CASE("protocol: the request round-trips, every field", "[protocol]") {
    const Request r = full_request();
    const std::string text = json(r).dump();
    CAPTURE(text);
    REQUIRE(parse_request(text) == r);
}

TEST_CASE("protocol: the result round-trips, every field", "[protocol]") {
    const Result r = full_result();
    const std::string text = json(r).dump();
    CAPTURE(text);
    REQUIRE(parse_result(text) == r);
}

TEST_CASE("protocol: every enum name parses back to its value", "[protocol]") {
    for (auto v : {RunnerMode::cpu, RunnerMode::cuda, RunnerMode::probe_cuda, RunnerMode::probe_sandbox})
        CHECK(parse_runner_mode(to_string(v)) == v);
    for (auto v : {Schedule::in_order, Schedule::reversed, Schedule::random, Schedule::repeat})
        CHECK(parse_schedule(to_string(v)) == v);
    for (auto v : {CompileStage::nvrtc, CompileStage::load, CompileStage::limits, CompileStage::memory,
                   CompileStage::contract})
        CHECK(parse_compile_stage(to_string(v)) == v);
    for (auto v : {DiagnosticKind::race, DiagnosticKind::uninitialized_shared_read, DiagnosticKind::divergent_barrier,
                   DiagnosticKind::exit_before_barrier, DiagnosticKind::out_of_bounds,
                   DiagnosticKind::kernel_exception, DiagnosticKind::timeout, DiagnosticKind::input_write})
        CHECK(parse_diagnostic_kind(to_string(v)) == v);
    for (auto v : {AccessOp::load, AccessOp::store, AccessOp::atomic}) CHECK(parse_access_op(to_string(v)) == v);
    for (auto v : {MemorySpace::global, MemorySpace::shared}) CHECK(parse_memory_space(to_string(v)) == v);
    CHECK(parse_stop_reason(to_string(StopReason::instruction_budget)) == StopReason::instruction_budget);
    CHECK_FALSE(parse_schedule("sideways"));
    // --backend: one table for the CLI, the checker and make_backend; gpu is cuda
    using stencil::BackendChoice;
    for (auto v : {BackendChoice::automatic, BackendChoice::cuda, BackendChoice::cpu})
        CHECK(stencil::parse_backend_choice(stencil::to_string(v)) == v);
    CHECK(stencil::parse_backend_choice("gpu") == BackendChoice::cuda);
    CHECK_FALSE(stencil::parse_backend_choice("tpu"));
}

TEST_CASE("protocol: another schema version is refused with one line", "[protocol]") {
    json j = full_result();
    j["schema_version"] = kSchemaVersion + 1;
    j["runs"] = "whatever another version puts here";
    const ResultFile f = result_file_from_text(j.dump());
    CAPTURE(f.problem);
    REQUIRE((f.status == ResultFile::Status::wrong_version && f.problem.find('\n') == std::string::npos &&
             f.problem.find("schema version " + std::to_string(kSchemaVersion + 1)) != std::string::npos));
    json rq = full_request();
    rq["schema_version"] = 1;
    REQUIRE_THROWS_AS(parse_request(rq.dump()), SchemaMismatch);
}

TEST_CASE("protocol: a malformed file is refused with one line naming the field", "[protocol]") {
    struct Broken {
        std::string text;
        const char* names;
    };
    json deep = full_result();
    deep["runs"][0]["diagnostics"][1]["block"] = {1, 2};
    json kind = full_result();
    kind["runs"][0]["diagnostics"][0]["kind"] = "gremlin";
    json missing = full_result();
    missing["runs"][0].erase("printf_bytes");
    json fraction = full_result();
    fraction["counts"]["global_loads"] = 1.5;
    json no_stage = full_result();
    no_stage["compile"].erase("stage");
    const Broken b = GENERATE_COPY(Broken{deep.dump(), "runs[0].diagnostics[1].block"},
                                   Broken{kind.dump(), "runs[0].diagnostics[0].kind"},
                                   Broken{missing.dump(), "runs[0].printf_bytes"},
                                   Broken{fraction.dump(), "counts.global_loads"},
                                   Broken{no_stage.dump(), "compile.stage"},
                                   Broken{"{\"schema_version\": ", "not JSON"},
                                   Broken{"[1, 2]", "must be an object"});
    const ResultFile f = result_file_from_text(b.text);
    CAPTURE(b.text, f.problem);
    REQUIRE((f.status == ResultFile::Status::malformed && f.problem.find('\n') == std::string::npos &&
             f.problem.find(b.names) != std::string::npos));
}

// ---- decisions on typed fields, never on words ---------------------------------------------------

TEST_CASE("a runner of another protocol is an internal_error, never a crash", "[protocol]") {
    const ResultFile none = result_file_from_text("");
    // the runner refused the request's version (its exit code; whatever it printed)
    const auto a = judge_child(exited(kProtocolMismatchExit, "words that may change"), none);
    // the runner answered in another version
    json other = full_result();
    other["schema_version"] = kSchemaVersion + 7;
    const auto b = judge_child(exited(0), result_file_from_text(other.dump()));
    REQUIRE((a && a->verdict == Verdict::internal_error && b && b->verdict == Verdict::internal_error));
}

TEST_CASE("the runner against a request of another version: the exit code, one line", "[protocol]") {
    TempDir d("protocol-version");
    json rq = full_request();
    rq["schema_version"] = kSchemaVersion - 1;
    std::ofstream(d.path + "/request.json") << rq.dump();
    ChildLimits lim;
    lim.wall_seconds = 30;
    const ChildResult r = run_child({runner_path(), "request.json"}, lim, d.path);
    CAPTURE(r.describe(), r.output);
    REQUIRE((r.exit_code == kProtocolMismatchExit && std::count(r.output.begin(), r.output.end(), '\n') == 1));
}

TEST_CASE("the forbidden-call crash is decided by the exit code, not the message", "[protocol][sandbox]") {
    const ResultFile none = result_file_from_text("");
    const auto trapped = judge_child(exited(kForbiddenCallExit, "reworded: the filter said no"), none);
    const auto worded = judge_child(exited(3, "stencil-check-runner: forbidden system call execve"), none);
    REQUIRE((trapped && trapped->verdict == Verdict::crash &&
             trapped->evidence.message.find("seccomp") != std::string::npos && worded &&
             worded->verdict == Verdict::crash && worded->evidence.message.find("seccomp") == std::string::npos));
}

TEST_CASE("'no CUDA in this build' is decided by the probe's exit code, not its message", "[protocol]") {
    const auto not_built = cuda_unavailable_from_probe(exited(kBackendNotBuiltExit, "reworded"));
    const auto no_device = cuda_unavailable_from_probe(exited(kProbeNoDeviceExit, "backend 'cuda' is not built"));
    REQUIRE((not_built == std::optional<std::string>("this build has no CUDA support") && no_device &&
             no_device->find("no usable CUDA device") == 0 && !cuda_unavailable_from_probe(exited(0))));
}

TEST_CASE("compute-sanitizer's report is read in one place", "[protocol]") {
    CHECK(classify_sanitizer_report("========= Invalid __global__ write of size 4 bytes\n") ==
          SanitizerFinding::invalid_global_write);
    CHECK(classify_sanitizer_report("========= Invalid __global__ read of size 4 bytes\n") ==
          SanitizerFinding::other_error);
    CHECK(classify_sanitizer_report("========= ERROR SUMMARY: 0 errors\n") == SanitizerFinding::none);
}
