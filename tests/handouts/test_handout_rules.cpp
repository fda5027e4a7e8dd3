// The rules by which the handouts' commands are read and run on CI's CPU (handout_commands.h).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "handout_commands.h"

using namespace stencil::handouts;

TEST_CASE("handouts: GPU-sized grids shrink on the CPU, the model's arithmetic does not", "[handouts]") {
    std::string why;
    CHECK(for_the_cpu("stencil-lab sweep --kernels naive,tiled --size 256 --out s", &why) ==
          "stencil-lab sweep --kernels naive,tiled --size 32 --out s");
    CHECK(for_the_cpu("stencil-lab run --kernel register-tiled --nx 300 --ny 200 --nz 97 --json", &why) ==
          "stencil-lab run --kernel register-tiled --nx 32 --ny 32 --nz 32 --json");
    CHECK(for_the_cpu("stencil-lab run --kernel naive --tile 8 --size 16", &why) ==
          "stencil-lab run --kernel naive --tile 8 --size 16");
    CHECK(for_the_cpu("build/stencil-lab sweep --out sweep/", &why) == "stencil-lab sweep --out sweep/ --size 16");
    CHECK(for_the_cpu("stencil-lab sweep --replot docs/results/h100-sweep-256-f32", &why) ==
          "stencil-lab sweep --replot docs/results/h100-sweep-256-f32");
    CHECK(for_the_cpu("stencil-lab model --decompose 2x2x2 --size 512 --link-gbps 25", &why) ==
          "stencil-lab model --decompose 2x2x2 --size 512 --link-gbps 25");
    CHECK(for_the_cpu("for T in 4 6; do stencil-lab model --kernel tiled --tile $T --json | grep x; done", &why) ==
          "for T in 4 6; do stencil-lab model --kernel tiled --tile $T --json | grep x; done");
}

TEST_CASE("handouts: GPU-only commands, mpirun and synopses are not run, each with its reason", "[handouts]") {
    const auto [command, reason] = GENERATE(table<const char*, const char*>({
        {"build/stencil-lab baseline --size 512", "GPU only"},
        {"stencil-lab run --kernel naive --size 256 --counters", "GPU only"},
        {"stencil-lab run --kernel tiled --decompose 1x1x2 --gpus 2", "GPU only"},
        {"stencil-lab run --kernel tiled --backend cuda", "GPU only"},
        {"mpirun -np 4 build/stencil-lab run --kernel tiled --decompose 2x2x1 --backend cpu", "mpirun"},
        {"stencil-lab check FILE.cu --exercise E", "a synopsis"},
        {"stencil-lab model --bounds | --registers | --derivatives", "a synopsis"},
        {"stencil-lab cache info | clear [--json]", "a synopsis"},
        {"stencil-lab check ... --json", "a synopsis"},
    }));
    CAPTURE(command);
    std::string why;
    REQUIRE((for_the_cpu(command, &why).empty() && why.rfind(reason, 0) == 0));
}

TEST_CASE("handouts: fenced shell lines, exits from comments, heredocs, recipes, and the prose's spans",
          "[handouts]") {
    const std::string md = "# Lab\n"
                           "Run `stencil-lab model --kernel naive\n"
                           "--tile 8` first.\n"
                           "```\n"
                           "cat > a.json <<'END'\n"
                           "{\"answers\": {}}\n"
                           "END\n"
                           "stencil-lab lab check 1 a.json   # exit 1 until every answer is right\n"
                           "scripts/test-lab\n"
                           "stencil-lab run --kernel tiled \\\n"
                           "    --size 256\n"
                           "```\n"
                           "```json\n"
                           "stencil-lab not a command here\n"
                           "```\n"
                           "```sh\n"
                           "# answers: l2.opb-t4 l2.opb-t6\n"
                           "for T in 4 6; do stencil-lab model --kernel tiled --tile $T; done\n"
                           "```\n";
    const auto c = handout_commands("lab.md", md);
    REQUIRE(c.size() == 5);
    CHECK(c[4].run == "stencil-lab model --kernel naive --tile 8 --help");  // the prose: held to its words
    CHECK((!c[0].stencil_lab && c[0].text.find("END") != std::string::npos && c[0].line == 5));
    CHECK((c[1].stencil_lab && c[1].expect_exit == 1 && c[1].comment == "exit 1 until every answer is right"));
    CHECK((c[2].line == 10 && c[2].run == "stencil-lab run --kernel tiled --size 32" && c[2].expect_exit == 0));
    CHECK((c[3].answers == std::vector<std::string>{"l2.opb-t4", "l2.opb-t6"} && c[3].block == 2));
    CHECK((c[4].inline_span && c[4].line == 2 && c[4].text == "stencil-lab model --kernel naive --tile 8"));
}

TEST_CASE("handouts: on a GPU machine the commands run as written", "[handouts]") {
    std::string why;
    CHECK(for_the_cpu("stencil-lab sweep --kernels naive,tiled --size 256 --out s", &why, true) ==
          "stencil-lab sweep --kernels naive,tiled --size 256 --out s");
    CHECK(for_the_cpu("build/stencil-lab baseline --size 512", &why, true) == "stencil-lab baseline --size 512");
    CHECK(for_the_cpu("mpirun -np 4 build/stencil-lab run --kernel tiled", &why, true).empty());
    const auto c = handout_commands("lab.md", "```\nstencil-lab lab check 2 a.json --results s.json   # GPU: yours\n```\n", true);
    CHECK((c.size() == 1 && c[0].skip.empty() && !c[0].run.empty()));
}

TEST_CASE("handouts: a comment that starts with GPU: keeps a command off the CPU", "[handouts]") {
    const auto c = handout_commands("lab.md", "```\nstencil-lab lab check 2 a.json --results s/results.json   # GPU: your sweep\n```\n");
    REQUIRE(c.size() == 1);
    CHECK((c[0].run.empty() && c[0].skip == "GPU only: its text says so"));
    // a GPU-only command with another exit says it after GPU:
    const auto e = handout_commands("lab.md", "```\nstencil-lab lab check 2 a.json --results s.json   # GPU: exit 1 until right\n```\n", true);
    REQUIRE(e.size() == 1);
    CHECK((e[0].expect_exit == 1 && !e[0].run.empty()));
}

TEST_CASE("handouts: numbers are read as printed, not out of words", "[handouts]") {
    CHECK(numbers_in("1.37109375\n{\"opb\":0.578,\"n\":-2e-3}") == std::vector<double>{1.37109375, 0.578, -0.002});
    CHECK(numbers_in("l2.opb-t4 f32 T=8 x86_64").size() == 1);  // only the 8 of "T=8"
    CHECK(numbers_in("OP/B 2.68 at T 32").size() == 2);
}

TEST_CASE("handouts: every handout has commands the rules read", "[handouts]") {
    namespace fs = std::filesystem;
    const fs::path root = STENCIL_LAB_SOURCE_DIR;
    int files = 0, run = 0;
    for (const char* f : {"README.md", "labs/lab1-naive.md", "labs/lab2-tiling.md", "labs/lab3-coarsening.md",
                          "labs/lab4-cardiac.md", "labs/lab5-derivatives.md", "exercises/tiled/README.md"}) {
        std::ifstream in(root / f);
        std::stringstream s;
        s << in.rdbuf();
        const auto c = handout_commands(f, s.str());
        CAPTURE(f);
        int here = 0;
        for (const auto& x : c) here += x.stencil_lab && x.skip.empty();
        CHECK(here > 0);
        run += here;
        ++files;
    }
    CHECK((files == 7 && run >= 30));
}

#ifdef STENCIL_HANDOUTS_CHECKER
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "checker/exercises.h"

// The tiled README once gave 2.37 where `check` prints 3.014: a budget a README states must be the
// one the checker counts, at the size it counts it.
TEST_CASE("handouts: each tiled exercise's README states the budget check prints, at its N", "[handouts]") {
    namespace fs = std::filesystem;
    for (const auto& ex : stencil::checker::exercises()) {
        if (!ex.is_star3d() || !stencil::checker::tile_has_halo(ex)) continue;
        CAPTURE(ex.name);
        const int T = stencil::checker::default_tile(ex);
        const int n = stencil::checker::load_count_size(ex, T);
        const double budget = stencil::checker::load_budget(ex, n, T);
        std::ifstream in(fs::path(STENCIL_LAB_SOURCE_DIR) / "exercises" / ex.name / "README.md");
        std::stringstream s;
        s << in.rdbuf();
        const std::string text = s.str();
        CHECK((text.find(fmt::format("{:.3f}", budget)) != std::string::npos ||
               text.find(fmt::format("{:.1f} at N = {}", budget, n)) != std::string::npos));
        CHECK(text.find(fmt::format("N = {}", n)) != std::string::npos);
    }
}
#endif
