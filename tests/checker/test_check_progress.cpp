// A check that talks and can be stopped (the viewer's check panel): the runner's case lines are
// read as they stream ("size k of n"), a stop flag kills the child's whole process group within a
// fraction of a second, and a stopped check ends in UserError "cancelled", never in a verdict.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "checker/checker.h"
#include "checker/process.h"
#include "checker/progress.h"
#include "core/error.h"

using namespace stencil;
using namespace stencil::checker;

namespace {
// A process that is gone or a zombie (its parent, init, has not reaped it yet).
bool process_dead(int pid) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!std::getline(stat, line)) return true;
    const size_t close = line.rfind(')');
    return close != std::string::npos && close + 2 < line.size() && line[close + 2] == 'Z';
}
}  // namespace

TEST_CASE("runner progress: case lines split across pieces, other lines ignored", "[checker][progress]") {
    std::vector<CheckProgress> seen;
    RunnerProgressReader r(4, [&](const CheckProgress& p) { seen.push_back(p); });
    r.feed("stencil-check-runner: compiling stencil.cu with NVRTC\nstencil-check-run");
    r.feed("ner: case 0 N=13 run 0 in_order\nsome output of the kernel: case 9\n");
    r.feed("stencil-check-runner: case 2 N=33 run 1 reversed\nstencil-check-runner: case 3 N=4");  // no newline yet
    REQUIRE((seen.size() == 2 && seen[0].size_number == 1 && seen[0].sizes == 4 && seen[0].n == 13 &&
             seen[0].line == "case 0 N=13 run 0 in_order" && seen[1].size_number == 3 && seen[1].n == 33));
}

TEST_CASE("run_child: the stop flag kills the child's process group", "[checker][progress]") {
    const std::string pid_file =
        (std::filesystem::temp_directory_path() / ("stencil-stop-" + std::to_string(getpid()))).string();
    std::atomic<bool> stop{false};
    ChildLimits lim;
    lim.wall_seconds = 30;
    lim.stop = &stop;
    std::thread setter([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(400));
        stop = true;
    });
    // A grandchild in the same group: it must die with the child.
    const ChildResult r = run_child({"sh", "-c", "sleep 30 & echo $! > " + pid_file + "; wait"}, lim);
    setter.join();
    int grandchild = 0;
    std::ifstream(pid_file) >> grandchild;
    std::filesystem::remove(pid_file);
    bool gone = false;
    for (int i = 0; i < 50 && !gone; ++i) {
        gone = grandchild > 0 && process_dead(grandchild);
        if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    REQUIRE((r.stopped && !r.timed_out && !r.ok() && r.seconds < 5 && gone &&
             r.describe().find("stopped on request") != std::string::npos));
}

TEST_CASE("a check reports size k of n as its runner goes, and a stop ends it as cancelled", "[checker][progress]") {
    const std::string file = std::string(STENCIL_LAB_SOURCE_DIR "/tests/checker/submissions/naive_const_fma_ok.cu");
    CheckOptions o;
    o.exercise = "naive";
    o.backend = "cpu";
    o.quick = true;
    std::vector<CheckProgress> seen;
    o.progress = [&](const CheckProgress& p) { seen.push_back(p); };
    const CheckResult full = check_submission(file, o);
    bool in_range = !seen.empty();
    for (const auto& p : seen) in_range &= p.sizes == (int)full.sizes.size() && p.size_number >= 1 && p.size_number <= p.sizes;
    REQUIRE((in_range && seen.back().size_number == (int)full.sizes.size()));

    // Stopped at the first case: no verdict, an error that says so, well before the runs' end.
    std::atomic<bool> stop{false};
    o.stop = &stop;
    o.progress = [&](const CheckProgress&) { stop = true; };
    const auto t0 = std::chrono::steady_clock::now();
    std::string why;
    try {
        check_submission(file, o);
    } catch (const UserError& e) {
        why = e.what();
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    CAPTURE(why, s, full.seconds);
    REQUIRE((why.find("cancelled") != std::string::npos && s < full.seconds + 1));
}
