// What a hostile or unlucky file does to the checker, bounded: encodings (a UTF-8 byte-order mark
// is dropped, UTF-16/32, NUL and bytes that are not UTF-8 are a compile_error naming the first
// bad line), NVRTC bombs (a compile_error within the compile's time and memory bounds), device
// printf in a loop (a prompt verdict and a warning that the output was cut).
#include <catch2/catch.hpp>

#include <chrono>
#include <string>

#include "checker/checker.h"
#include "checker/source.h"
#include "checker/text_encoding.h"
#include "tests/checker/checker_corpus.h"

using namespace stencil::checker;

namespace {

CheckOptions cpu_quick() {
    CheckOptions o;
    o.exercise = "naive";
    o.backend = "cpu";
    o.quick = true;
    return o;
}

const std::string kKernel = "__global__ void stencil_kernel(float* in, float* out, unsigned int N) { }\n";

}  // namespace

TEST_CASE("encodings: a UTF-8 byte-order mark is dropped and line numbers hold", "[exercise][encoding]") {
    // line 3 is the kernel in both: NVRTC's error on line 4 names line 4 with or without the mark
    const std::string body = "// a comment\n\n" + kKernel + "int x = ;\n";
    const VettedSource plain = vet_source(body, "a.cu");
    const VettedSource marked = vet_source("\xEF\xBB\xBF" + body, "a.cu");
    REQUIRE((plain.ok && marked.ok && marked.text == plain.text));
    CheckOptions o = cpu_quick();
    const CheckResult r = check_submission(corpus("encoding_utf8_bom.cu"), o);
    CAPTURE(to_text(r));
    REQUIRE(r.verdict == Verdict::pass);
}

TEST_CASE("encodings: UTF-16/32, NUL and bytes that are not UTF-8 name the first bad line", "[exercise][encoding]") {
    struct Bad {
        const char* file;
        const char* says;
    };
    const Bad b = GENERATE(Bad{"encoding_utf16.cu", "encoding_utf16.cu:1: the file is UTF-16"},
                           Bad{"encoding_utf32.cu", "encoding_utf32.cu:1: the file is UTF-32"},
                           Bad{"encoding_nul.cu", "encoding_nul.cu:3: a NUL byte"},
                           Bad{"encoding_latin1.cu", "encoding_latin1.cu:2: a byte that is not UTF-8 (0xe9"});
    const CheckResult r = check_submission(corpus(b.file), cpu_quick());
    CAPTURE(b.file, r.evidence.message);
    REQUIRE((r.verdict == Verdict::compile_error && r.evidence.message.rfind(b.says, 0) == 0 &&
             r.evidence.message.find('\n') == std::string::npos && r.tests.empty()));
}

TEST_CASE("encodings: UTF-8 is judged sequence by sequence", "[encoding]") {
    CHECK_FALSE(encoding_problem("// résultat 格子 😀\n" + kKernel, "a.cu"));
    CHECK(encoding_problem("// \xC0\xAF overlong\n", "a.cu"));            // an overlong '/'
    CHECK(encoding_problem("// \xED\xA0\x80 surrogate\n", "a.cu"));       // U+D800
    CHECK(encoding_problem("// \xF4\x90\x80\x80 past U+10FFFF\n", "a.cu"));
    CHECK(encoding_problem("\n\n// cut \xE6\xA0\n", "a.cu")->rfind("a.cu:3:", 0) == 0);
    CHECK(encoding_problem("x\x01y\n", "a.cu")->find("control byte") != std::string::npos);
    CHECK(strip_utf8_bom("\xEF\xBB\xBFx") == "x");
    CHECK(strip_utf8_bom("x\xEF\xBB\xBF") == "x\xEF\xBB\xBF");  // only a leading mark
}

// A compile that would take minutes and gigabytes ends within the compile's bounds (here 8 s and
// 1 GiB: tighter than a course's, so that the test waits less) as a compile_error: the wall time of
// the whole check is bounded by them.
TEST_CASE("NVRTC bombs end as compile_error within the compile's bounds", "[exercise][bomb]") {
    const char* file = GENERATE("bomb_macro.cu", "bomb_template.cu");
    CheckOptions o = cpu_quick();
    o.compile_seconds = 8;
    o.compile_memory_mb = 1024;
    const auto t0 = std::chrono::steady_clock::now();
    const CheckResult r = check_submission(corpus(file), o);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    CAPTURE(file, s, to_text(r));
    REQUIRE((r.verdict == Verdict::compile_error && s < o.compile_seconds + 15));
}

TEST_CASE("device printf in every thread: a prompt pass and a warning that the output was cut", "[exercise][printf]") {
    const auto t0 = std::chrono::steady_clock::now();
    const CheckResult r = check_submission(corpus("naive_printf_flood.cu"), cpu_quick());
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    bool warned = false;
    for (const auto& w : r.warnings) warned = warned || w.find("device printf") != std::string::npos;
    CAPTURE(s, to_text(r));
    REQUIRE((r.verdict == Verdict::pass && warned && s < 60));
}

// The memory bound itself (the bombs above reach the clock first on a fast machine): with 128 MiB
// NVRTC runs out of memory on the template bomb within seconds, and that is a compile_error.
TEST_CASE("NVRTC's memory bound ends a template bomb as compile_error", "[exercise][bomb]") {
    CheckOptions o = cpu_quick();
    o.compile_seconds = 60;
    o.compile_memory_mb = 128;
    const auto t0 = std::chrono::steady_clock::now();
    const CheckResult r = check_submission(corpus("bomb_template.cu"), o);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    CAPTURE(s, to_text(r));
    REQUIRE((r.verdict == Verdict::compile_error && s < 45 &&
             r.evidence.compiler_output.find("memory") != std::string::npos));
}
