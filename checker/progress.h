// How far a check has got, read off the runner's own progress lines as they arrive
// ("stencil-check-runner: case 3 N=17 run 1 reversed", runner.h's progress()): the viewer's check
// panel shows "size k of n" from it. The runner already prints these lines for the evidence of a
// timeout, so no new protocol is needed: the parent only reads its stderr as it streams.
#pragma once
#include <functional>
#include <string>
#include <string_view>

namespace stencil::checker {

struct CheckProgress {
    int size_number = 0;  // 1-based index of the case (one grid size) being run
    int sizes = 0;        // how many cases the check runs
    int n = 0;            // that case's grid size (N^3)
    std::string line;     // the runner's line, without its prefix ("case 3 N=17 run 1 reversed")
};
using CheckProgressFn = std::function<void(const CheckProgress&)>;

// Splits the output into lines (pieces may end mid-line) and reports each case line.
class RunnerProgressReader {
public:
    RunnerProgressReader(int sizes, CheckProgressFn report) : sizes_(sizes), report_(std::move(report)) {}
    void feed(std::string_view piece);

private:
    void line(std::string_view l);
    int sizes_;
    CheckProgressFn report_;
    std::string partial_;
};

}  // namespace stencil::checker
