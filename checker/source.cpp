// Reading and vetting a submission (source.h says what the contract is), and the translation unit.
//
// Sections: lexing (splices, comments and literals blanked, pp-numbers, raw strings, tokens);
// read_submission / read_and_vet; vet_source (encoding, directives, tokens, the kernel's name and
// body); the translation unit; NVRTC's log.
#include "checker/source.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>

#include "checker/source_conditionals.h"
#include "checker/text_encoding.h"
#include "core/error.h"

namespace stencil::checker {

bool is_ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_ident(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

namespace {
bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// The end of the pp-number starting at i ([lex.ppnumber]): digits, letters, `_`, `.`, an
// exponent sign after e/E/p/P, and C++14 digit separators (a `'` followed by a digit or letter:
// `1'000` is one number, not the start of a character literal).
size_t pp_number_end(const std::string& t, size_t i) {
    size_t e = i + 1;
    while (e < t.size()) {
        const char c = t[e];
        if (is_ident(c) || c == '.') {
            ++e;
        } else if ((c == '+' || c == '-') && std::strchr("eEpP", t[e - 1])) {
            ++e;
        } else if (c == '\'' && e + 1 < t.size() && is_ident(t[e + 1])) {
            e += 2;
        } else {
            break;
        }
    }
    return e;
}

// Where the raw string literal whose prefix ends at `quote` (R"delim( ... )delim") ends, or npos
// when this is not a well-formed raw string.
size_t raw_string_end(const std::string& t, size_t quote) {
    const size_t paren = t.find('(', quote + 1);
    if (paren == std::string::npos || paren - quote - 1 > 16) return std::string::npos;
    const std::string delim = t.substr(quote + 1, paren - quote - 1);
    if (delim.find_first_of(" ()\\\t\v\f\n\"") != std::string::npos) return std::string::npos;
    const size_t close = t.find(")" + delim + "\"", paren + 1);
    return close == std::string::npos ? t.size() : close + delim.size() + 2;
}
}  // namespace

std::string splice_lines(const std::string& t) {
    // Translation phase 2: a backslash (then only spaces or tabs, as GCC accepts) before a
    // newline joins two lines. Vetting must see `sys\<newline>tem` as the compiler does: as
    // `system`. The removed newlines are put back after the logical line, so every line keeps
    // its number up to the splice.
    std::string o;
    o.reserve(t.size());
    int owed = 0;
    for (size_t i = 0; i < t.size(); ++i) {
        if (t[i] == '\\') {
            size_t k = i + 1;
            while (k < t.size() && (t[k] == ' ' || t[k] == '\t')) ++k;
            if (k < t.size() && t[k] == '\n') {
                ++owed;
                i = k;
                continue;
            }
        }
        o += t[i];
        if (t[i] == '\n') {
            o.append(static_cast<size_t>(owed), '\n');
            owed = 0;
        }
    }
    o.append(static_cast<size_t>(owed), '\n');
    return o;
}

std::string blank_comments_and_literals(const std::string& t) {
    std::string o = t;
    const size_t n = t.size();
    size_t i = 0;
    auto blank = [&](size_t a, size_t b) {
        for (size_t k = a; k < b && k < n; ++k)
            if (o[k] != '\n') o[k] = ' ';
    };
    while (i < n) {
        if (t[i] == '/' && i + 1 < n && t[i + 1] == '/') {
            size_t e = i;
            // a line comment ends at a newline not preceded by a backslash
            while (e < n && !(t[e] == '\n' && (e == 0 || t[e - 1] != '\\'))) ++e;
            blank(i, e);
            i = e;
        } else if (t[i] == '/' && i + 1 < n && t[i + 1] == '*') {
            size_t e = t.find("*/", i + 2);
            e = e == std::string::npos ? n : e + 2;
            blank(i, e);
            i = e;
        } else if (is_ident_start(t[i])) {
            // A whole identifier: its letters never start a literal, except an encoding prefix
            // (u8'x', L"..") and the raw-string prefixes R, u8R, uR, UR, LR.
            size_t e = i;
            while (e < n && is_ident(t[e])) ++e;
            const std::string id = t.substr(i, e - i);
            if (e < n && t[e] == '"' && (id == "R" || id == "u8R" || id == "uR" || id == "UR" || id == "LR")) {
                const size_t end = raw_string_end(t, e);
                if (end != std::string::npos) {
                    blank(e + 1, end - 1);
                    i = end;
                    continue;
                }
            }
            i = e;
        } else if (is_digit(t[i]) || (t[i] == '.' && i + 1 < n && is_digit(t[i + 1]))) {
            i = pp_number_end(t, i);
        } else if (t[i] == '"' || t[i] == '\'') {
            const char q = t[i];
            size_t e = i + 1;
            while (e < n && t[e] != q && t[e] != '\n') e += (t[e] == '\\') ? 2 : 1;
            e = std::min(e + 1, n);
            blank(i + 1, e - 1 > i + 1 ? e - 1 : i + 1);
            i = e;
        } else {
            ++i;
        }
    }
    return o;
}

namespace {

int line_of(const std::string& t, size_t pos) {
    return 1 + static_cast<int>(std::count(t.begin(), t.begin() + std::min(pos, t.size()), '\n'));
}

struct Token {
    std::string text;
    size_t pos;
};

std::vector<Token> tokens_of(const std::string& code) {
    std::vector<Token> v;
    size_t i = 0;
    const size_t n = code.size();
    while (i < n) {
        const char c = code[i];
        if (std::isspace(static_cast<unsigned char>(c))) {
            ++i;
        } else if (is_ident_start(c)) {
            size_t e = i;
            while (e < n && is_ident(code[e])) ++e;
            v.push_back({code.substr(i, e - i), i});
            i = e;
        } else if (is_digit(c) || (c == '.' && i + 1 < n && is_digit(code[i + 1]))) {
            const size_t e = pp_number_end(code, i);
            v.push_back({code.substr(i, e - i), i});
            i = e;
        } else {
            // two-character punctuators that matter here
            if (i + 1 < n) {
                const std::string two = code.substr(i, 2);
                if (two == "%:" || two == "::" || two == "<:" || two == "??") {
                    v.push_back({two, i});
                    i += 2;
                    continue;
                }
            }
            v.push_back({std::string(1, c), i});
            ++i;
        }
    }
    return v;
}

// Names the contract keeps out of a submission, on both backends (checker/README.md says why):
// inline PTX (every instruction comes from NVRTC's code generation for CUDA C++, the same on
// both backends, and no special register beyond what CUDA C++ reads) and the pragma operators
// (they would bypass the #pragma rule below).
const std::set<std::string>& contract_identifiers() {
    static const std::set<std::string> s = {"asm", "__asm", "__asm__", "_Pragma", "__pragma"};
    return s;
}

std::string where(const std::string& name, const std::string& text, size_t pos) {
    return fmt::format("{}:{}", name, line_of(text, pos));
}

}  // namespace

std::string read_submission(const std::string& path) {
    // stat first: a FIFO would block a plain open or read forever, a directory "reads" as empty.
    struct stat st;
    if (::stat(path.c_str(), &st) != 0)
        throw UserError(fmt::format("{}: {}", path, std::strerror(errno)));
    if (S_ISDIR(st.st_mode))
        throw UserError(fmt::format("{}: is a folder, not a .cu file (--batch grades a folder)", path));
    if (!S_ISREG(st.st_mode))
        throw UserError(fmt::format("{}: is not a regular file (a FIFO, device or socket); give the "
                                    ".cu file itself", path));
    // O_NONBLOCK: should the path be swapped for a FIFO after the stat, the open does not hang.
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) throw UserError(fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
    struct stat fst;
    if (::fstat(fd, &fst) != 0 || !S_ISREG(fst.st_mode)) {
        ::close(fd);
        throw UserError(fmt::format("{}: is not a regular file", path));
    }
    std::string text(kMaxSourceBytes + 1, '\0');
    size_t got = 0;
    while (got < text.size()) {
        const ssize_t n = ::read(fd, text.data() + got, text.size() - got);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        got += static_cast<size_t>(n);
    }
    ::close(fd);
    text.resize(got);
    return text;
}

VettedSource read_and_vet(const std::string& path, const KernelContract& contract) {
    VettedSource s;
    std::string display = path;
    if (auto slash = display.find_last_of('/'); slash != std::string::npos)
        display = display.substr(slash + 1);
    // Keep the name printable and free of anything a #line directive would misread.
    for (char& c : display)
        if (!(is_ident(c) || c == '.' || c == '-' || c == '+')) c = '_';
    if (display.empty()) display = "submission.cu";
    s.display_name = display;
    return vet_source(read_submission(path), display, &contract);
}

namespace {

// What vetting found, before it becomes the VettedSource's problem.
struct Problem {
    SourceProblem kind;
    std::string message;
};

// The directives on logical lines (backslash-newline joins): only #define/#undef/#if*/#pragma
// unroll, and no #define of a name the harness defines.
std::optional<Problem> directive_problem(const std::string& code, const std::string& text, const std::string& display,
                                        const KernelContract& contract) {
    for (size_t i = 0; i < code.size();) {
        size_t eol = i;
        while (eol < code.size() && !(code[eol] == '\n' && (eol == 0 || code[eol - 1] != '\\'))) ++eol;
        std::string line = code.substr(i, eol - i);
        std::string joined;
        for (size_t k = 0; k < line.size(); ++k) {
            if (line[k] == '\\' && k + 1 < line.size() && line[k + 1] == '\n') {
                ++k;
                continue;
            }
            joined += line[k];
        }
        size_t p = joined.find_first_not_of(" \t\f\v");
        if (p != std::string::npos && joined[p] == '#') {
            size_t q = joined.find_first_not_of(" \t\f\v", p + 1);
            std::string dir;
            while (q != std::string::npos && q < joined.size() && is_ident(joined[q])) dir += joined[q++];
            static const std::set<std::string> ok = {"define", "undef", "if", "ifdef", "ifndef",
                                                     "elif", "else", "endif", "pragma", ""};
            if (!ok.count(dir))
                return Problem{SourceProblem::directive, fmt::format("{}: #{} is not allowed: a submission is device code only "
                                        "(the harness provides {}; nothing needs to be included)",
                                        where(display, text, i), dir, contract.harness_words)};
            std::string rest = q == std::string::npos ? "" : joined.substr(q);
            if (dir == "pragma") {
                // the pragma's name: `#pragma unroll`, `unroll 4`, `unroll(4)` (the Programming
                // Guide's form), `unroll (N)`, `nounroll`
                size_t w = rest.find_first_not_of(" \t\f\v");
                std::string word;
                while (w != std::string::npos && w < rest.size() && is_ident(rest[w])) word += rest[w++];
                if (word != "unroll" && word != "nounroll")
                    return Problem{SourceProblem::directive, fmt::format("{}: only #pragma unroll is allowed",
                                            where(display, text, i))};
            }
            if (dir == "define" || dir == "undef") {
                std::istringstream in(rest);
                std::string name;
                in >> name;
                name = name.substr(0, name.find('('));
                // (star3d: every c<digits> name, not only this radius's weights)
                const bool weight_like = contract.defines("c0") && name.size() >= 2 && name.size() <= 3 &&
                                         name[0] == 'c' &&
                                         std::all_of(name.begin() + 1, name.end(), [](char ch) { return ch >= '0' && ch <= '9'; });
                if (contract.defines(name) || weight_like || name.rfind("__", 0) == 0)
                    return Problem{SourceProblem::harness_name, fmt::format("{}: do not #{} {}: the harness defines it ({})",
                                            where(display, text, i), dir, name,
                                            contract.defines("IN_TILE_DIM") ? "IN_TILE_DIM follows --tile"
                                                                            : contract.harness_words)};
            }
        }
        i = eol + 1;
    }

    return std::nullopt;
}

// The tokens the contract keeps out, and exactly one __global__ (its token index in `global_tok`).
std::optional<Problem> token_problem(const std::vector<Token>& toks, const std::string& text,
                                     const std::string& display, const KernelContract& contract, size_t& global_tok) {
    size_t global_count = 0;
    for (size_t k = 0; k < toks.size(); ++k) {
        const auto& t = toks[k].text;
        // `%:` and `??=` spell `#`: a directive the line check above would not see.
        if (t == "%:" || t == "??")
            return Problem{SourceProblem::digraph, fmt::format("{}: `{}` is not allowed in a submission (write `#` itself)",
                                    where(display, text, toks[k].pos), t)};
        if (t == "extern" && k + 1 < toks.size() && toks[k + 1].text == "__shared__" && !contract.dynamic_shared)
            return Problem{SourceProblem::dynamic_shared, fmt::format("{}: extern __shared__ (dynamic shared memory) is not part of "
                                    "this exercise: the harness launches with no dynamic shared "
                                    "memory; declare a static __shared__ array sized with "
                                    "{}", where(display, text, toks[k].pos),
                                    contract.defines("IN_TILE_DIM") ? "IN_TILE_DIM" : "the harness's macros")};
        if (contract_identifiers().count(t))
            return Problem{SourceProblem::contract_identifier, fmt::format("{}: `{}` is not allowed: a submission is CUDA C++ for one "
                                    "stencil kernel (no inline PTX, no pragmas but #pragma unroll)",
                                    where(display, text, toks[k].pos), t)};
        if (t == "__global__") {
            ++global_count;
            global_tok = k;
        }
    }
    if (global_count == 0)
        return Problem{SourceProblem::no_kernel, fmt::format("{}: no kernel found: define {}", display, contract.signature())};
    if (global_count > 1)
        return Problem{SourceProblem::several_kernels, fmt::format("{}: {} __global__ functions: define exactly one kernel, "
                                "{} (use __device__ functions for helpers)",
                                display, global_count, contract.kernel)};
    return std::nullopt;
}

// Skips a parenthesised group that starts at toks[k] (`(`); returns the index after its `)`.
size_t after_group(const std::vector<Token>& toks, size_t k) {
    int depth = 0;
    for (; k < toks.size(); ++k) {
        if (toks[k].text == "(") ++depth;
        if (toks[k].text == ")" && --depth == 0) return k + 1;
    }
    return k;
}

// The kernel at token `global_tok`: `__global__` among the other specifiers in any order NVRTC
// accepts (`__launch_bounds__(...)` before or after `void`, `static`, `extern "C"`, a trailing
// return type), the contract's name, a parameter list and a body. The parameters' types are not
// read here: the runner checks them on the PTX (ptx_vetting.h), where no spelling can mislead.
std::optional<Problem> kernel_problem(const std::vector<Token>& toks, size_t global_tok, const std::string& text,
                                      const std::string& display, const KernelContract& contract) {
    const std::string at = where(display, text, toks[global_tok].pos);
    if (global_tok > 0 && toks[global_tok - 1].text == ">")
        return Problem{SourceProblem::template_kernel, fmt::format("{}: {} must not be a template", at, contract.kernel)};
    // The declarator's name: the last identifier before the parameter list's `(`, skipping
    // attribute-like groups; `(stencil_kernel)(...)` names it in parentheses.
    size_t k = global_tok + 1;
    std::string name;
    while (k < toks.size() && toks[k].text != "(" && toks[k].text != ";" && toks[k].text != "{") {
        const std::string& t = toks[k].text;
        if ((t == "__launch_bounds__" || t == "__attribute__" || t == "alignas" || t == "__declspec") &&
            k + 1 < toks.size() && toks[k + 1].text == "(") {
            k = after_group(toks, k + 1);
            continue;
        }
        if (is_ident_start(t[0])) name = t;
        ++k;
    }
    if (k + 2 < toks.size() && toks[k].text == "(" && toks[k + 1].text == contract.kernel && toks[k + 2].text == ")") {
        name = contract.kernel;
        k += 3;
    }
    const std::string expected = contract.signature();
    if (name != contract.kernel || k >= toks.size() || toks[k].text != "(")
        return Problem{SourceProblem::declaration, fmt::format("{}: the kernel must be declared as `{}`", at, expected)};
    // After the parameters: a body, perhaps after a trailing return type or noexcept.
    for (k = after_group(toks, k); k < toks.size(); ++k) {
        if (toks[k].text == "{") return std::nullopt;
        if (toks[k].text == ";" || toks[k].text == "}") break;
        if (toks[k].text == "(") k = after_group(toks, k) - 1;
    }
    return Problem{SourceProblem::definition,
                   fmt::format("{}: the kernel must be defined here as `{} {{ ... }}`", at, expected)};
}

}  // namespace

VettedSource vet_source(std::string text, std::string display, const KernelContract* contract_or_null) {
    // Without a contract: the star3d exercises' kernel (any radius: the weights are the harness's).
    static const KernelContract star3d = kernel_contract(*find_exercise("naive"));
    const KernelContract& contract = contract_or_null ? *contract_or_null : star3d;
    VettedSource s;
    s.display_name = display;
    auto fail = [&](SourceProblem kind, std::string msg) {
        s.ok = false;
        s.kind = kind;
        s.problem = std::move(msg);
        return s;
    };
    if (text.size() > kMaxSourceBytes)
        return fail(SourceProblem::too_large, fmt::format("{}: the file is larger than {} KiB; a stencil kernel is a page of "
                                "code", display, kMaxSourceBytes / 1024));
    text = strip_utf8_bom(std::move(text));
    if (auto p = encoding_problem(text, display)) return fail(SourceProblem::encoding, *p);
    text.erase(std::remove(text.begin(), text.end(), '\r'), text.end());
    if (text.find_first_not_of(" \t\n\f\v") == std::string::npos)
        return fail(SourceProblem::empty, fmt::format("{}: the file is empty; it must define {}", display,
                                                      contract.signature()));
    text = splice_lines(text);
    s.text = text;
    // The contract applies to what the compiler sees: the lines of branches the preprocessor drops
    // are blanked (a second __global__ inside #if 0 is no kernel).
    const std::string code = kept_by_preprocessor(blank_comments_and_literals(text));

    if (auto p = directive_problem(code, text, display, contract)) return fail(p->kind, p->message);
    const auto toks = tokens_of(code);
    size_t global_tok = 0;
    if (auto p = token_problem(toks, text, display, contract, global_tok)) return fail(p->kind, p->message);
    if (auto p = kernel_problem(toks, global_tok, text, display, contract)) return fail(p->kind, p->message);
    s.ok = true;
    return s;
}

namespace {

std::string line_directive(const std::string& name) {
    return fmt::format("#line 1 \"{}\"\n", name);
}

}  // namespace

std::string translation_unit(const VettedSource& s, const Exercise& ex, int tile) {
    std::string tu = line_directive(kHarnessFileName);
    tu += harness_declarations(ex, tile);
    tu += line_directive(s.display_name);
    tu += s.text;
    tu += "\n";
    return tu;
}

std::string tidy_compiler_output(const std::string& out, const std::string& display, int max_lines) {
    // NVRTC writes "FILE.cu(LINE): error: ...", then the source line and a caret; the student
    // reads FILE.cu:LINE everywhere else in a report. The harness's own lines (its weights and
    // macros) are the student's concern only through a clash, which the student's line shows.
    std::istringstream in(out);
    std::string line, result;
    int lines = 0;
    bool harness = false;
    const std::string prefix = display + "(";
    while (std::getline(in, line)) {
        if (line.find(kHarnessFileName) != std::string::npos && line.rfind(prefix, 0) != 0) {
            harness = true;
            continue;
        }
        if (line.find("detected in the compilation of") != std::string::npos) continue;
        if (line.find_first_not_of(" \t") == std::string::npos) continue;
        if (line.rfind(prefix, 0) == 0) {
            const size_t close = line.find("): ", prefix.size());
            if (close != std::string::npos &&
                line.find_first_not_of("0123456789", prefix.size()) == close)
                line = display + ":" + line.substr(prefix.size(), close - prefix.size()) + ": " +
                       line.substr(close + 3);
        }
        if (++lines > max_lines) {
            result += "...\n";
            break;
        }
        result += line + "\n";
    }
    if (harness && result.empty())
        result = fmt::format("{}: the submission clashes with the harness's declarations (its "
                             "constants, macros and helper functions)\n",
                             display);
    return result;
}

}  // namespace stencil::checker
