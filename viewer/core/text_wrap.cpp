#include "viewer/core/text_wrap.h"

#include <cctype>

namespace stencil::viewer {

namespace {

bool digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// Where a word too long for a line may break: after an operator or a bracket, never inside a number
// ("1.37", "2^31", "-0.5").
bool may_break_after(std::string_view w, size_t i) {
    if (i + 1 >= w.size()) return false;
    const char c = w[i], next = w[i + 1];
    if (digit(c) && (digit(next) || next == '.' || next == ',')) return false;
    if ((c == '.' || c == ',') && digit(next) && i > 0 && digit(w[i - 1])) return false;
    static const std::string_view kAfter = ".,;:)]}*+-/=<>&|^%!?([{";
    return kAfter.find(c) != std::string_view::npos;
}

// A word wider than the line, cut into pieces that fit: at the last allowed break that fits, else
// at the last letter that fits (at least one letter a piece).
std::vector<std::string> split_word(std::string_view w, float width, const TextMeasure& measure) {
    std::vector<std::string> pieces;
    while (!w.empty() && measure(w) > width) {
        size_t fit = 1;
        while (fit < w.size() && measure(w.substr(0, fit + 1)) <= width) ++fit;
        size_t cut = 0;
        for (size_t i = 0; i < fit; ++i)
            if (may_break_after(w, i)) cut = i + 1;
        if (cut == 0) cut = fit;
        pieces.emplace_back(w.substr(0, cut));
        w.remove_prefix(cut);
    }
    if (!w.empty()) pieces.emplace_back(w);
    return pieces;
}

void wrap_paragraph(std::string_view p, float width, const TextMeasure& measure, std::vector<std::string>& out) {
    // Leading spaces (an indented code line) stay with the first word.
    size_t lead = 0;
    while (lead < p.size() && p[lead] == ' ') ++lead;
    std::string line(p.substr(0, lead));
    bool line_has_word = false;
    size_t at = lead;
    while (at < p.size()) {
        const size_t end = std::min(p.find(' ', at), p.size());
        const std::string_view word = p.substr(at, end - at);
        at = end;
        size_t spaces = 0;
        while (at < p.size() && p[at] == ' ') ++at, ++spaces;
        if (word.empty()) continue;
        const std::string candidate = line_has_word ? line + " " + std::string(word) : line + std::string(word);
        if (measure(candidate) <= width) {
            line = candidate;
            line_has_word = true;
            continue;
        }
        if (line_has_word) {
            out.push_back(line);
            line.clear();
        }
        if (measure(line + std::string(word)) <= width) {
            line += word;
        } else {  // wider than a whole line: in pieces
            auto pieces = split_word(word, width - measure(line), measure);
            for (size_t i = 0; i + 1 < pieces.size(); ++i) {
                out.push_back(line + pieces[i]);
                line.clear();
            }
            line += pieces.back();
        }
        line_has_word = true;
    }
    out.push_back(line);
}

}  // namespace

std::vector<std::string> wrap_lines(std::string_view text, float width, const TextMeasure& measure) {
    std::vector<std::string> out;
    size_t at = 0;
    while (true) {
        const size_t nl = text.find('\n', at);
        wrap_paragraph(text.substr(at, nl == std::string_view::npos ? std::string_view::npos : nl - at), width,
                       measure, out);
        if (nl == std::string_view::npos) break;
        at = nl + 1;
    }
    return out;
}

std::string wrap_text(std::string_view text, float width, const TextMeasure& measure) {
    std::string s;
    for (const auto& l : wrap_lines(text, width, measure)) s += (s.empty() ? "" : "\n") + l;
    return s;
}

}  // namespace stencil::viewer
