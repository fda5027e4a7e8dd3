// One progress display on stderr, shared by every long piece of work (the sweep, long runs, the
// baseline, batch checks).
//
//   terminal:      [#########           ] 12/40  tiled T=8 r=1 f32 N=256  ~1m20s left
//                  redrawn in place (at most ~10 times a second), the estimate from the mean
//                  time per item so far.
//   not a terminal: plain lines "title: k/n what", at most one every 2 s, and always the last,
//                  so a log or a CI job shows that work is moving without a line per item.
//   STENCIL_LAB_PROGRESS=0: nothing at all (=1 forces the terminal form; unset: decided by
//                  isatty(stderr)).
//
// Plain C++, no threads: update() draws from the caller's thread, so a display is only as live as
// the work calls it.
#pragma once
#include <chrono>
#include <cstdio>
#include <string>
#include <string_view>

namespace stencil {

class Progress {
public:
    enum class Mode { off, lines, bar };

    Progress(std::string title, long long total);
    void update(long long done, std::string_view what = {});  // done in 0..total (clamped)
    void finish(std::string_view summary = {});                // idempotent; the destructor calls it
    ~Progress();

    Progress(const Progress&) = delete;
    Progress& operator=(const Progress&) = delete;

    // For tests: a display on any stream in a given mode, with its own clock for the rate limit.
    using Clock = std::chrono::steady_clock;
    Progress(std::string title, long long total, Mode mode, std::FILE* out);
    void update_at(long long done, std::string_view what, Clock::time_point now);
    Mode mode() const { return mode_; }

    // The mode the environment asks for: STENCIL_LAB_PROGRESS=0 off, =1 bar, else bar on a
    // terminal and lines elsewhere.
    static Mode mode_from_environment(std::FILE* out);
    // "1h02m", "3m05s", "12s": the time-left estimate's format.
    static std::string format_duration(double seconds);

private:
    void draw_bar(Clock::time_point now);
    void print_line();

    std::string title_;
    long long total_;
    Mode mode_;
    std::FILE* out_;
    long long done_ = 0;
    std::string what_;
    Clock::time_point start_, last_draw_{};
    bool drawn_ = false, printed_last_ = false, finished_ = false;
    long long last_printed_done_ = -1;
};

}  // namespace stencil
