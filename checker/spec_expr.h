// The integer expressions an exercise's spec writes for its macros and its launch
// ("T - 2*r", "cdiv(nx - 2*b, OUT_TILE_DIM)"): parsed once when the spec is read, so that a name
// the spec does not define, or a stray character, is an error naming its column there; evaluated
// for each tile and grid size. Only the value ever reaches the compiler or the launch (a macro is
// written as `#define NAME <integer>`): no text of the spec is pasted into code.
//
// Grammar: integer literals, names, + - * / % (C's integer division and remainder, on 64 bits),
// unary minus, parentheses, and the functions cdiv(a, b) (a / b rounded up), min(a, b), max(a, b).
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace stencil::checker {

class SpecExpr {
public:
    struct Node;
    SpecExpr();
    ~SpecExpr();
    SpecExpr(const SpecExpr&);
    SpecExpr& operator=(const SpecExpr&);

    // Parses `text`; `known` says which names may appear. On an error, nullopt and `error` holds
    // "column C: what is wrong" (1-based, in `text`).
    static std::optional<SpecExpr> parse(const std::string& text, const std::function<bool(const std::string&)>& known,
                                         std::string& error);

    // The value with each name looked up in `value_of` (which must know every name `known` let
    // through); nullopt and `error` for a division by zero or a value past 32 bits.
    std::optional<long long> eval(const std::function<long long(const std::string&)>& value_of, std::string& error) const;

    const std::string& text() const { return text_; }
    // The names it reads, each once, in the order they first appear.
    std::vector<std::string> names() const;

private:
    std::string text_;
    std::shared_ptr<const Node> root_;
};

}  // namespace stencil::checker
