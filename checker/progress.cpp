#include "checker/progress.h"

#include <charconv>

namespace stencil::checker {

void RunnerProgressReader::feed(std::string_view piece) {
    for (char c : piece) {
        if (c != '\n') {
            if (partial_.size() < 4096) partial_ += c;  // a runaway line is not a progress line
            continue;
        }
        line(partial_);
        partial_.clear();
    }
}

void RunnerProgressReader::line(std::string_view l) {
    constexpr std::string_view key = "stencil-check-runner: case ";
    if (l.substr(0, key.size()) != key || !report_) return;
    const std::string_view rest = l.substr(key.size());
    int index = -1;
    const auto [p, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), index);
    if (ec != std::errc() || index < 0) return;
    CheckProgress pr;
    pr.size_number = index + 1;
    pr.sizes = sizes_;
    pr.line = std::string(l.substr(key.size() - 5));
    if (const size_t at = rest.find(" N="); at != std::string_view::npos)
        std::from_chars(rest.data() + at + 3, rest.data() + rest.size(), pr.n);
    report_(pr);
}

}  // namespace stencil::checker
