// The parser's tokens (parser.h): the tokenizer, and the small parsers of integers, immediates,
// types, spaces, dotted names and mangled names.
#include <cxxabi.h>

#include <cctype>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "backends/cpu/ptx/parser.h"

namespace ptx::parsing {

namespace {

bool ident_start(char c) { return std::isalpha((unsigned char)c) || c == '_' || c == '$' || c == '%' || c == '.'; }
bool ident_char(char c) { return std::isalnum((unsigned char)c) || c == '_' || c == '$' || c == '%' || c == '.'; }

}  // namespace

std::vector<Tok> tokenize(std::string_view s) {
    std::vector<Tok> out;
    int line = 1;
    size_t i = 0;
    while (i < s.size()) {
        const char c = s[i];
        if (c == '\n') {
            out.push_back({Tok::newline, "", line});
            ++line, ++i;
        } else if (std::isspace((unsigned char)c)) {
            ++i;
        } else if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
            while (i < s.size() && s[i] != '\n') ++i;
        } else if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
            i += 2;
            while (i + 1 < s.size() && !(s[i] == '*' && s[i + 1] == '/')) {
                if (s[i] == '\n') ++line;
                ++i;
            }
            i += 2;
        } else if (c == '"') {
            size_t j = i + 1;
            while (j < s.size() && s[j] != '"') j += (s[j] == '\\') ? 2 : 1;
            out.push_back({Tok::string, std::string(s.substr(i + 1, j - i - 1)), line});
            i = j + 1;
        } else if (std::isdigit((unsigned char)c)) {
            size_t j = i;
            while (j < s.size() && (std::isalnum((unsigned char)s[j]) || s[j] == '.')) ++j;
            out.push_back({Tok::number, std::string(s.substr(i, j - i)), line});
            i = j;
        } else if (ident_start(c)) {
            size_t j = i;
            while (j < s.size() && ident_char(s[j])) ++j;
            out.push_back({Tok::ident, std::string(s.substr(i, j - i)), line});
            i = j;
        } else {
            out.push_back({Tok::punct, std::string(1, c), line});
            ++i;
        }
    }
    out.push_back({Tok::end, "", line});
    return out;
}

std::optional<std::uint64_t> parse_int(const std::string& t) {
    if (t.empty()) return std::nullopt;
    std::string s = t;
    if (s.back() == 'U' || s.back() == 'u') s.pop_back();
    char* end = nullptr;
    std::uint64_t v;
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) v = std::strtoull(s.c_str() + 2, &end, 16);
    else if (s.size() > 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) v = std::strtoull(s.c_str() + 2, &end, 2);
    else if (s.size() > 1 && s[0] == '0' && std::isdigit((unsigned char)s[1])) v = std::strtoull(s.c_str() + 1, &end, 8);
    else v = std::strtoull(s.c_str(), &end, 10);
    if (!end || *end) return std::nullopt;
    return v;
}

std::optional<Ty> type_of(std::string_view t) {
    static const std::unordered_map<std::string_view, Ty> m{
        {"pred", Ty::pred}, {"b8", Ty::b8}, {"b16", Ty::b16}, {"b32", Ty::b32}, {"b64", Ty::b64},
        {"b128", Ty::b128}, {"u8", Ty::u8}, {"u16", Ty::u16}, {"u32", Ty::u32}, {"u64", Ty::u64},
        {"s8", Ty::s8}, {"s16", Ty::s16}, {"s32", Ty::s32}, {"s64", Ty::s64}, {"f16", Ty::f16},
        {"f16x2", Ty::f16x2}, {"bf16", Ty::bf16}, {"bf16x2", Ty::bf16x2}, {"f32", Ty::f32}, {"f64", Ty::f64}};
    auto it = m.find(t);
    if (it == m.end()) return std::nullopt;
    return it->second;
}

std::optional<Sp> space_of(std::string_view t) {
    if (t == "global") return Sp::global;
    if (t == "shared" || t == "shared::cta") return Sp::shared;
    if (t == "local") return Sp::local;
    if (t == "const") return Sp::constant;
    if (t == "param") return Sp::param;
    return std::nullopt;
}

std::vector<std::string> split_dots(const std::string& s) {
    std::vector<std::string> parts;
    size_t start = 0;
    for (size_t i = 0; i <= s.size(); ++i)
        if (i == s.size() || s[i] == '.') {
            parts.push_back(s.substr(start, i - start));
            start = i + 1;
        }
    return parts;
}

std::string demangle(const std::string& name) {
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> d(abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), std::free);
    return status == 0 && d ? std::string(d.get()) : name;
}

std::uint64_t Parser::parse_imm_text(const std::string& t, int line) {
    if (t.size() > 2 && t[0] == '0' && (t[1] == 'f' || t[1] == 'F')) {
        auto v = std::strtoull(t.c_str() + 2, nullptr, 16);
        return v;  // f32 bits
    }
    if (t.size() > 2 && t[0] == '0' && (t[1] == 'd' || t[1] == 'D')) return std::strtoull(t.c_str() + 2, nullptr, 16);
    const bool hex = t.size() > 1 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
    if (!hex && (t.find('.') != std::string::npos || t.find('e') != std::string::npos)) {
        double d = std::strtod(t.c_str(), nullptr);
        std::uint64_t b;
        std::memcpy(&b, &d, 8);
        return b;
    }
    auto v = parse_int(t);
    if (!v) fail(line, "malformed number '" + t + "'");
    return *v;
}

}  // namespace ptx::parsing
