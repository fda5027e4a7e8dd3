// A reader of the Itanium C++ ABI's mangled function names, as far as a kernel's parameters go
// (mangled_name.h).
#include "checker/mangled_name.h"

#include <array>
#include <cctype>

namespace stencil::checker {

namespace {

struct BuiltinCode {
    char code;
    const char* name;
};
// <builtin-type> codes of the Itanium C++ ABI (the ones a kernel's parameters can have).
constexpr std::array<BuiltinCode, 20> kBuiltins = {{{'v', "void"},
                                                    {'w', "wchar_t"},
                                                    {'b', "bool"},
                                                    {'c', "char"},
                                                    {'a', "signed char"},
                                                    {'h', "unsigned char"},
                                                    {'s', "short"},
                                                    {'t', "unsigned short"},
                                                    {'i', "int"},
                                                    {'j', "unsigned int"},
                                                    {'l', "long"},
                                                    {'m', "unsigned long"},
                                                    {'x', "long long"},
                                                    {'y', "unsigned long long"},
                                                    {'n', "__int128"},
                                                    {'o', "unsigned __int128"},
                                                    {'f', "float"},
                                                    {'d', "double"},
                                                    {'e', "long double"},
                                                    {'g', "__float128"}}};

MangledType of_kind(MangledType::Kind kind, std::string name) {
    MangledType t;
    t.kind = kind;
    t.name = std::move(name);
    return t;
}

// One pass over a mangled name; any construct it does not know makes the whole name unknown
// (ok = false) rather than half-read.
class Demangler {
public:
    explicit Demangler(std::string_view s) : s_(s) {}

    std::optional<std::vector<MangledType>> parameters() {
        if (s_.substr(0, 2) != "_Z") return std::nullopt;
        i_ = 2;
        if (!function_name()) return std::nullopt;
        if (i_ >= s_.size()) return std::nullopt;  // a function's name has at least `v`
        std::vector<MangledType> params;
        while (i_ < s_.size()) {
            auto t = type();
            if (!t) return std::nullopt;
            params.push_back(*t);
        }
        // `v` alone is an empty parameter list
        if (params.size() == 1 && params[0].kind == MangledType::Kind::builtin && params[0].name == "void") params.clear();
        return params;
    }

private:
    std::string_view s_;
    size_t i_ = 0;
    std::vector<MangledType> subs_;  // the substitution candidates, in order (S_, S0_, S1_, ...)

    bool at(char c) const { return i_ < s_.size() && s_[i_] == c; }

    std::optional<std::string> source_name() {
        size_t len = 0, start = i_;
        while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) len = len * 10 + size_t(s_[i_++] - '0');
        if (i_ == start || len == 0 || i_ + len > s_.size()) return std::nullopt;
        std::string name(s_.substr(i_, len));
        i_ += len;
        return name;
    }

    // <name> of the function: [L] <source-name>, or N [CV] <prefix>... <source-name> E. The
    // prefixes are substitution candidates; the function's own name is not.
    bool function_name() {
        if (at('L')) ++i_;
        if (!at('N')) return source_name().has_value();
        ++i_;
        while (at('r') || at('V') || at('K')) ++i_;
        std::string prefix;
        for (;;) {
            auto part = source_name();
            if (!part) return false;
            if (at('E')) {
                ++i_;
                return true;
            }
            prefix += (prefix.empty() ? "" : "::") + *part;
            subs_.push_back(of_kind(MangledType::Kind::named, prefix));
        }
    }

    std::optional<MangledType> substitution() {
        ++i_;  // 'S'
        size_t seq = 0;
        if (at('_')) {
            ++i_;
        } else {
            size_t v = 0, start = i_;
            while (i_ < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[i_])) || std::isupper(static_cast<unsigned char>(s_[i_])))) {
                const char c = s_[i_++];
                v = v * 36 + size_t(std::isdigit(static_cast<unsigned char>(c)) ? c - '0' : c - 'A' + 10);
            }
            if (i_ == start || !at('_')) return std::nullopt;  // St, Sa, ...: the std library's names
            ++i_;
            seq = v + 1;
        }
        if (seq >= subs_.size()) return std::nullopt;
        return subs_[seq];
    }

    std::optional<MangledType> type() {
        if (i_ >= s_.size()) return std::nullopt;
        const char c = s_[i_];
        for (const auto& b : kBuiltins)
            if (b.code == c) {
                ++i_;
                return of_kind(MangledType::Kind::builtin, b.name);
            }
        if (c == 'r' || c == 'V' || c == 'K') {
            bool is_const = false, is_volatile = false;
            while (at('r') || at('V') || at('K')) {
                is_volatile |= at('V');
                is_const |= at('K');
                ++i_;
            }
            auto t = type();
            if (!t) return std::nullopt;
            t->is_const |= is_const;
            t->is_volatile |= is_volatile;
            subs_.push_back(*t);
            return t;
        }
        if (c == 'P' || c == 'R' || c == 'O') {
            ++i_;
            auto inner = type();
            if (!inner) return std::nullopt;
            MangledType t = of_kind(c == 'P' ? MangledType::Kind::pointer : MangledType::Kind::reference, "");
            t.pointee.push_back(*inner);
            subs_.push_back(t);
            return t;
        }
        if (std::isdigit(static_cast<unsigned char>(c))) {
            auto name = source_name();
            if (!name) return std::nullopt;
            MangledType t = of_kind(MangledType::Kind::named, *name);
            subs_.push_back(t);
            return t;
        }
        if (c == 'S') return substitution();
        return std::nullopt;  // arrays, functions, templates, vendor types: not a kernel's contract
    }
};

}  // namespace

std::string MangledType::spelled() const {
    const std::string cv = std::string(is_const ? "const " : "") + (is_volatile ? "volatile " : "");
    switch (kind) {
        case Kind::builtin:
        case Kind::named: return cv + name;
        case Kind::pointer: return pointee.at(0).spelled() + "*" + (is_const ? " const" : "");
        case Kind::reference: return pointee.at(0).spelled() + "&";
        case Kind::unknown: break;
    }
    return "?";
}

std::optional<std::vector<MangledType>> mangled_parameters(std::string_view lowered_name) {
    return Demangler(lowered_name).parameters();
}

}  // namespace stencil::checker
