// Step beside the lab (viewer/core/trace_compare.h): a student's kernel and the lab's kernel of the
// same exercise traced on the same block, and the first shared cell or global store where they
// differ, with the student's line and the lab kernel's line. Kernels with a known first
// difference: a tile without its halo (a shared cell the lab stores and the student never does), a
// wrong neighbour (an output computed from another cell), a missing barrier (outputs stored before
// the lab's barrier); the textbook's listing as a student types it differs nowhere.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "viewer/core/kernel_source.h"
#include "viewer/core/student_trace.h"
#include "viewer/core/trace_compare.h"
#include "tests/viewer/viewer_test_support.h"

using namespace stencil;
using namespace stencil::viewer;
using stencil::viewer::test::scratch_file;

namespace {

std::string submission(const std::string& name) {
    return std::string(STENCIL_LAB_SOURCE_DIR "/tests/checker/submissions/") + name;
}

struct Pair {
    StepperTrace student, lab;
    TraceDifference d;
};

// The student's file and the lab's kernel of the exercise (tiled: T = 8), block (1, 1, 1) of 20^3.
Pair beside_the_lab(const std::string& file, const std::string& exercise = "tiled") {
    StepperConfig c;
    c.kernel_file = file;
    c.exercise = exercise;
    c.tile = 8;
    c.dims = {20, 20, 20};
    c.block = {1, 1, 1};
    Pair p;
    p.student = trace_block(c);
    p.lab = trace_block(lab_config_of(p.student.cfg));
    p.d = first_difference(p.student, p.lab);
    return p;
}

// The 1-based line of `file` that holds `text` (0: none).
int line_of(const std::string& file, const std::string& text) {
    const KernelSource s = read_kernel_source(file);
    for (size_t i = 0; i < s.lines.size(); ++i)
        if (s.lines[i].find(text) != std::string::npos) return (int)i + 1;
    return 0;
}

const std::string kLab = std::string(STENCIL_LAB_SOURCE_DIR "/kernels/tiled.cuh");

}  // namespace

TEST_CASE("beside the lab: a tile without its halo differs first at the halo cell the lab stores", "[viewer][compare]") {
    const std::string file = submission("tiled_no_halo.cu");
    const Pair p = beside_the_lab(file);
    const TraceDifference& d = p.d;
    CAPTURE(p.student.error, p.lab.error, d.error, d.what, d.cell, d.student.where.file, d.student.where.line,
            d.lab.where.file, d.lab.where.line);
    // Thread (0, 0, 0) stores tile[0][0][0] in the lab's kernel (in_s[tz][ty][tx] = in[c]); no thread
    // of the student's does: its store (line 10) skips the halo threads.
    REQUIRE((d.found && d.shared && d.interval == 0 && d.cell == "shared cell [0][0][0]" && d.lab.stores &&
             d.lab.thread == 0 && d.lab.holds == "in(5, 5, 5)" && d.lab.interval == 0 &&
             same_source_file(d.lab.where.file, kLab) && d.lab.where.line == line_of(kLab, "in_s[tz][ty][tx] = in[c];") &&
             !d.student.stores && same_source_file(d.student.where.file, file) && d.student.where.line == 10 &&
             d.student.step >= 1 && d.what.find("yours never stores it") != std::string::npos));
}

TEST_CASE("beside the lab: a wrong neighbour differs first at the first output, cell by cell", "[viewer][compare]") {
    std::ifstream in(submission("tiled_ok.cu"));
    std::stringstream text;
    text << in.rdbuf();
    // c2's neighbour is x - 1 instead of x + 1: x + 1 is never read (x - 1 is loaded once for both).
    const std::string wrong = std::regex_replace(text.str(), std::regex(R"(c2 \* tile\[threadIdx.z\]\[threadIdx.y\]\[threadIdx.x \+ 1\])"),
                                                 "c2 * tile[threadIdx.z][threadIdx.y][threadIdx.x - 1]");
    REQUIRE(wrong != text.str());
    const std::string file = scratch_file("viewer_compare_wrong_neighbour.cu", wrong);
    const Pair p = beside_the_lab(file);
    const TraceDifference& d = p.d;
    CAPTURE(p.student.error, d.error, d.what, d.cell, d.student.where.line, d.lab.where.line);
    // Block (1, 1, 1)'s first computing thread is (1, 1, 1): out(6, 6, 6).
    REQUIRE((d.found && !d.shared && d.interval == 1 && d.cell == "out(6, 6, 6)" && d.student.holds.empty() &&
             d.lab.holds == "in(7, 6, 6)" && d.what.find("never reads in(7, 6, 6)") != std::string::npos && d.student.stores && d.lab.stores &&
             d.lab.where.line == line_of(kLab, "out[c] = sum;") && d.student.where.line == line_of(file, "out[i*N*N") &&
             same_source_file(d.student.where.file, file)));
}

TEST_CASE("beside the lab: a missing barrier stores outputs in the lab's load interval", "[viewer][compare]") {
    const std::string file = submission("tiled_no_sync.cu");
    const Pair p = beside_the_lab(file);
    const TraceDifference& d = p.d;
    CAPTURE(p.student.error, d.error, d.what, d.cell, d.student.where.line, d.lab.where.line, p.student.intervals);
    REQUIRE((d.found && !d.shared && d.interval == 0 && d.cell == "out(6, 6, 6)" && d.student.interval == 0 &&
             d.lab.interval == 1 && d.what.find("the lab's kernel stores it only in barrier interval 1") != std::string::npos &&
             d.student.where.line == line_of(file, "out[i*N*N") &&
             d.lab.where.line == line_of(kLab, "out[c] = sum;")));
}

TEST_CASE("beside the lab: the textbook's kernel as a student types it differs nowhere", "[viewer][compare]") {
    const Pair p = beside_the_lab(submission("tiled_ok.cu"));
    const StepperTrace failed = [] {
        StepperTrace t;
        t.error = "no such file";
        return t;
    }();
    const TraceDifference none = first_difference(failed, p.lab);
    CAPTURE(p.d.what, p.d.error, none.error);
    REQUIRE((!p.d.found && p.d.error.empty() && p.d.what.starts_with("no difference") && !none.found &&
             none.error.find("no such file") != std::string::npos));
}

TEST_CASE("beside the lab: correct kernels of every z-marching exercise differ nowhere either", "[viewer][compare]") {
    const auto [file, exercise] = GENERATE(table<std::string, std::string>({{"naive_ok.cu", "naive"},
                                                                           {"coarsened_ok.cu", "coarsened"},
                                                                           {"register_tiled_ok.cu", "register-tiled"}}));
    const Pair p = beside_the_lab(submission(file), exercise);
    CAPTURE(file, p.student.error, p.lab.error, p.d.what, p.d.error);
    REQUIRE((p.student.ok() && p.lab.ok() && !p.d.found && p.d.error.empty()));
}

TEST_CASE("beside the lab: the coarsened kernel without its second barrier", "[viewer][compare]") {
    const std::string file = submission("coarsened_no_second_sync.cu");
    const Pair p = beside_the_lab(file, "coarsened");
    CAPTURE(p.student.error, p.d.what, p.d.cell, p.d.interval, p.d.student.where.line, p.d.lab.where.line);
    // Its march has 7 barrier intervals to the lab's 13: by interval 1 its queue has moved on, and
    // the plane the lab still holds was overwritten (line 10 stored it); the counts are said.
    REQUIRE((p.d.found && p.d.error.empty() && p.d.shared && p.d.interval == 1 && p.d.lab.stores &&
             !p.d.student.stores && p.d.student.held_until == 0 && p.d.student.where.line == 10 &&
             p.d.what.find("no longer holds it") != std::string::npos &&
             p.d.what.find("barrier intervals, the lab's kernel 13") != std::string::npos));
}
