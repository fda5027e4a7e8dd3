// core/progress.h: plain lines when not on a terminal (rate-limited, the last always shown), a bar
// redrawn in place on one, nothing when STENCIL_LAB_PROGRESS=0.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/progress.h"

using namespace stencil;
using namespace std::chrono_literals;

namespace {
// A FILE* into memory, read back as a string.
struct MemoryStream {
    char* data = nullptr;
    size_t size = 0;
    std::FILE* f = open_memstream(&data, &size);
    std::string text() {
        std::fflush(f);
        return std::string(data, size);
    }
    ~MemoryStream() {
        std::fclose(f);
        std::free(data);
    }
};
int count_lines(const std::string& s) {
    int n = 0;
    for (char c : s) n += c == '\n';
    return n;
}
}  // namespace

TEST_CASE("progress as plain lines: the first, one per 2 s, and the last", "[core][progress]") {
    MemoryStream m;
    REQUIRE(m.f);
    {
        Progress p("sweep", 10, Progress::Mode::lines, m.f);
        const auto t0 = Progress::Clock::now();
        p.update_at(0, "naive T=8", t0);           // printed (the first)
        p.update_at(1, "tiled T=3", t0 + 500ms);   // within 2 s: not printed
        p.update_at(2, "tiled T=4", t0 + 1900ms);  // still within 2 s
        p.update_at(3, "tiled T=5", t0 + 2100ms);  // printed
        p.update_at(4, "tiled T=6", t0 + 2200ms);  // not
        p.update_at(10, "done", t0 + 2300ms);      // the last: printed although within 2 s
        p.finish("10 configurations");
        p.finish("again");  // idempotent
    }
    const std::string out = m.text();
    CAPTURE(out);
    REQUIRE(out == "sweep: 0/10 naive T=8\nsweep: 3/10 tiled T=5\nsweep: 10/10 done\n"
                   "sweep: 10 configurations\n");
}

TEST_CASE("progress as plain lines: a rate-limited last state is printed at finish", "[core][progress]") {
    MemoryStream m;
    {
        Progress p("run", 100, Progress::Mode::lines, m.f);
        const auto t0 = Progress::Clock::now();
        for (int i = 0; i < 50; ++i) p.update_at(i, "rep", t0 + std::chrono::milliseconds(10 * i));
        // The destructor finishes: the hidden 49/100 is shown once, with no summary line.
    }
    const std::string out = m.text();
    CAPTURE(out);
    REQUIRE(out == "run: 0/100 rep\nrun: 49/100 rep\n");
}

TEST_CASE("progress as a bar: redrawn in place, one newline at the end", "[core][progress]") {
    MemoryStream m;
    {
        Progress p("sweep", 4, Progress::Mode::bar, m.f);
        const auto t0 = Progress::Clock::now();
        p.update_at(0, "a", t0);
        p.update_at(1, "b", t0 + 1s);
        p.update_at(2, "c", t0 + 2s);
        p.update_at(4, "d", t0 + 3s);
    }
    const std::string out = m.text();
    CAPTURE(out);
    REQUIRE(count_lines(out) == 1);
    REQUIRE(out.back() == '\n');
    REQUIRE(out.find("\r") != std::string::npos);
    REQUIRE(out.find("2/4 c") != std::string::npos);
    // 2 done in 2 s: 2 left take about 2 s more.
    REQUIRE(out.find("~2s left") != std::string::npos);
    REQUIRE(out.find("4/4 d") != std::string::npos);
}

TEST_CASE("STENCIL_LAB_PROGRESS=0 silences, =1 forces the bar, unset follows the terminal",
          "[core][progress]") {
    MemoryStream m;  // not a terminal
    const char* saved = std::getenv("STENCIL_LAB_PROGRESS");
    const std::string restore = saved ? saved : "";
    const auto mode_with = [&](const char* value) {
        if (value) setenv("STENCIL_LAB_PROGRESS", value, 1);
        else unsetenv("STENCIL_LAB_PROGRESS");
        return Progress::mode_from_environment(m.f);
    };
    CHECK(mode_with("0") == Progress::Mode::off);
    CHECK(mode_with("1") == Progress::Mode::bar);
    CHECK(mode_with(nullptr) == Progress::Mode::lines);
    if (saved) setenv("STENCIL_LAB_PROGRESS", restore.c_str(), 1);
    else unsetenv("STENCIL_LAB_PROGRESS");

    // And a display that is off writes nothing, whatever it is told.
    {
        Progress p("sweep", 3, Progress::Mode::off, m.f);
        p.update(1, "x");
        p.update(3, "y");
        p.finish("done");
    }
    REQUIRE(m.text().empty());
}

TEST_CASE("the time-left format", "[core][progress]") {
    CHECK(Progress::format_duration(0) == "0s");
    CHECK(Progress::format_duration(59.4) == "59s");
    CHECK(Progress::format_duration(60) == "1m00s");
    CHECK(Progress::format_duration(3725) == "1h02m");
}
