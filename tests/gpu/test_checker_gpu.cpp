// The checker's corpus on the GPU (label `gpu`: the device machine only). Every submission of
// tests/checker/submissions gets its expected GPU verdict (tests/checker/checker_corpus.h), and
// the same verdict as the CPU backend's check of it on this machine, except where the table
// says the CPU is stricter; NVRTC errors name the student's file and line; a passing kernel is
// timed against the lab's and its loads are counted; --sanitize finds the out-of-bounds read the
// GPU otherwise tolerates.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdio>
#include <string>

#include "checker/checker.h"
#include "tests/checker/checker_corpus.h"

using namespace stencil::checker;

namespace {

CheckOptions gpu_options(const CorpusEntry& e) {
    CheckOptions o;
    o.exercise = e.exercise;
    o.tile = e.tile;
    o.backend = "cuda";
    o.time_limit_s = e.time_limit;
    o.count_loads = false;  // the CPU tests cover the count; here the GPU path alone
    return o;
}

bool one_of(const char* alternatives, Verdict v) {
    return (std::string("|") + alternatives + "|").find(std::string("|") + to_string(v) + "|") !=
           std::string::npos;
}

// Backend by backend: the CPU verdict of each entry (checked here too, same seed) against the
// GPU's. They must be equal unless the entry names why the CPU is stricter (checker_corpus.h).
// An entry that awaits what the CPU engine lacks is held to its GPU verdict only.
void check_on_both(const CorpusEntry& e) {
    if (e.gpu_verdict == nullptr) return;
    CAPTURE(e.file, e.exercise, e.tile, e.cpu_verdict, e.gpu_verdict);
    CheckOptions o = gpu_options(e);
    o.timing = e.gpu_timed;  // the timed case (N = 256) is checked too
    o.sanitize = e.gpu_sanitize;
    o.seed = 0x5eed0c0ffeeull;
    const CheckResult gpu = check_submission(corpus(e.file), o);
    CAPTURE(to_text(gpu));
    REQUIRE(one_of(e.gpu_verdict, gpu.verdict));
    if (!engine_has(e.awaits)) return;
    CheckOptions c = o;
    c.backend = "cpu";
    c.timing = false;
    c.sanitize = false;
    c.quick = true;
    const CheckResult cpu = check_submission(corpus(e.file), c);
    CAPTURE(to_text(cpu));
    REQUIRE(std::string(to_string(cpu.verdict)) == e.cpu_verdict);
    if (e.cpu_stricter == Stricter::no) REQUIRE(gpu.verdict == cpu.verdict);
    else REQUIRE(one_of(gpu_may_show(e.cpu_stricter), gpu.verdict));
}

}  // namespace

TEST_CASE("checker corpus: the GPU's verdict, and the CPU's beside it", "[exercise][gpu]") {
    check_on_both(GENERATE(from_range(corpus_entries(CorpusPart::before_issue26))));
}

TEST_CASE("checker corpus: issue 26's entries, the GPU's verdict and the CPU's beside it", "[exercise][gpu]") {
    check_on_both(GENERATE(from_range(corpus_entries(CorpusPart::issue26))));
}

// Not run by ctest (hidden tag): one line per entry whose GPU verdict the table predicts, with the
// verdict the GPU gives, for measuring them (`stencil_tests_gpu "[measure]"`).
TEST_CASE("checker corpus: the GPU's verdict of each predicted entry, one line each", "[.][measure]") {
    for (const CorpusEntry& e : corpus_entries()) {
        if (e.gpu_verdict == nullptr || e.gpu != Gpu::predicted) continue;
        CheckOptions o = gpu_options(e);
        o.timing = e.gpu_timed;
        o.sanitize = e.gpu_sanitize;
        o.seed = 0x5eed0c0ffeeull;
        const CheckResult r = check_submission(corpus(e.file), o);
        const std::string first = r.evidence.message.substr(0, r.evidence.message.find('\n')).substr(0, 200);
        std::printf("measure %-48s %-18s gpu %-14s table %-20s %s | %s\n", e.file, e.exercise,
                    std::string(to_string(r.verdict)).c_str(), e.gpu_verdict,
                    one_of(e.gpu_verdict, r.verdict) ? "as predicted" : "DIFFERS", first.c_str());
        std::fflush(stdout);
    }
}

TEST_CASE("checker on the GPU: NVRTC errors name the student's line", "[exercise][gpu]") {
    const CheckResult r = check_submission(corpus("naive_syntax_error.cu"),
                                           gpu_options({"naive_syntax_error.cu", "naive", 0, "compile_error"}));
    REQUIRE(r.verdict == Verdict::compile_error);
    CAPTURE(r.evidence.compiler_output);
    CHECK(r.evidence.compiler_output.find("naive_syntax_error.cu:6: error") != std::string::npos);
}

// More than 48 KiB of static shared memory: ptxas refuses it when the runner compiles (NVRTC makes
// the sm_90 cubin on both backends), so the GPU's verdict and the CPU's are one compile error, with
// the numbers, before the driver sees anything.
TEST_CASE("checker on the GPU: too much static shared memory is ptxas's compile error", "[exercise][gpu]") {
    const CheckResult r = check_submission(corpus("tiled_too_much_shared.cu"),
                                           gpu_options({"tiled_too_much_shared.cu", "tiled", 0, "compile_error"}));
    CAPTURE(to_text(r));
    REQUIRE(r.verdict == Verdict::compile_error);
    CHECK(r.evidence.message.find("264192 bytes") != std::string::npos);
    CHECK(r.evidence.message.find("a GPU allows at most 49152 bytes") != std::string::npos);
}

// Timing is against the lab's own kernel of the exercise (kernels/*.cuh, as the CUDA backend
// built it); loads per output come from the GPU's counters, for the submission and for the lab's
// kernel at the same N. A correct textbook-style kernel loads exactly the budget (the textbook
// kernel's count), and so does the lab's kernel.
TEST_CASE("checker on the GPU: a passing kernel is timed and its loads counted", "[exercise][gpu]") {
    struct Case {
        const char* exercise;
        const char* file;
    };
    const Case c = GENERATE(Case{"naive", "naive_ok.cu"}, Case{"tiled", "tiled_ok.cu"},
                            Case{"coarsened", "coarsened_ok.cu"},
                            Case{"register-tiled", "register_tiled_ok.cu"},
                            Case{"tiled-r2", "tiled_r2_ok.cu"},
                            Case{"register-tiled-f64", "register_tiled_f64_ok.cu"},
                            // the other problems: the lab's shared cardiac step and x pencils
                            Case{"cardiac-shared", "cardiac_shared_ok.cu"},
                            Case{"x-derivative", "derivative_x_ok.cu"});
    CAPTURE(c.exercise);
    CheckOptions o = gpu_options({c.file, c.exercise, 0, "pass"});
    o.count_loads = true;
    const CheckResult r = check_submission(corpus(c.file), o);
    CAPTURE(to_text(r));
    REQUIRE(r.verdict == Verdict::pass);
    REQUIRE(r.timing.has_value());
    CHECK(r.timing->student_ms > 0);
    CHECK(r.timing->reference_ms > 0);
    CHECK(r.timing->reference.find("kernels/") != std::string::npos);
    // Written like the lab's kernel: the ratio should be near 1.
    CHECK(r.timing->ratio > 0.5);
    CHECK(r.timing->ratio < 2.0);
    REQUIRE(r.loads.has_value());
    CHECK(r.loads->source.rfind("GPU counters", 0) == 0);
    CHECK(r.loads->loads_per_output == Approx(r.loads->budget).epsilon(1e-9));
    REQUIRE(r.loads->lab_loads_per_output.has_value());
    CHECK(*r.loads->lab_loads_per_output == Approx(r.loads->budget).epsilon(1e-9));
    CHECK(r.loads->within_budget);
}

TEST_CASE("checker on the GPU: --sanitize catches what plain runs tolerate", "[exercise][gpu]") {
    // A read a little past the allocation: no fault, the value discarded; memcheck sees it.
    const char* file = "naive_reads_past_alloc.cu";
    CheckOptions o = gpu_options({file, "naive", 0, "pass"});
    o.timing = false;
    const CheckResult plain = check_submission(corpus(file), o);
    o.sanitize = true;
    const CheckResult r = check_submission(corpus(file), o);
    CAPTURE(to_text(plain), to_text(r));
    for (const auto& w : r.warnings)
        if (w.find("compute-sanitizer not found") != std::string::npos)
            FAIL("compute-sanitizer is not installed on this machine: --sanitize cannot be tested");
    REQUIRE((plain.verdict == Verdict::pass && r.verdict == Verdict::crash &&
             r.evidence.message.find("compute-sanitizer memcheck") != std::string::npos));
}

// The seed that once put N = 16 under memcheck: there cudaMalloc placed out[] right after in[],
// so the read past in[] was a valid access to out[] until the runner left a freed gap between them.
TEST_CASE("checker on the GPU: --sanitize sees a read past in[] whatever follows it", "[exercise][gpu]") {
    const char* file = "naive_reads_past_alloc.cu";
    CheckOptions o = gpu_options({file, "naive", 0, "crash"});
    o.timing = false;
    o.sanitize = true;
    o.seed = 0x75e0265d06ca0fd9ull;
    const CheckResult r = check_submission(corpus(file), o);
    CAPTURE(to_text(r));
    REQUIRE(r.evidence.n == 16);
    REQUIRE(r.verdict == Verdict::crash);
    CHECK(r.evidence.child_output.find("Invalid __global__ read") != std::string::npos);
    // memcheck's report names the student's line (NVRTC's -lineinfo): the finding's statement, the
    // read of `far` (line 11; the compiler may place its load with the statement that uses it)
    REQUIRE(!r.evidence.sources.empty());
    CHECK(r.evidence.sources[0].file == file);
    CHECK((r.evidence.sources[0].line >= 11 && r.evidence.sources[0].line <= 13));
    REQUIRE(!r.findings.empty());
    CHECK(!r.findings.front().sources.empty());
    CHECK(to_text(r).find(std::string(file) + ":") != std::string::npos);
    CHECK(to_text(r).find("the GPU path cannot name the line") == std::string::npos);
}

// Where the GPU path cannot know the line (a wrong value: only the outputs show it), the report
// says so and points to the CPU backend, which names it.
TEST_CASE("checker on the GPU: a finding without a line says the GPU path cannot name it", "[exercise][gpu]") {
    CheckOptions o = gpu_options({"naive_zeros.cu", "naive", 0, "wrong_result"});
    o.timing = false;
    const CheckResult r = check_submission(corpus("naive_zeros.cu"), o);
    const std::string text = to_text(r);
    CAPTURE(text);
    REQUIRE(r.verdict == Verdict::wrong_result);
    CHECK(text.find("the GPU path cannot name the line of this finding") != std::string::npos);
    CHECK(text.find("--backend cpu") != std::string::npos);
    CHECK(to_json(r)["findings"][0].contains("line_unknown"));
}

// --sanitize on a correct kernel, with everything a CLI check does (load count, timing): pass.
// (The sanitizer's request once kept the load count's case index into the full list: exit 3.)
TEST_CASE("checker on the GPU: --sanitize passes a correct kernel with every extra on", "[exercise][gpu]") {
    for (const auto& [ex, file] : {std::pair{"tiled", "tiled_ok.cu"}, std::pair{"register-tiled-f64", "register_tiled_f64_ok.cu"}}) {
        CheckOptions o = gpu_options({file, ex, 0, "pass"});
        o.count_loads = true;
        o.sanitize = true;
        const CheckResult r = check_submission(corpus(file), o);
        CAPTURE(to_text(r));
        CHECK(r.verdict == Verdict::pass);
        CHECK(r.loads.has_value());
        CHECK(r.timing.has_value());
    }
}

// Device printf in a loop in every thread: the runner's small printf FIFO drops what does not fit,
// so the check ends promptly (it once took as long as the host could print), passes, and says the
// output was cut.
TEST_CASE("checker on the GPU: a printf flood is prompt and reported as cut", "[exercise][gpu]") {
    CheckOptions o = gpu_options({"naive_printf_flood.cu", "naive", 0, "pass"});
    o.timing = false;
    const auto t0 = std::chrono::steady_clock::now();
    const CheckResult r = check_submission(corpus("naive_printf_flood.cu"), o);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    bool warned = false;
    for (const auto& w : r.warnings) warned = warned || w.find("device printf") != std::string::npos;
    CAPTURE(s, to_text(r));
    REQUIRE((r.verdict == Verdict::pass && warned && s < 30));
}

// NVRTC bombs on the GPU path: the compile runs before the CUDA runtime maps its address space,
// so the same memory bound holds; a compile_error within the bounds.
TEST_CASE("checker on the GPU: NVRTC bombs end as compile_error within the compile's bounds", "[exercise][gpu]") {
    for (const char* file : {"bomb_macro.cu", "bomb_template.cu"}) {
        CheckOptions o = gpu_options({file, "naive", 0, "compile_error"});
        o.compile_seconds = 20;
        o.compile_memory_mb = 1024;
        const auto t0 = std::chrono::steady_clock::now();
        const CheckResult r = check_submission(corpus(file), o);
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        CAPTURE(file, s, to_text(r));
        CHECK((r.verdict == Verdict::compile_error && s < o.compile_seconds + 20));
    }
}

TEST_CASE("checker corpus: issue 44's entries, the GPU's verdict and the CPU's beside it", "[exercise][gpu]") {
    check_on_both(GENERATE(from_range(corpus_entries(CorpusPart::issue44))));
}

TEST_CASE("checker on the GPU: a kernel wrong only past N = 64 is still timed and counted for a rubric",
          "[exercise][gpu]") {
    // A rubric judges loads, time and the leaderboard on the visible sizes (grading/score.h): the
    // measured count and timing must be there whatever the sizes past 64 gave, or their absence
    // would tell a student that a hidden test failed.
    CheckOptions o = gpu_options({"naive_big_n_wrong.cu", "naive", 0, "wrong_result"});
    o.count_loads = true;
    o.seed = 0x5eed0c0ffeeull;
    const CheckResult r = check_submission(corpus("naive_big_n_wrong.cu"), o);
    CAPTURE(to_text(r));
    REQUIRE(r.verdict == Verdict::wrong_result);
    for (const TestRecord& t : r.tests)
        if (t.size > 0 && t.size <= 64) REQUIRE(t.passed);
    CHECK_FALSE(r.timing.has_value());  // the report's timing stays a passing kernel's
    REQUIRE(r.measured_timing.has_value());
    CHECK(r.measured_timing->student_ms > 0);
    REQUIRE(r.measured_loads.has_value());
    CHECK(r.measured_loads->within_budget);
}
