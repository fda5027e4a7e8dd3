// The progress display: a bar on a terminal, rate-limited plain lines elsewhere, nothing when off.
#include "core/progress.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace stencil {

namespace {
constexpr auto kLineInterval = std::chrono::seconds(2);         // plain lines: at most one per 2 s
constexpr auto kBarInterval = std::chrono::milliseconds(100);   // a bar: redrawn ~10 times a second
constexpr int kBarWidth = 24;
constexpr std::size_t kWhatWidth = 44;  // the bar's "what" is cut to keep the line on one row
}  // namespace

Progress::Mode Progress::mode_from_environment(std::FILE* out) {
    if (const char* e = std::getenv("STENCIL_LAB_PROGRESS")) {
        if (std::strcmp(e, "0") == 0) return Mode::off;
        if (std::strcmp(e, "1") == 0) return Mode::bar;
    }
    return isatty(fileno(out)) ? Mode::bar : Mode::lines;
}

std::string Progress::format_duration(double s) {
    if (!(s >= 0)) return "?";
    const long long t = (long long)(s + 0.5);
    if (t >= 3600) return fmt::format("{}h{:02}m", t / 3600, (t % 3600) / 60);
    if (t >= 60) return fmt::format("{}m{:02}s", t / 60, t % 60);
    return fmt::format("{}s", t);
}

Progress::Progress(std::string title, long long total)
    : Progress(std::move(title), total, mode_from_environment(stderr), stderr) {}

Progress::Progress(std::string title, long long total, Mode mode, std::FILE* out)
    : title_(std::move(title)), total_(std::max(0LL, total)), mode_(mode), out_(out),
      start_(Clock::now()) {}

Progress::~Progress() { finish(); }

void Progress::update(long long done, std::string_view what) { update_at(done, what, Clock::now()); }

void Progress::update_at(long long done, std::string_view what, Clock::time_point now) {
    if (mode_ == Mode::off || finished_) return;
    done_ = std::clamp(done, 0LL, total_);
    what_.assign(what);
    const bool last = done_ == total_;
    if (mode_ == Mode::bar) {
        if (!drawn_ || last || now - last_draw_ >= kBarInterval) draw_bar(now);
        return;
    }
    // Lines: the first, then one per interval, and the last (once).
    if (last ? last_printed_done_ != done_ : (!drawn_ || now - last_draw_ >= kLineInterval)) {
        print_line();
        last_draw_ = now;
        drawn_ = true;
    }
}

void Progress::print_line() {
    fmt::print(out_, "{}: {}/{}{}{}\n", title_, done_, total_, what_.empty() ? "" : " ", what_);
    std::fflush(out_);
    last_printed_done_ = done_;
}

void Progress::draw_bar(Clock::time_point now) {
    const int filled = total_ ? int(done_ * kBarWidth / total_) : kBarWidth;
    std::string left;
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    if (done_ > 0 && done_ < total_)
        left = "  ~" + format_duration(elapsed / double(done_) * double(total_ - done_)) + " left";
    std::string what = what_;
    if (what.size() > kWhatWidth) what = what.substr(0, kWhatWidth - 3) + "...";
    // \r then the line, then erase what a longer previous line left (ESC [ K).
    fmt::print(out_, "\r{} [{}{}] {}/{} {}{}\x1b[K", title_, std::string(filled, '#'),
               std::string(kBarWidth - filled, ' '), done_, total_, what, left);
    std::fflush(out_);
    last_draw_ = now;
    drawn_ = true;
}

void Progress::finish(std::string_view summary) {
    if (finished_) return;
    finished_ = true;
    if (mode_ == Mode::off) return;
    if (mode_ == Mode::bar) {
        if (!drawn_ && summary.empty()) return;  // never shown: leave no empty line behind
        if (!summary.empty()) {
            fmt::print(out_, "\r{}: {}\x1b[K\n", title_, summary);
        } else {
            fmt::print(out_, "\n");
        }
        std::fflush(out_);
        return;
    }
    // Lines: the last state, if a rate-limited update hid it, then the summary.
    if (drawn_ && last_printed_done_ != done_) print_line();
    if (!summary.empty()) {
        fmt::print(out_, "{}: {}\n", title_, summary);
        std::fflush(out_);
    }
}

}  // namespace stencil
