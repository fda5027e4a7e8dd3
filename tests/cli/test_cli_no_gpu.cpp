// A student's first commands on a machine without a GPU (issue 45): a long `run` says it runs on the
// CPU engine and how long that will take before it starts, then shows its progress; what needs a
// GPU (`--counters`, `baseline`) says so at once with exit 2, before any work; `lab params` marks a
// GPU question once. Where a GPU is usable the no-GPU cases are skipped.
#include <catch2/catch.hpp>

#include "run_cli.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <regex>
#include <thread>

using namespace cli_test;

namespace {

// Starts `stencil-lab ARGS` with stderr into a file, waits until `until` matches what it wrote (or
// `limit_s` passes), then stops it: a 512^3 run is minutes on the CPU engine and the test needs only
// its first lines. Returns stderr so far and the seconds it took to match (negative: no match).
struct Started {
    std::string err;
    double matched_after = -1;
};
Started start_and_stop(const std::string& args, const std::regex& until, double limit_s) {
    const fs::path err = fs::temp_directory_path() / ("stencil_cli_nogpu_" + std::to_string(::getpid()) + ".err");
    const auto t0 = std::chrono::steady_clock::now();
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::setenv("STENCIL_LAB_PROGRESS", "1", 1);  // the terminal's display, into the file
        const std::string cmd = "exec " + binary().string() + " " + args + " >/dev/null 2>" + err.string();
        ::execl("/bin/sh", "sh", "-c", cmd.c_str(), (char*)nullptr);
        ::_exit(127);
    }
    Started s;
    for (;;) {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        s.err = slurp(err);
        if (std::regex_search(s.err, until)) {
            s.matched_after = t;
            break;
        }
        int status = 0;
        if (::waitpid(pid, &status, WNOHANG) == pid || t > limit_s) break;
    }
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    fs::remove(err);
    return s;
}

}  // namespace

TEST_CASE("run at 512^3 on the CPU engine says so, with a measured estimate, before it starts", "[cli][no-gpu]") {
    if (has_gpu()) {
        WARN("a GPU is usable here: the CPU fallback does not apply");
        return;
    }
    // The README's third command as a student without a GPU types it.
    const std::regex notice(R"(stencil-lab: no GPU: running 512\^3 on the CPU engine, about ([0-9]+) (s|min|h); )"
                            R"(--size 64 for a quick look\n)");
    const Started s = start_and_stop("run --kernel tiled --tile 8 --size 512", notice, 60);
    CAPTURE(s.err);
    REQUIRE(s.matched_after >= 0);
    // Before the run's work: the fp64 reference alone of 512^3 takes longer than this.
    CHECK(s.matched_after < 30);
    // Nothing else came first: the notice is the first line.
    CHECK(s.err.rfind("stencil-lab: no GPU: running 512^3", 0) == 0);
    std::smatch m;
    REQUIRE(std::regex_search(s.err, m, notice));
    // 134M cells, each of 4 launches interpreted thread by thread: minutes on any machine this
    // engine runs on, never seconds (a constant or a zero would read so).
    CHECK(m[2] != "s");
}

TEST_CASE("a long CPU run shows its progress, and its estimate is of the right size", "[cli][no-gpu]") {
    if (has_gpu()) {
        WARN("a GPU is usable here: the CPU fallback does not apply");
        return;
    }
    // 96^3 checked once: long enough to be called long (more than 64^3), short enough for CI.
    const Result r = run("run --kernel naive --size 96 --no-time");
    CAPTURE(r.code, r.err);
    REQUIRE(r.code == 0);
    std::smatch m;
    REQUIRE(std::regex_search(r.err, m, std::regex(R"(no GPU: running 96\^3 on the CPU engine, about ([0-9]+) s; )")));
    const double estimated = std::stod(m[1]);
    CAPTURE(estimated, r.seconds);
    // Progress lines (not a terminal: "run: k/100 stage"), ending at 100 when the run is done.
    CHECK(std::regex_search(r.err, std::regex(R"(run: [0-9]+/100 )")));
    CHECK(contains(r.err, "run: 100/100 done"));
    // The estimate comes from a measured launch: within a factor of four of the whole run (which
    // also makes the input and the fp64 reference), on a machine shared or not.
    CHECK(r.seconds <= 4 * std::max(estimated, 1.0) + 2);
    CHECK(estimated <= 4 * r.seconds + 1);
}

TEST_CASE("the other problems' long CPU runs say so too, before their work", "[cli][no-gpu]") {
    if (has_gpu()) {
        WARN("a GPU is usable here: the CPU fallback does not apply");
        return;
    }
    // cardiac2d's 4096^2 mesh: 20 checked steps of 16M cells, interpreted; the estimate comes from
    // one timed step on a 256^2 mesh
    const std::regex cardiac(R"(stencil-lab: no GPU: running the 4096\^2 mesh for 20 steps on the CPU engine, about )"
                             R"([0-9]+ (s|min); --size 64 for a quick look\n)");
    const Started c = start_and_stop("run --problem cardiac2d --kernel shared --size 4096", cardiac, 60);
    CAPTURE(c.err);
    CHECK(c.matched_after >= 0);
    CHECK(c.matched_after < 30);
    // the derivative's 256^3 (its largest built x extent): its launches scaled from one at the post's 64^3
    const std::regex derivative(R"(stencil-lab: no GPU: running 256\^3 on the CPU engine, about [0-9]+ (s|min); )"
                                R"(--size 64 for a quick look\n)");
    const Started d = start_and_stop("run --problem derivative --kernel x-spencils --size 256", derivative, 60);
    CAPTURE(d.err);
    CHECK(d.matched_after >= 0);
    CHECK(d.matched_after < 30);
    // and a short one stays quiet
    const Result quiet = run("run --problem cardiac2d --kernel shared --size 64 --backend cpu");
    CHECK(!contains(quiet.err, "CPU engine"));
}

TEST_CASE("a short CPU run stays quiet", "[cli][no-gpu]") {
    const Result r = run("run --kernel naive --size 16 --backend cpu");
    CAPTURE(r.code, r.err);
    REQUIRE(r.code == 0);
    CHECK(!contains(r.err, "CPU engine"));
    CHECK(r.err.empty());
}

TEST_CASE("run --backend cpu says the engine without 'no GPU', and no quick-look hint at 64^3 or less", "[cli][no-gpu]") {
    const Result r = run("run --kernel naive --size 64 --no-time --backend cpu");
    CAPTURE(r.code, r.err);
    REQUIRE(r.code == 0);
    CHECK(std::regex_search(r.err, std::regex(R"(^stencil-lab: running 64\^3 on the CPU engine, about [0-9]+ s\n)")));
    CHECK(!contains(r.err, "quick look"));
}

TEST_CASE("run --counters without a GPU says so at once, exit 2", "[cli][no-gpu]") {
    // --backend cpu on any machine; auto where there is no GPU.
    std::vector<std::string> cases = {"run --kernel naive --size 512 --counters --backend cpu"};
    if (!has_gpu()) cases.push_back("run --kernel tiled --tile 8 --size 512 --counters");
    for (const std::string& args : cases) {
        const Result r = run(args);
        CAPTURE(args, r.code, r.out, r.err, r.seconds);
        CHECK(r.code == 2);
        CHECK(r.err_lines() == 1);
        CHECK(contains(r.err, "--counters reads the GPU's hardware counters"));
        CHECK(r.out.empty());
        CHECK(r.seconds < 5);  // before the input, the reference or a launch (512^3: minutes)
    }
}

TEST_CASE("baseline without a GPU says so at once, exit 2", "[cli][no-gpu]") {
    if (has_gpu()) {
        WARN("a GPU is usable here: the no-GPU case does not apply");
        return;
    }
    const Result r = run("baseline --size 512");
    CAPTURE(r.code, r.err, r.seconds);
    CHECK(r.code == 2);
    CHECK(r.err_lines() == 1);
    CHECK(r.err.rfind("stencil-lab: no GPU: ", 0) == 0);
    CHECK(r.seconds < 5);
}

TEST_CASE("lab params marks a GPU question once", "[cli][lab]") {
    for (int lab = 1; lab <= 5; ++lab) {
        const Result r = run("lab params " + std::to_string(lab));
        CAPTURE(lab, r.code, r.out);
        REQUIRE(r.code == 0);
        CHECK(!contains(r.out, "GPU: GPU:"));
        CHECK(!contains(r.out, "GPU:  GPU"));
    }
    // Lab 1's three GPU questions say so, each once.
    const Result r = run("lab params 1");
    std::size_t n = 0;
    for (std::size_t at = r.out.find("GPU: "); at != std::string::npos; at = r.out.find("GPU: ", at + 1)) ++n;
    CHECK(n == 3);
}
