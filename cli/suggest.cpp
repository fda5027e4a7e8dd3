#include "cli/suggest.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace stencil::cli {

int edit_distance(std::string_view a, std::string_view b) {
    const auto same = [](char x, char y) {
        return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
    };
    const size_t n = a.size(), m = b.size();
    // d[i][j]: edits between a's first i letters and b's first j; three rows suffice for the swap.
    std::vector<std::vector<int>> d(n + 1, std::vector<int>(m + 1, 0));
    for (size_t i = 0; i <= n; ++i) d[i][0] = (int)i;
    for (size_t j = 0; j <= m; ++j) d[0][j] = (int)j;
    for (size_t i = 1; i <= n; ++i)
        for (size_t j = 1; j <= m; ++j) {
            const int cost = same(a[i - 1], b[j - 1]) ? 0 : 1;
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
            if (i > 1 && j > 1 && same(a[i - 1], b[j - 2]) && same(a[i - 2], b[j - 1]))
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[n][m];
}

std::optional<std::string> closest_name(std::string_view got, const std::vector<std::string>& candidates) {
    if (got.empty()) return std::nullopt;
    // Dashes are not letters a reader counts: "--kernal" is one edit from "--kernel" of six letters.
    const size_t letters = got.size() - std::min(got.find_first_not_of('-'), got.size());
    const int allowed = std::clamp((int)letters / 3, 1, 3);
    std::optional<std::string> best;
    int best_d = allowed + 1;
    for (const auto& c : candidates) {
        const int d = edit_distance(got, c);
        if (d < best_d) best_d = d, best = c;
    }
    if (best) return best;
    std::vector<std::string> starts;  // "reg" for "register-tiled": a prefix of exactly one
    for (const auto& c : candidates)
        if (letters >= 2 && c.size() > got.size() && edit_distance(got, std::string_view(c).substr(0, got.size())) == 0)
            starts.push_back(c);
    if (starts.size() == 1) return starts.front();
    return std::nullopt;
}

std::vector<std::string> split_names(std::string_view s) {
    std::vector<std::string> names;
    size_t at = 0;
    while (at <= s.size()) {
        const size_t comma = std::min(s.find(',', at), s.size());
        std::string_view w = s.substr(at, comma - at);
        while (!w.empty() && w.front() == ' ') w.remove_prefix(1);
        while (!w.empty() && w.back() == ' ') w.remove_suffix(1);
        if (!w.empty()) names.emplace_back(w);
        at = comma + 1;
    }
    return names;
}

std::string unknown_choice(std::string_view what, const std::string& got, const std::string& choices,
                           std::string_view context) {
    const auto near = closest_name(got, split_names(choices));
    return fmt::format("unknown {} '{}'{}{} ({}choose {})", what, got, context.empty() ? "" : " ", context,
                       near ? fmt::format("did you mean '{}'? ", *near) : "", choices);
}

}  // namespace stencil::cli
