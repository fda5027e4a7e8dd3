// CLI manners (issue 29): an unknown option, command, kernel or exercise is named with the closest
// valid name, as git and cargo suggest it; a mistyped option is named even when a required one is
// missing because of it; every command's --help comes in the same sections.
#include <catch2/catch.hpp>

#include <string>

#include "run_cli.h"

using cli_test::run;

namespace {
struct Case {
    const char* args;
    const char* says;
};
}  // namespace

TEST_CASE("suggestions: each kind of name is said with the closest one", "[cli][suggest]") {
    const Case c = GENERATE(
        Case{"run --kernal tiled", "unknown option '--kernal' (did you mean '--kernel'?)"},
        Case{"run --kernel tiled --szie 16", "unknown option '--szie' (did you mean '--size'?)"},
        Case{"model --kernel naive --tiel 8", "unknown option '--tiel' (did you mean '--tile'?)"},
        Case{"rnu --kernel tiled", "unknown command 'rnu' (did you mean 'run'? one of info, versions, run"},
        Case{"modle --kernel tiled", "unknown command 'modle' (did you mean 'model'?"},
        Case{"run --kernel tild", "unknown kernel 'tild' (did you mean 'tiled'? choose naive, tiled"},
        Case{"model --kernel registr-tiled", "unknown kernel 'registr-tiled' (did you mean 'register-tiled'?"},
        Case{"sweep --kernels naive,coarsend --out /tmp/x", "unknown kernel 'coarsend' (did you mean 'coarsened'?"},
        Case{"run --problem cardiac2d --kernel shard", "unknown kernel 'shard' for --problem cardiac2d (did you mean 'shared'?"},
        Case{"check exercises/tiled/stencil.cu --exercise tield", "unknown exercise 'tield' (did you mean 'tiled'?"},
        Case{"tune --kernel reg", "unknown kernel 'reg' (did you mean 'register-tiled'?"});
    CAPTURE(c.args);
    const auto r = run(c.args);
    CAPTURE(r.err);
    REQUIRE((r.code == 2 && r.err_lines() == 1 && r.first_err_line().find(c.says) != std::string::npos));
}

TEST_CASE("suggestions: nothing is suggested when nothing is near", "[cli][suggest]") {
    const Case c = GENERATE(Case{"run --kernel fancy", "unknown kernel 'fancy' (choose naive"},
                            Case{"fly --kernel naive", "unknown command 'fly' (one of"},
                            Case{"run --kernel tiled --frobnicate", "unknown option '--frobnicate' (see"});
    CAPTURE(c.args);
    const auto r = run(c.args);
    REQUIRE((r.code == 2 && r.first_err_line().find(c.says) != std::string::npos &&
             r.first_err_line().find("did you mean") == std::string::npos));
}

TEST_CASE("help: every command's options come in the same sections, in one order", "[cli][suggest]") {
    const auto r = run("run --help");
    REQUIRE(r.code == 0);
    const char* sections[] = {"What to run:", "The grid:", "Where it runs:", "Checking and timing:", "Output:", "Help:"};
    size_t at = 0;
    for (const char* s : sections) {
        CAPTURE(s);
        const size_t p = r.out.find(s, at);
        REQUIRE(p != std::string::npos);
        at = p;
    }
    CHECK(r.out.find("Other options:") == std::string::npos);  // every run option has its section
    for (const char* cmd : {"model", "sweep", "tune", "check", "baseline", "info", "versions", "cache", "lab"}) {
        CAPTURE(cmd);
        const auto h = run(std::string(cmd) + " --help");
        CHECK((h.code == 0 && h.out.find("Help:") != std::string::npos && h.out.find("OPTIONS:") == std::string::npos));
    }
}
