// The checker's corpus on the GPU (label `gpu`: the device machine only). Every submission of
// tests/checker/submissions gets its expected GPU verdict (tests/checker/checker_corpus.h);
// NVRTC errors name the student's file and line; a passing kernel is timed against the lab's and
// its loads are counted; --sanitize finds the out-of-bounds read the GPU otherwise tolerates.
#include <catch2/catch.hpp>

#include <string>

#include "checker/checker.h"
#include "tests/checker/checker_corpus.h"

using namespace stencil::checker;

namespace {

std::string corpus(const std::string& f) {
    return std::string(STENCIL_LAB_SOURCE_DIR) + "/tests/checker/submissions/" + f;
}

CheckOptions gpu_options(const CorpusEntry& e) {
    CheckOptions o;
    o.exercise = e.exercise;
    o.tile = e.tile;
    o.backend = "cuda";
    o.time_limit_s = e.time_limit;
    o.cache_dir = std::string(STENCIL_LAB_BINARY_DIR) + "/checker-cache";
    o.count_loads = false;  // the CPU tests cover the count; here the GPU path alone
    return o;
}

}  // namespace

TEST_CASE("checker corpus: every submission gets its expected verdict on the GPU", "[exercise][gpu]") {
    const CorpusEntry e = GENERATE(from_range(corpus_entries()));
    if (e.gpu_verdict == nullptr) return;
    CAPTURE(e.file, e.exercise, e.tile, e.gpu_verdict);
    CheckOptions o = gpu_options(e);
    o.timing = false;
    o.sanitize = e.gpu_sanitize;
    const CheckResult r = check_submission(corpus(e.file), o);
    CAPTURE(to_text(r));
    const std::string accepted = std::string("|") + e.gpu_verdict + "|";
    REQUIRE(accepted.find(std::string("|") + to_string(r.verdict) + "|") != std::string::npos);
}

TEST_CASE("checker on the GPU: NVRTC errors name the student's line", "[exercise][gpu]") {
    const CheckResult r = check_submission(corpus("naive_syntax_error.cu"),
                                           gpu_options({"naive_syntax_error.cu", "naive", 0, "compile_error"}));
    REQUIRE(r.verdict == Verdict::compile_error);
    CAPTURE(r.evidence.compiler_output);
    CHECK(r.evidence.compiler_output.find("naive_syntax_error.cu(") != std::string::npos);
}

TEST_CASE("checker on the GPU: a passing kernel is timed and its loads counted", "[exercise][gpu]") {
    for (const char* ex : {"tiled", "coarsened"}) {
        CAPTURE(ex);
        const std::string file = std::string(ex) + "_ok.cu";
        CheckOptions o = gpu_options({file.c_str(), ex, 0, "pass"});
        o.count_loads = true;
        const CheckResult r = check_submission(corpus(file), o);
        CAPTURE(to_text(r));
        REQUIRE(r.verdict == Verdict::pass);
        REQUIRE(r.timing.has_value());
        CHECK(r.timing->student_ms > 0);
        CHECK(r.timing->reference_ms > 0);
        // The corpus file is the lab's own kernel: the ratio should be near 1.
        CHECK(r.timing->ratio > 0.5);
        CHECK(r.timing->ratio < 2.0);
        REQUIRE(r.loads.has_value());
        CHECK(r.loads->within_budget);
    }
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
