#include "checker/process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <chrono>
#include <cstring>

namespace stencil::checker {

std::string ChildResult::describe() const {
    if (!started) return "could not be started";
    if (stopped) return fmt::format("stopped on request after {:.1f} s", seconds);
    if (timed_out) return fmt::format("killed after the time limit ({:.1f} s)", seconds);
    if (signal) return fmt::format("killed by signal {} ({})", signal, strsignal(signal));
    return fmt::format("exit code {}", exit_code);
}

namespace {

using Clock = std::chrono::steady_clock;
// In fractional seconds, as wall_seconds is: a deadline rounded to whole ticks would differ.
using Deadline = std::chrono::time_point<Clock, std::chrono::duration<double>>;

// ---- child: these two run between fork and exec, so only async-signal-safe calls ----
void set_child_rlimits(const ChildLimits& lim) {
    struct rlimit rl;
    rl.rlim_cur = rl.rlim_max = 0;
    setrlimit(RLIMIT_CORE, &rl);
    if (lim.address_space_bytes > 0) {
        rl.rlim_cur = rl.rlim_max = static_cast<rlim_t>(lim.address_space_bytes);
        setrlimit(RLIMIT_AS, &rl);
    }
    if (lim.file_bytes > 0) {
        rl.rlim_cur = rl.rlim_max = static_cast<rlim_t>(lim.file_bytes);
        setrlimit(RLIMIT_FSIZE, &rl);
    }
    // CPU time: a backstop behind the wall clock (threads add up, so allow for 2 of them).
    rl.rlim_cur = rl.rlim_max = static_cast<rlim_t>(2 * lim.wall_seconds + 5);
    setrlimit(RLIMIT_CPU, &rl);
}

[[noreturn]] void exec_in_child(char* const* args, int write_fd, pid_t parent, const ChildLimits& lim,
                                const std::string& cwd) {
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
    dup2(write_fd, 1);
    dup2(write_fd, 2);
    const int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0) dup2(devnull, 0);
    set_child_rlimits(lim);
    if (!cwd.empty() && chdir(cwd.c_str()) != 0) _exit(127);
    execvp(args[0], args);
    const char msg[] = "stencil-lab: cannot start the child program\n";
    (void)!write(2, msg, sizeof msg - 1);
    _exit(127);
}

// ---- parent: reads the pipe until the child exits or the wall clock runs out ----
struct ChildWait {
    int status = 0;
    bool reaped = false;
};

// Reads the child's output into r.output (keeping about the last max_output_bytes) until it
// exits or the deadline passes (then r.timed_out).
// One piece of output kept (the tail) and handed to on_output; false at the end of the pipe.
bool read_piece(int read_fd, const ChildLimits& lim, ChildResult& r) {
    char buf[8192];
    const ssize_t n = read(read_fd, buf, sizeof buf);
    if (n <= 0) return n < 0 && errno == EINTR;
    r.output.append(buf, static_cast<size_t>(n));
    if (lim.on_output) lim.on_output(std::string_view(buf, static_cast<size_t>(n)));
    if (r.output.size() > 2 * lim.max_output_bytes) r.output.erase(0, r.output.size() - lim.max_output_bytes);
    return true;
}

// What is left in the pipe of a child that has exited, without waiting for a grandchild that
// may still hold it open.
void drain(int read_fd, const ChildLimits& lim, ChildResult& r) {
    pollfd p{read_fd, POLLIN, 0};
    while (poll(&p, 1, 0) > 0 && read_piece(read_fd, lim, r)) {}
}

ChildWait collect_output(pid_t pid, int read_fd, Deadline deadline, const ChildLimits& lim,
                         ChildResult& r) {
    ChildWait w;
    bool open_pipe = true;
    while (true) {
        const auto now = Clock::now();
        if (lim.stop && lim.stop->load()) {
            r.stopped = true;
            break;
        }
        if (now >= deadline) {
            // A loaded machine may wake this loop late: a child that has already exited finished
            // within its limit (its result is whole), and its exit is what counts, not a timeout.
            if (waitpid(pid, &w.status, WNOHANG) == pid) {
                w.reaped = true;
                if (open_pipe) drain(read_fd, lim, r);
            } else {
                r.timed_out = true;
            }
            break;
        }
        if (!open_pipe) {
            // The pipe closed (or the child closed its ends): wait for the exit, still bounded.
            if (waitpid(pid, &w.status, WNOHANG) == pid) {
                w.reaped = true;
                break;
            }
            usleep(2000);
            continue;
        }
        const int ms = static_cast<int>(
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count());
        pollfd p{read_fd, POLLIN, 0};
        const int pr = poll(&p, 1, std::min(ms + 1, 200));
        if (pr > 0) {
            open_pipe = read_piece(read_fd, lim, r);
        } else if (pr < 0 && errno != EINTR) {
            open_pipe = false;
        } else if (pr == 0 && waitpid(pid, &w.status, WNOHANG) == pid) {
            w.reaped = true;  // exited while something else of its group holds the pipe
            break;
        }
    }
    return w;
}

}  // namespace

ChildResult run_child(const std::vector<std::string>& argv, const ChildLimits& lim,
                      const std::string& cwd) {
    ChildResult r;
    if (argv.empty()) return r;
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);

    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) return r;
    const auto t0 = Clock::now();
    const pid_t parent = getpid();
    const pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return r;
    }
    if (pid == 0) exec_in_child(args.data(), fds[1], parent, lim, cwd);
    setpgid(pid, pid);  // also here, so the group exists before any kill below
    close(fds[1]);
    r.started = true;
    const Deadline deadline = t0 + std::chrono::duration<double>(lim.wall_seconds);
    ChildWait w = collect_output(pid, fds[0], deadline, lim, r);
    // Kill the whole group (grandchildren included) whatever happened, then reap.
    kill(-pid, SIGKILL);
    if (!w.reaped) waitpid(pid, &w.status, 0);
    close(fds[0]);
    if (r.output.size() > lim.max_output_bytes)
        r.output.erase(0, r.output.size() - lim.max_output_bytes);
    r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    if (WIFEXITED(w.status)) r.exit_code = WEXITSTATUS(w.status);
    if (WIFSIGNALED(w.status)) r.signal = WTERMSIG(w.status);
    if (r.timed_out || r.stopped) r.signal = 0;
    return r;
}

}  // namespace stencil::checker
