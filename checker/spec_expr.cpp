#include "checker/spec_expr.h"

#include <fmt/format.h>

#include <cctype>
#include <algorithm>
#include <limits>

namespace stencil::checker {

struct SpecExpr::Node {
    enum class Kind { number, name, neg, add, sub, mul, div, mod, cdiv, min, max } kind = Kind::number;
    long long value = 0;
    std::string name;
    std::shared_ptr<const Node> a, b;
};

namespace {

using NodePtr = std::shared_ptr<const SpecExpr::Node>;
using Kind = SpecExpr::Node::Kind;

struct Parser {
    const std::string& s;
    const std::function<bool(const std::string&)>& known;
    size_t at = 0;
    std::string error;

    bool fail(size_t column, std::string what) {
        if (error.empty()) error = fmt::format("column {}: {}", column + 1, what);
        return false;
    }
    void skip() {
        while (at < s.size() && std::isspace(static_cast<unsigned char>(s[at]))) ++at;
    }
    bool eat(char c) {
        skip();
        if (at < s.size() && s[at] == c) return ++at, true;
        return false;
    }
    NodePtr make(Kind k, NodePtr a, NodePtr b = nullptr) {
        auto n = std::make_shared<SpecExpr::Node>();
        n->kind = k, n->a = std::move(a), n->b = std::move(b);
        return n;
    }

    NodePtr expression() {
        NodePtr left = term();
        while (left) {
            if (eat('+')) left = make(Kind::add, left, term());
            else if (eat('-')) left = make(Kind::sub, left, term());
            else break;
            if (!left->b) return nullptr;
        }
        return left;
    }
    NodePtr term() {
        NodePtr left = unary();
        while (left) {
            if (eat('*')) left = make(Kind::mul, left, unary());
            else if (eat('/')) left = make(Kind::div, left, unary());
            else if (eat('%')) left = make(Kind::mod, left, unary());
            else break;
            if (!left->b) return nullptr;
        }
        return left;
    }
    NodePtr unary() {
        if (eat('-')) {
            NodePtr a = unary();
            return a ? make(Kind::neg, a) : nullptr;
        }
        return primary();
    }
    NodePtr primary() {
        skip();
        if (at >= s.size()) return fail(at, "an expression ends too early"), nullptr;
        const size_t start = at;
        if (eat('(')) {
            NodePtr e = expression();
            if (e && !eat(')')) return fail(at, "a ')' is missing"), nullptr;
            return e;
        }
        if (std::isdigit(static_cast<unsigned char>(s[at]))) {
            long long v = 0;
            while (at < s.size() && std::isdigit(static_cast<unsigned char>(s[at]))) {
                v = v * 10 + (s[at++] - '0');
                if (v > std::numeric_limits<int>::max()) return fail(start, "a number past 32 bits"), nullptr;
            }
            auto n = std::make_shared<SpecExpr::Node>();
            n->value = v;
            return n;
        }
        if (std::isalpha(static_cast<unsigned char>(s[at])) || s[at] == '_') {
            std::string name;
            while (at < s.size() && (std::isalnum(static_cast<unsigned char>(s[at])) || s[at] == '_')) name += s[at++];
            skip();
            if (at < s.size() && s[at] == '(') {
                const Kind k = name == "cdiv" ? Kind::cdiv : name == "min" ? Kind::min : name == "max" ? Kind::max : Kind::number;
                if (k == Kind::number)
                    return fail(start, fmt::format("unknown function '{}' (cdiv, min and max are known)", name)), nullptr;
                ++at;
                NodePtr a = expression();
                if (!a) return nullptr;
                if (!eat(',')) return fail(at, fmt::format("{}( takes two arguments: a ',' is missing", name)), nullptr;
                NodePtr b = expression();
                if (!b) return nullptr;
                if (!eat(')')) return fail(at, "a ')' is missing"), nullptr;
                return make(k, a, b);
            }
            if (!known(name)) return fail(start, fmt::format("unknown name '{}'", name)), nullptr;
            auto n = std::make_shared<SpecExpr::Node>();
            n->kind = Kind::name, n->name = name;
            return n;
        }
        return fail(at, fmt::format("unexpected '{}'", s[at])), nullptr;
    }
};

std::optional<long long> evaluate(const SpecExpr::Node& n, const std::function<long long(const std::string&)>& value_of,
                                  std::string& error) {
    if (n.kind == Kind::number) return n.value;
    if (n.kind == Kind::name) return value_of(n.name);
    const auto a = evaluate(*n.a, value_of, error);
    if (!a) return std::nullopt;
    if (n.kind == Kind::neg) return -*a;
    const auto b = evaluate(*n.b, value_of, error);
    if (!b) return std::nullopt;
    long long v = 0;
    switch (n.kind) {
        case Kind::add: v = *a + *b; break;
        case Kind::sub: v = *a - *b; break;
        case Kind::mul: v = *a * *b; break;
        case Kind::div:
        case Kind::mod:
        case Kind::cdiv:
            if (*b == 0) return error = "a division by zero", std::nullopt;
            v = n.kind == Kind::div ? *a / *b : n.kind == Kind::mod ? *a % *b : (*a + *b - (*b > 0 ? 1 : -1)) / *b;
            break;
        case Kind::min: v = std::min(*a, *b); break;
        case Kind::max: v = std::max(*a, *b); break;
        default: break;
    }
    if (v > std::numeric_limits<int>::max() || v < std::numeric_limits<int>::min())
        return error = "a value past 32 bits", std::nullopt;
    return v;
}

void collect(const SpecExpr::Node& n, std::vector<std::string>& out) {
    if (n.kind == Kind::name) {
        for (const auto& s : out)
            if (s == n.name) return;
        out.push_back(n.name);
    }
    if (n.a) collect(*n.a, out);
    if (n.b) collect(*n.b, out);
}

}  // namespace

SpecExpr::SpecExpr() = default;
SpecExpr::~SpecExpr() = default;
SpecExpr::SpecExpr(const SpecExpr&) = default;
SpecExpr& SpecExpr::operator=(const SpecExpr&) = default;

std::optional<SpecExpr> SpecExpr::parse(const std::string& text, const std::function<bool(const std::string&)>& known,
                                        std::string& error) {
    Parser p{text, known, 0, {}};
    NodePtr root = p.expression();
    p.skip();
    if (root && p.at < text.size()) p.fail(p.at, fmt::format("unexpected '{}'", text[p.at]));
    if (!p.error.empty() || !root) {
        error = p.error.empty() ? "column 1: not an expression" : p.error;
        return std::nullopt;
    }
    SpecExpr e;
    e.text_ = text;
    e.root_ = std::move(root);
    return e;
}

std::optional<long long> SpecExpr::eval(const std::function<long long(const std::string&)>& value_of,
                                        std::string& error) const {
    if (!root_) return error = "an empty expression", std::nullopt;
    return evaluate(*root_, value_of, error);
}

std::vector<std::string> SpecExpr::names() const {
    std::vector<std::string> out;
    if (root_) collect(*root_, out);
    return out;
}

}  // namespace stencil::checker
