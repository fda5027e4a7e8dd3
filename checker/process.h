// Running a program in a child process with a wall-clock limit and resource limits, so that
// whatever it does (loop, crash, allocate, print without end) ends in a result, never in a hung
// or dead parent.
#pragma once
#include <atomic>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace stencil::checker {

struct ChildLimits {
    double wall_seconds = 60;
    long long address_space_bytes = 0;  // RLIMIT_AS; 0 = unlimited (CUDA needs a large one)
    long long file_bytes = 0;           // RLIMIT_FSIZE; 0 = unlimited
    std::size_t max_output_bytes = 64 * 1024;  // the tail of stdout+stderr that is kept
    // Set by another thread (the viewer's Cancel): the whole group is killed within ~0.2 s and the
    // result says `stopped`.
    const std::atomic<bool>* stop = nullptr;
    // Each piece of output as it arrives (a progress display reads the runner's lines from it).
    std::function<void(std::string_view)> on_output;
};

struct ChildResult {
    bool started = false;
    bool timed_out = false;
    bool stopped = false;  // killed because ChildLimits::stop was set
    int exit_code = -1;  // when it exited
    int signal = 0;      // when a signal ended it (SIGKILL after a timeout included)
    std::string output;  // stdout and stderr, interleaved (the tail)
    double seconds = 0;
    bool ok() const { return started && !timed_out && !stopped && signal == 0 && exit_code == 0; }
    std::string describe() const;  // "exit code 3", "killed by SIGSEGV (Segmentation fault)", ...
};

// argv[0] is looked up in PATH when it has no slash. The child runs in its own process group
// (the whole group is killed at the limit) and dies with the parent.
ChildResult run_child(const std::vector<std::string>& argv, const ChildLimits& limits,
                      const std::string& cwd = "");

}  // namespace stencil::checker
