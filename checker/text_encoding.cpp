#include "checker/text_encoding.h"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>

namespace stencil::checker {

namespace {

int line_at(const std::string& t, size_t pos) {
    return 1 + static_cast<int>(std::count(t.begin(), t.begin() + static_cast<std::ptrdiff_t>(pos), '\n'));
}

bool starts_with(const std::string& t, std::string_view prefix) {
    return t.size() >= prefix.size() && std::string_view(t).substr(0, prefix.size()) == prefix;
}

// The length of the UTF-8 sequence at i, or 0 when it is not one (overlong forms, surrogates and
// values past U+10FFFF included, as the standard says).
size_t utf8_sequence(const std::string& t, size_t i) {
    const auto b = [&](size_t k) { return k < t.size() ? static_cast<unsigned char>(t[k]) : 0u; };
    const unsigned c = b(i);
    auto cont = [&](size_t k) { return (b(k) & 0xC0u) == 0x80u; };
    if (c < 0x80) return 1;
    if (c >= 0xC2 && c <= 0xDF) return cont(i + 1) ? 2 : 0;
    if (c >= 0xE0 && c <= 0xEF) {
        const unsigned lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
        return b(i + 1) >= lo && b(i + 1) <= hi && cont(i + 2) ? 3 : 0;
    }
    if (c >= 0xF0 && c <= 0xF4) {
        const unsigned lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
        return b(i + 1) >= lo && b(i + 1) <= hi && cont(i + 2) && cont(i + 3) ? 4 : 0;
    }
    return 0;
}

constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

}  // namespace

std::string strip_utf8_bom(std::string text) {
    if (starts_with(text, kUtf8Bom)) text.erase(0, kUtf8Bom.size());
    return text;
}

std::optional<std::string> encoding_problem(const std::string& text, const std::string& display) {
    // UTF-32 first: its little-endian mark begins with UTF-16's.
    struct Mark {
        std::string_view bytes;
        const char* name;
    };
    static constexpr Mark kMarks[] = {{std::string_view("\xFF\xFE\0\0", 4), "UTF-32"},
                                      {std::string_view("\0\0\xFE\xFF", 4), "UTF-32"},
                                      {"\xFF\xFE", "UTF-16"},
                                      {"\xFE\xFF", "UTF-16"}};
    for (const Mark& m : kMarks)
        if (starts_with(text, m.bytes))
            return fmt::format("{}:1: the file is {} (it starts with a {} byte-order mark); save it as "
                               "UTF-8 or plain ASCII", display, m.name, m.name);
    for (size_t i = 0; i < text.size();) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        if (c == 0)
            return fmt::format("{}:{}: a NUL byte (at offset {}): this is not a text file, or it is "
                               "UTF-16 or UTF-32; submit the .cu source saved as UTF-8",
                               display, line_at(text, i), i);
        if ((c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f' && c != '\v') || c == 0x7f)
            return fmt::format("{}:{}: a control byte ({:#04x} at offset {}): this is not a text file; "
                               "submit the .cu source", display, line_at(text, i), int(c), i);
        const size_t len = utf8_sequence(text, i);
        if (len == 0)
            return fmt::format("{}:{}: a byte that is not UTF-8 ({:#04x} at offset {}); save the file as "
                               "UTF-8 (it may be Latin-1 or another legacy encoding)",
                               display, line_at(text, i), int(c), i);
        i += len;
    }
    return std::nullopt;
}

}  // namespace stencil::checker
