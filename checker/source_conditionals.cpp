// The preprocessor's conditional inclusion, for vetting (source_conditionals.h says what is known
// and what keeps every branch).
#include "checker/source_conditionals.h"

#include <cctype>
#include <cstring>
#include <map>
#include <optional>
#include <vector>

namespace stencil::checker {

// (a namespace of its own: the unity build puts this file beside others' anonymous namespaces)
namespace conditional_inclusion {

using Value = std::optional<long long>;  // nullopt: vetting cannot know it

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::vector<std::string> lex(const std::string& s) {
    std::vector<std::string> v;
    for (size_t i = 0; i < s.size();) {
        const char c = s[i];
        if (std::isspace(static_cast<unsigned char>(c))) {
            ++i;
        } else if (ident_start(c) || std::isdigit(static_cast<unsigned char>(c))) {
            size_t e = i + 1;
            while (e < s.size() && (ident_char(s[e]) || s[e] == '\'')) ++e;
            v.push_back(s.substr(i, e - i));
            i = e;
        } else {
            static const char* two[] = {"&&", "||", "<<", ">>", "<=", ">=", "==", "!=", "##"};
            std::string t(1, c);
            for (const char* op : two)
                if (s.compare(i, 2, op) == 0) t = op;
            v.push_back(t);
            i += t.size();
        }
    }
    return v;
}

// A macro the submission defined or undefined: whether that line is compiled for certain (else
// whether it is defined is unknown), and its body's tokens when they are its value (not for a
// function-like macro).
struct Macro {
    bool certain = true;
    bool defined = true;
    bool body_known = true;
    std::vector<std::string> body;
};

class ConditionEvaluator {
public:
    explicit ConditionEvaluator(const std::map<std::string, Macro>& macros) : macros_(macros) {}

    Value evaluate(const std::vector<std::string>& raw) {
        toks_.clear();
        if (!expand(raw, 0)) return std::nullopt;
        pos_ = 0;
        const Value v = conditional();
        return pos_ == toks_.size() ? v : std::nullopt;
    }

private:
    const std::map<std::string, Macro>& macros_;
    std::vector<std::string> toks_;  // numbers and operators only, or "?" for an unknown value
    size_t pos_ = 0;


    // `defined` resolved and macros replaced by their bodies; false: something unknown decides.
    bool expand(const std::vector<std::string>& in, int depth) {
        if (depth > 32) return false;
        for (size_t k = 0; k < in.size(); ++k) {
            const std::string& t = in[k];
            if (t == "defined") {
                size_t n = k + 1;
                const bool paren = n < in.size() && in[n] == "(";
                if (paren) ++n;
                if (n >= in.size() || !ident_start(in[n][0])) return false;
                const std::string& name = in[n];
                if (paren && (n + 1 >= in.size() || in[n + 1] != ")")) return false;
                k = paren ? n + 1 : n;
                const auto it = macros_.find(name);
                if (it == macros_.end() || !it->second.certain) return false;
                toks_.push_back(it->second.defined ? "1" : "0");
            } else if (ident_start(t[0])) {
                if (const auto it = macros_.find(t); it != macros_.end() && (it->second.defined || !it->second.certain)) {
                    if (!it->second.certain || !it->second.body_known || !expand(it->second.body, depth + 1)) return false;
                } else if (it != macros_.end()) {
                    toks_.push_back("0");  // #undef'd for certain
                } else if (t == "true" || t == "false") {
                    toks_.push_back(t == "true" ? "1" : "0");
                } else {
                    // a name the submission did not #define or #undef: the harness's, the
                    // compiler's (NVRTC predefines names, `__`-prefixed or not) or none; vetting
                    // cannot tell which, and dropping a branch NVRTC compiles would let what
                    // vetting refuses (an #include, asm) through unseen
                    return false;
                }
            } else {
                toks_.push_back(t);
            }
        }
        return true;
    }

    bool accept(const char* op) {
        if (pos_ < toks_.size() && toks_[pos_] == op) {
            ++pos_;
            return true;
        }
        return false;
    }

    static Value both(Value a, Value b, long long (*f)(long long, long long)) {
        if (!a || !b) return std::nullopt;
        return f(*a, *b);
    }

    Value conditional() {
        const Value c = logical_or();
        if (!accept("?")) return c;
        const Value a = conditional();
        if (!accept(":")) return std::nullopt;
        const Value b = conditional();
        if (!c) return std::nullopt;
        return *c ? a : b;
    }
    Value logical_or() {
        Value v = logical_and();
        while (accept("||")) {
            const Value r = logical_and();
            v = (v && *v) || (r && *r) ? Value(1) : (v && r) ? Value(0) : std::nullopt;
        }
        return v;
    }
    Value logical_and() {
        Value v = bit_or();
        while (accept("&&")) {
            const Value r = bit_or();
            v = (v && !*v) || (r && !*r) ? Value(0) : (v && r) ? Value(1) : std::nullopt;
        }
        return v;
    }
    Value bit_or() {
        Value v = bit_xor();
        while (pos_ < toks_.size() && toks_[pos_] == "|") {
            ++pos_;
            v = both(v, bit_xor(), [](long long a, long long b) { return a | b; });
        }
        return v;
    }
    Value bit_xor() {
        Value v = bit_and();
        while (accept("^")) v = both(v, bit_and(), [](long long a, long long b) { return a ^ b; });
        return v;
    }
    Value bit_and() {
        Value v = equality();
        while (pos_ < toks_.size() && toks_[pos_] == "&") {
            ++pos_;
            v = both(v, equality(), [](long long a, long long b) { return a & b; });
        }
        return v;
    }
    Value equality() {
        Value v = relational();
        for (;;) {
            if (accept("==")) v = both(v, relational(), [](long long a, long long b) { return (long long)(a == b); });
            else if (accept("!=")) v = both(v, relational(), [](long long a, long long b) { return (long long)(a != b); });
            else return v;
        }
    }
    Value relational() {
        Value v = shift();
        for (;;) {
            if (accept("<=")) v = both(v, shift(), [](long long a, long long b) { return (long long)(a <= b); });
            else if (accept(">=")) v = both(v, shift(), [](long long a, long long b) { return (long long)(a >= b); });
            else if (accept("<")) v = both(v, shift(), [](long long a, long long b) { return (long long)(a < b); });
            else if (accept(">")) v = both(v, shift(), [](long long a, long long b) { return (long long)(a > b); });
            else return v;
        }
    }
    Value shift() {
        Value v = additive();
        for (;;) {
            if (accept("<<")) v = both(v, additive(), [](long long a, long long b) { return b < 0 || b > 62 ? 0LL : a << b; });
            else if (accept(">>")) v = both(v, additive(), [](long long a, long long b) { return b < 0 || b > 62 ? 0LL : a >> b; });
            else return v;
        }
    }
    Value additive() {
        Value v = multiplicative();
        for (;;) {
            if (accept("+")) v = both(v, multiplicative(), [](long long a, long long b) { return a + b; });
            else if (accept("-")) v = both(v, multiplicative(), [](long long a, long long b) { return a - b; });
            else return v;
        }
    }
    Value multiplicative() {
        Value v = unary();
        for (;;) {
            if (accept("*")) {
                v = both(v, unary(), [](long long a, long long b) { return a * b; });
            } else if (accept("/") || (pos_ < toks_.size() && toks_[pos_] == "%")) {
                const bool mod = toks_[pos_ - 1] != "/";
                if (mod) ++pos_;
                const Value r = unary();
                if (!v || !r || *r == 0) return std::nullopt;  // (division by zero: the compiler's error)
                v = mod ? *v % *r : *v / *r;
            } else {
                return v;
            }
        }
    }
    Value unary() {
        if (accept("!")) {
            const Value v = unary();
            return v ? Value(!*v) : std::nullopt;
        }
        if (accept("-")) {
            const Value v = unary();
            return v ? Value(-*v) : std::nullopt;
        }
        if (accept("+")) return unary();
        if (accept("~")) {
            const Value v = unary();
            return v ? Value(~*v) : std::nullopt;
        }
        if (accept("(")) {
            const Value v = conditional();
            return accept(")") ? v : std::nullopt;
        }
        return number();
    }
    Value number() {
        if (pos_ >= toks_.size() || !std::isdigit(static_cast<unsigned char>(toks_[pos_][0]))) return std::nullopt;
        std::string t = toks_[pos_++];
        std::string digits;
        for (char c : t)
            if (c != '\'') digits += c;
        // (an unsigned literal makes the expression unsigned: not evaluated here)
        if (digits.find_first_of("uU") != std::string::npos) return std::nullopt;
        while (!digits.empty() && std::strchr("lL", digits.back())) digits.pop_back();
        int base = 10;
        size_t at = 0;
        if (digits.size() > 1 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) base = 16, at = 2;
        else if (digits.size() > 1 && digits[0] == '0' && (digits[1] == 'b' || digits[1] == 'B')) base = 2, at = 2;
        else if (digits.size() > 1 && digits[0] == '0') base = 8, at = 1;
        if (at >= digits.size()) return base == 8 ? Value(0) : std::nullopt;
        long long v = 0;
        for (size_t k = at; k < digits.size(); ++k) {
            const char c = char(std::tolower(static_cast<unsigned char>(digits[k])));
            const int d = std::isdigit(static_cast<unsigned char>(c)) ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : 99;
            if (d >= base) return std::nullopt;
            v = v * base + d;
        }
        return v;
    }
};

// One conditional group: whether its current branch is kept, whether an earlier branch was taken
// for certain, and whether vetting cannot tell (then every branch is kept).
struct ConditionalGroup {
    bool outer_kept = true;   // the region around the group is kept
    bool outer_certain = true;  // ... and certainly compiled
    bool kept = true;
    bool certain = true;
    bool taken = false;
    bool unknown = false;
};

}  // namespace conditional_inclusion

// Long because it is one pass of one state machine over the directives (a stack of open #if
// groups), whose cases share that stack.
std::string kept_by_preprocessor(const std::string& code) {
    using namespace conditional_inclusion;
    std::string out = code;
    std::map<std::string, Macro> macros;
    std::vector<ConditionalGroup> stack;
    auto kept = [&] { return stack.empty() || stack.back().kept; };
    auto certain = [&] { return stack.empty() || stack.back().certain; };
    // a branch's condition decided: kept, dropped, or (nullopt) unknown
    auto enter_branch = [&](ConditionalGroup& g, Value cond) {
        if (!g.outer_kept) {
            g.kept = false;
        } else if (g.unknown) {
            g.kept = true;
            g.certain = false;
        } else if (g.taken) {
            g.kept = false;
        } else if (!cond) {
            g.unknown = true;
            g.kept = true;
            g.certain = false;
        } else {
            g.kept = *cond != 0;
            g.taken = g.kept;
            g.certain = g.kept && g.outer_certain;
        }
    };
    for (size_t i = 0; i < code.size();) {
        size_t eol = i;
        while (eol < code.size() && !(code[eol] == '\n' && (eol == 0 || code[eol - 1] != '\\'))) ++eol;
        std::string line;
        for (size_t k = i; k < eol; ++k) {
            if (code[k] == '\\' && k + 1 < eol && code[k + 1] == '\n') {
                ++k;
                continue;
            }
            line += code[k];
        }
        const size_t p = line.find_first_not_of(" \t\f\v");
        std::string dir, rest;
        if (p != std::string::npos && line[p] == '#') {
            size_t q = line.find_first_not_of(" \t\f\v", p + 1);
            while (q != std::string::npos && q < line.size() && ident_char(line[q])) dir += line[q++];
            rest = q == std::string::npos ? "" : line.substr(q);
        }
        const bool conditional = dir == "if" || dir == "ifdef" || dir == "ifndef" || dir == "elif" || dir == "else" ||
                                 dir == "endif";
        if (conditional) {
            const std::vector<std::string> toks = lex(rest);
            ConditionEvaluator ev(macros);
            auto defined_value = [&]() -> Value {
                if (toks.empty()) return std::nullopt;
                return ev.evaluate({"defined", toks[0]});
            };
            if (dir == "if" || dir == "ifdef" || dir == "ifndef") {
                ConditionalGroup g;
                g.outer_kept = kept();
                g.outer_certain = certain();
                Value cond = dir == "if" ? ev.evaluate(toks) : defined_value();
                if (dir == "ifndef" && cond) cond = !*cond;
                enter_branch(g, g.outer_kept ? cond : Value(0));
                stack.push_back(g);
            } else if (!stack.empty()) {  // (an unbalanced directive is the compiler's error)
                ConditionalGroup& g = stack.back();
                if (dir == "elif") enter_branch(g, g.outer_kept && !g.taken && !g.unknown ? ev.evaluate(toks) : Value(0));
                else if (dir == "else") enter_branch(g, Value(1));
                else stack.pop_back();
            }
        } else if (!kept()) {
            for (size_t k = i; k < eol; ++k)
                if (out[k] != '\n') out[k] = ' ';
        } else if (dir == "define" || dir == "undef") {
            const std::vector<std::string> toks = lex(rest);
            if (!toks.empty() && ident_start(toks[0][0])) {
                Macro m;
                m.certain = certain();
                m.defined = dir == "define";
                // function-like: `(` right after the name, no space between
                const size_t name_end = rest.find(toks[0]) + toks[0].size();
                m.body_known = m.defined && !(name_end < rest.size() && rest[name_end] == '(');
                if (m.body_known) m.body.assign(toks.begin() + 1, toks.end());
                macros[toks[0]] = m;
            }
        }
        i = eol + 1;
    }
    return out;
}

}  // namespace stencil::checker
