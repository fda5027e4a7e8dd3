// `stencil-lab sweep`: every option checked before anything runs; a non-zero exit when nothing ran.
#include <catch2/catch.hpp>

#include "run_cli.h"

using namespace cli_test;

TEST_CASE("sweep: bad options fail at once with one line", "[cli]") {
    const fs::path out = fs::temp_directory_path() / "stencil_cli_sweep_out";
    const std::string o = " --backend cpu --out " + out.string();
    struct Case {
        std::string args;
        const char* message;
    };
    const Case c = GENERATE_COPY(
        Case{"sweep --kernels tiled --tiles 11 --size 12" + o, "nothing can run"},
        Case{"sweep --kernels naive --tiles 4 --size 12 --backend cpu --out /proc/stencil-x", "--out"},
        Case{"sweep --kernels naive --tiles 4 --size 12 --backend cpu --out /etc/passwd", "not a folder"},
        Case{"sweep --kernels naive --tiles 4 --size 12 --reps 0" + o, "--reps must be between 1 and 10000 (got '0')"},
        Case{"sweep --kernels , --size 12" + o, "empty item"},
        Case{"sweep --kernels naive --tiles 4, --size 12" + o, "empty item"},
        Case{"sweep --kernels naive --size 0" + o, "--size must be between 1 and 1048576 (got '0')"});
    CAPTURE(c.args);
    fs::remove_all(out);
    const Result r = run(c.args);
    CAPTURE(r.code, r.err, r.out);
    REQUIRE(r.code == 2);
    REQUIRE(r.err_lines() == 1);
    REQUIRE(contains(r.err, c.message));
    REQUIRE_FALSE(fs::exists(out / "results.csv"));
    fs::remove_all(out);
}
