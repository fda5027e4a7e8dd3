// The exercises written as data on the GPU (label `gpu`: the device machine only): each folder's
// solution passes through the GPU path, and each of its wrong/ kernels gets a verdict its
// `// expect:` line allows there (checker/validate_exercise.h validates with the CPU engine and the
// GPU both when the GPU can run checks). The CPU half of the same validation runs in CI.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "checker/checker.h"
#include "checker/exercises.h"
#include "checker/validate_exercise.h"

using namespace stencil::checker;

TEST_CASE("exercises written as data validate on the GPU: solution, skeleton, wrong kernels", "[gpu][exercise]") {
    REQUIRE(!cuda_unavailable_for_checker());
    std::vector<const Exercise*> folders;
    for (const Exercise& ex : exercises())
        if (ex.is_data()) folders.push_back(&ex);
    // and the fixture whose launch gives dynamic shared memory (past 48 KiB needs no other test:
    // the runner asks for the attribute the same way)
    folders.push_back(find_exercise(STENCIL_LAB_SOURCE_DIR "/tests/checker/fixtures/heat2d_dynamic"));
    for (const Exercise* folder : folders) {
        const Exercise& ex = *folder;
        CAPTURE(ex.name);
        ValidateOptions o;
        o.backend = "cuda";
        const Validation v = validate_exercise(ex, o);
        int gpu_steps = 0;
        for (const ValidationStep& s : v.steps) {
            CAPTURE(s.what, s.detail);
            CHECK(s.ok);
            gpu_steps += s.what.find("on the GPU") != std::string::npos;
            UNSCOPED_INFO(s.what << ": " << s.detail);
        }
        CHECK(gpu_steps >= 4);  // the solution and at least three wrong kernels ran on the GPU
        CHECK(v.ok());
    }
}
