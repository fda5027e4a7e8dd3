// A student's kernel in the stepper: run by the checker's runner in a child process on the CPU
// engine, one block traced, stepped like the lab's, with the student's lines; a kernel that never
// ends or does not compile gives a sentence, not a dead viewer. Also the trace's text form.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "core/engine_trace_text.h"
#include "viewer/core/kernel_source.h"
#include "viewer/core/student_trace.h"
#include "tests/viewer/viewer_test_support.h"

using namespace stencil;
using namespace stencil::viewer;
using stencil::viewer::test::scratch_file;

namespace {
StepperConfig student(const std::string& file, const std::string& exercise) {
    StepperConfig c;
    c.kernel_file = file;
    c.exercise = exercise;
    c.tile = 8;
    c.dims = {20, 20, 20};
    c.block = {1, 1, 1};
    return c;
}
}  // namespace

TEST_CASE("find-the-race stepped: the student's lines, from the load to the store", "[viewer][student]") {
    const std::string file = std::string(STENCIL_LAB_SOURCE_DIR) + "/exercises/find-the-race/stencil.cu";
    const StepperTrace t = trace_block(student(file, "find-the-race"));
    const KernelSource src = read_kernel_source(file);
    REQUIRE(t.ok());
    const SourcePos first = step_source(t, 1), last = step_source(t, t.last_step());
    CAPTURE(t.error, first.file, first.line, first.instruction, last.line, t.notes, t.steps[1].threads);
    // Line 9 loads the tile, line 28 stores the output (read back from the tile: the race).
    REQUIRE((same_source_file(first.file, file) && first.line == 9 && first.instruction.starts_with("ld.global") &&
             t.steps[1].threads == 512 && last.line == 28 && src.lines.at(last.line - 1).find("out[") != std::string::npos &&
             t.cfg.kernel == KernelId::tiled && t.intervals == 2 && t.outputs == 216 && !t.notes.empty()));
}

TEST_CASE("a student's kernel that never ends, or does not compile: one sentence each", "[viewer][student]") {
    const std::string spin = scratch_file("viewer_spin_naive.cu",
        "__global__ void stencil_kernel(float *in, float *out, unsigned int N) {\n"
        "    while (in[0] == in[0]) { }\n"
        "}\n");
    const std::string broken = scratch_file("viewer_broken_naive.cu",
        "__global__ void stencil_kernel(float *in, float *out, unsigned int N) {\n"
        "    out[0] = undeclared;\n"
        "}\n");
    const StepperTrace a = trace_block(student(spin, "naive"));
    const StepperTrace b = trace_block(student(broken, "naive"));
    const StepperTrace c = trace_block(student(spin, "no-such-exercise"));
    CAPTURE(a.error, b.error, c.error);
    REQUIRE((!a.ok() && a.error.find("instruction budget") != std::string::npos && !b.ok() && b.error.find("undeclared") != std::string::npos &&
             !c.ok() && c.error.find("unknown exercise") != std::string::npos));
}

TEST_CASE("a trace survives its text form; a cut one is refused", "[viewer][student]") {
    engine::ExecReport rep;
    rep.grid = {2, 3, 4};
    rep.block = {8, 8, 8};
    rep.sites = {0, 1};
    rep.site_source = {{"stencil.cu", 9, "ld.global.f32"}, {"my file.cu", 28, "st.global.f32"}};
    engine::Access a;
    a.block = 5, a.thread = 17, a.interval = 1, a.site = 1, a.occurrence = 2, a.seq = 40;
    a.space = engine::Space::global, a.op = engine::Op::store, a.size = 4, a.buffer = 1, a.offset = 1LL << 33;
    rep.trace = {a, a};
    rep.trace[1].space = engine::Space::shared;
    const std::string text = engine::trace_to_text(rep);
    const engine::ExecReport back = engine::trace_from_text(text);
    REQUIRE((back.grid == rep.grid && back.block == rep.block && back.site_source.size() == 2 &&
             back.site_source[1].file == "my file.cu" && back.site_source[1].line == 28 && back.trace.size() == 2 &&
             back.trace[0].offset == (1LL << 33) && back.trace[1].space == engine::Space::shared &&
             back.trace[0].occurrence == 2 && back.trace[0].seq == 40));
    REQUIRE_THROWS_WITH(engine::trace_from_text(text.substr(0, text.size() - 4)), Catch::Contains("cut short"));
    REQUIRE_THROWS_WITH(engine::trace_from_text("hello\n"), Catch::Contains("not a stencil-lab trace"));
}
