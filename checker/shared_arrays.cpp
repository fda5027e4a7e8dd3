#include "checker/shared_arrays.h"

#include "checker/contract.h"
#include "checker/data_exercise.h"
#include "kernels/cardiac2d/versions.h"
#include "kernels/derivative/pencils.h"

#include <fmt/format.h>

#include <cctype>
#include <cstring>
#include <map>
#include <optional>
#include <sstream>

#include "checker/source.h"

namespace stencil::checker {

namespace {

std::vector<std::string> tokenize(const std::string& s) {
    std::vector<std::string> t;
    for (size_t i = 0; i < s.size();) {
        const char c = s[i];
        if (std::isspace(static_cast<unsigned char>(c))) {
            ++i;
        } else if (is_ident(c)) {  // identifiers and numbers (with their suffixes)
            size_t e = i;
            while (e < s.size() && is_ident(s[e])) ++e;
            t.push_back(s.substr(i, e - i));
            i = e;
        } else {
            t.push_back(std::string(1, c));
            ++i;
        }
    }
    return t;
}

using Macros = std::map<std::string, std::vector<std::string>>;

// Object-like #defines of the file (a function-like macro is not a number).
void read_defines(const std::string& code, Macros& m) {
    std::istringstream in(code);
    std::string line;
    while (std::getline(in, line)) {
        const auto t = tokenize(line);
        if (t.size() < 3 || t[0] != "#" || t[1] != "define") continue;
        const size_t name_end = line.find(t[2], line.find("define") + 6) + t[2].size();
        if (name_end < line.size() && line[name_end] == '(') continue;
        m[t[2]] = std::vector<std::string>(t.begin() + 3, t.end());
    }
}

// Integer constant expressions of + - * / % and parentheses over numbers and macros.
class Evaluator {
public:
    Evaluator(const Macros& m) : macros_(m) {}
    std::optional<long long> eval(const std::vector<std::string>& toks) {
        t_.clear();
        if (!expand(toks, 0)) return std::nullopt;
        p_ = 0;
        const auto v = sum();
        return v && p_ == t_.size() ? v : std::nullopt;
    }

private:
    bool expand(const std::vector<std::string>& toks, int depth) {
        if (depth > 16) return false;
        for (const auto& s : toks) {
            if (is_ident_start(s[0])) {
                const auto it = macros_.find(s);
                if (it == macros_.end() || !expand(it->second, depth + 1)) return false;
            } else {
                t_.push_back(s);
            }
        }
        return true;
    }
    std::optional<long long> sum() {
        auto v = product();
        while (v && p_ < t_.size() && (t_[p_] == "+" || t_[p_] == "-")) {
            const bool plus = t_[p_++] == "+";
            const auto r = product();
            if (!r) return std::nullopt;
            v = plus ? *v + *r : *v - *r;
        }
        return v;
    }
    std::optional<long long> product() {
        auto v = unary();
        while (v && p_ < t_.size() && (t_[p_] == "*" || t_[p_] == "/" || t_[p_] == "%")) {
            const std::string op = t_[p_++];
            const auto r = unary();
            if (!r || (op != "*" && *r == 0)) return std::nullopt;
            v = op == "*" ? *v * *r : op == "/" ? *v / *r : *v % *r;
        }
        return v;
    }
    std::optional<long long> unary() {
        if (p_ >= t_.size()) return std::nullopt;
        if (t_[p_] == "-" || t_[p_] == "+") {
            const bool neg = t_[p_++] == "-";
            const auto v = unary();
            return v && neg ? std::optional<long long>(-*v) : v;
        }
        if (t_[p_] == "(") {
            ++p_;
            const auto v = sum();
            if (!v || p_ >= t_.size() || t_[p_] != ")") return std::nullopt;
            ++p_;
            return v;
        }
        std::string num = t_[p_++];
        while (!num.empty() && std::strchr("uUlL", num.back())) num.pop_back();
        try {
            size_t used = 0;
            const long long v = std::stoll(num, &used, 0);
            return used == num.size() ? std::optional<long long>(v) : std::nullopt;
        } catch (...) {
            return std::nullopt;
        }
    }

    const Macros& macros_;
    std::vector<std::string> t_;
    size_t p_ = 0;
};

// Bytes of a built-in type named by `words` ("unsigned int", "double", ...); 0 if not one.
int type_bytes(const std::vector<std::string>& words) {
    int longs = 0;
    std::string base;
    for (const auto& w : words) {
        if (w == "long") ++longs;
        else if (w == "unsigned" || w == "signed") base = base.empty() ? "int" : base;
        else base = w;
    }
    if (base == "double") return 8;
    if (base == "float") return 4;
    if (base == "char" || base == "bool") return 1;
    if (base == "short") return 2;
    if (base == "int" || base.empty()) return longs >= 1 ? 8 : (words.empty() ? 0 : 4);
    return 0;
}

bool is_type_word(const std::string& w) {
    for (const char* k : {"unsigned", "signed", "int", "long", "short", "char", "bool", "float", "double"})
        if (w == k) return true;
    return false;
}

}  // namespace

SharedArrays find_shared_arrays(const std::string& source, const Exercise& ex, int tile) {
    const std::string code = blank_comments_and_literals(source);
    Macros macros;
    read_defines(code, macros);
    // The harness's macros (checker/contract.h), as the translation unit defines them.
    if (ex.is_data())
        for (const auto& [name, value] : data_macros(ex, tile)) macros[name] = {std::to_string(value)};
    else switch (ex.problem) {
        case Problem::star3d:
            macros["IN_TILE_DIM"] = {std::to_string(tile)};
            macros["OUT_TILE_DIM"] = {"(", "IN_TILE_DIM", "-", std::to_string(2 * ex.radius), ")"};
            break;
        case Problem::cardiac2d: {
            const auto& v = *cardiac2d::find_version(ex.version);
            macros["TILE_X"] = {std::to_string(v.tile_x)};
            macros["TILE_Y"] = {std::to_string(v.tile_y)};
            break;
        }
        case Problem::derivative:
            macros["MX"] = {std::to_string(kDerivativeExerciseMX)};
            macros["sPencils"] = {std::to_string(sPencils)};
            break;
    }
    Evaluator eval(macros);

    std::map<std::string, SharedArray> found;
    std::map<std::string, bool> ambiguous;
    const auto t = tokenize(code);
    for (size_t i = 0; i < t.size(); ++i) {
        if (t[i] != "__shared__") continue;
        size_t k = i + 1;
        std::vector<std::string> type;
        for (; k < t.size(); ++k) {
            if (t[k] == "volatile" || t[k] == "const" || t[k] == "static") continue;
            if (!is_type_word(t[k])) break;
            type.push_back(t[k]);
        }
        while (k < t.size() && t[k] == "volatile") ++k;
        const int bytes = type_bytes(type);
        if (bytes == 0) continue;  // a typedef'd or struct type: named by its flat element
        // Declarators: NAME [e] [e] ... separated by commas, up to the `;`.
        while (k < t.size() && is_ident_start(t[k][0])) {
            SharedArray a{t[k], bytes, {}};
            ++k;
            bool ok = true;
            while (k < t.size() && t[k] == "[") {
                std::vector<std::string> e;
                int depth = 1;
                for (++k; k < t.size() && depth > 0; ++k) {
                    if (t[k] == "[") ++depth;
                    if (t[k] == "]" && --depth == 0) break;
                    e.push_back(t[k]);
                }
                ++k;  // past the `]`
                const auto v = eval.eval(e);
                if (!v || *v <= 0) ok = false;
                else a.extents.push_back(*v);
            }
            if (ok && !a.extents.empty()) {
                auto [it, fresh] = found.emplace(a.name, a);
                if (!fresh && (it->second.extents != a.extents || it->second.elem_bytes != a.elem_bytes))
                    ambiguous[a.name] = true;
            }
            if (k < t.size() && t[k] == ",") {
                ++k;
                continue;
            }
            break;
        }
    }
    SharedArrays out;
    for (auto& [name, a] : found)
        if (!ambiguous.count(name)) out.push_back(std::move(a));
    return out;
}

std::string shared_cell_name(const SharedArrays& arrays, const std::string& name, long long offset,
                             int access_bytes) {
    for (const auto& a : arrays) {
        if (a.name != name) continue;
        long long index = offset / a.elem_bytes, total = 1;
        for (long long e : a.extents) total *= e;
        if (offset < 0 || offset % a.elem_bytes != 0 || index >= total) break;
        std::string s;
        for (auto e = a.extents.rbegin(); e != a.extents.rend(); ++e) {
            s = fmt::format("[{}]", index % *e) + s;
            index /= *e;
        }
        return name + s;
    }
    const long long element = access_bytes > 0 ? offset / access_bytes : offset;
    if (name.empty()) return fmt::format("shared array element {}", element);
    return fmt::format("{} element {}", name, element);
}

}  // namespace stencil::checker
