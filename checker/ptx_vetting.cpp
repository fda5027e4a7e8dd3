// The contract on NVRTC's PTX (ptx_vetting.h says what and why).
//
// Sections: [mangled names] a reader of the Itanium C++ ABI's function names, as far as kernel
// parameters go; [parameters] against a case's arguments; [the PTX's lines] .file, .loc, .entry;
// [inline assembly] CUDA's intrinsics' instructions and special registers; [vet_compiled].
#include "checker/ptx_vetting.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <map>

namespace stencil::checker {

// ---- [mangled names] --------------------------------------------------------------------------
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

// ---- [parameters] -----------------------------------------------------------------------------
namespace {

const char* element_of(Precision p) { return p == Precision::f64 ? "double" : "float"; }
Precision other(Precision p) { return p == Precision::f64 ? Precision::f32 : Precision::f64; }

bool is_builtin(const MangledType& t, const char* name) {
    return t.kind == MangledType::Kind::builtin && t.name == name;
}

bool fits_at(const std::vector<MangledType>& params, const CaseSpec& c, Precision p) {
    if (params.size() != c.args.size()) return false;
    for (size_t k = 0; k < params.size(); ++k) {
        const MangledType& t = params[k];
        const KernelArg& a = c.args[k];
        switch (a.kind) {
            case ArgKind::buffer: {
                if (t.kind != MangledType::Kind::pointer) return false;
                const MangledType& e = t.pointee.at(0);
                const bool read_only = a.buffer >= 0 && a.buffer < int(c.buffers.size()) && c.buffers[size_t(a.buffer)].read_only;
                if (!is_builtin(e, element_of(p)) || e.is_volatile || (e.is_const && !read_only)) return false;
                break;
            }
            case ArgKind::i32:
                if (!is_builtin(t, "int")) return false;
                break;
            case ArgKind::u32:
                if (!is_builtin(t, "unsigned int")) return false;
                break;
            case ArgKind::real:
                if (!is_builtin(t, element_of(p))) return false;
                break;
        }
    }
    return true;
}

// An extern "C" kernel: only the widths of its PTX parameters (and the type of a real) are known.
bool widths_fit_at(const std::vector<std::string>& types, const CaseSpec& c, Precision p) {
    if (types.size() != c.args.size()) return false;
    for (size_t k = 0; k < types.size(); ++k) {
        const std::string& t = types[k];
        switch (c.args[k].kind) {
            case ArgKind::buffer:
                if (t != "u64" && t != "b64" && t != "s64") return false;
                break;
            case ArgKind::i32:
            case ArgKind::u32:
                if (t != "u32" && t != "b32" && t != "s32") return false;
                break;
            case ArgKind::real:
                if (t != (p == Precision::f64 ? "f64" : "f32")) return false;
                break;
        }
    }
    return true;
}

}  // namespace

SignatureFit signature_fit(const std::vector<MangledType>& params, const CaseSpec& c, Precision p) {
    if (fits_at(params, c, p)) return SignatureFit::fits;
    return fits_at(params, c, other(p)) ? SignatureFit::other_precision : SignatureFit::wrong;
}

// ---- [the PTX's lines] ------------------------------------------------------------------------
namespace {

std::string_view trimmed(std::string_view s) {
    const size_t a = s.find_first_not_of(" \t\r");
    if (a == std::string_view::npos) return {};
    const size_t b = s.find_last_not_of(" \t\r");
    return s.substr(a, b - a + 1);
}

template <class F>
void for_each_line(std::string_view text, F&& f) {
    size_t i = 0;
    while (i <= text.size()) {
        size_t e = text.find('\n', i);
        if (e == std::string_view::npos) e = text.size();
        if (!f(trimmed(text.substr(i, e - i)))) return;
        i = e + 1;
    }
}

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// `.file N "name"[, time, size]`: the file index NVRTC gives `name` (the #line name), or -1.
int file_index(std::string_view ptx, const std::string& name) {
    int found = -1;
    for_each_line(ptx, [&](std::string_view l) {
        if (!starts_with(l, ".file")) return true;
        const size_t q = l.find('"');
        const size_t q2 = q == std::string_view::npos ? q : l.find('"', q + 1);
        if (q2 == std::string_view::npos) return true;
        if (l.substr(q + 1, q2 - q - 1) == name) {
            found = std::atoi(std::string(l.substr(5, q - 5)).c_str());
            return false;
        }
        return true;
    });
    return found;
}

// `.loc FILE LINE COLUMN[, ...]`: the file and line.
bool parse_loc(std::string_view l, int& file, int& line) {
    if (!starts_with(l, ".loc")) return false;
    const std::string s(l.substr(4));
    return std::sscanf(s.c_str(), "%d %d", &file, &line) == 2;
}

// "FILE.cu:LINE", or "FILE.cu" when the line is not the student's file's.
std::string where(const std::string& display, int file, int student_file, int line) {
    if (student_file >= 0 && file == student_file && line > 0) return fmt::format("{}:{}", display, line);
    return display;
}

// The line of the entry's first .loc: the kernel's declaration.
std::string entry_where(std::string_view ptx, std::string_view entry, const std::string& display) {
    const int student = file_index(ptx, display);
    bool in_entry = false;
    std::string w = display;
    const std::string head = ".entry " + std::string(entry) + "(";
    for_each_line(ptx, [&](std::string_view l) {
        if (!in_entry) {
            in_entry = l.find(head) != std::string_view::npos;
            return true;
        }
        int f = 0, line = 0;
        if (!parse_loc(l, f, line)) return true;
        w = where(display, f, student, line);
        return false;
    });
    return w;
}

}  // namespace

std::vector<std::string> entry_param_types(std::string_view ptx, std::string_view entry) {
    std::vector<std::string> types;
    bool in_entry = false;
    const std::string head = ".entry " + std::string(entry) + "(";
    for_each_line(ptx, [&](std::string_view l) {
        if (!in_entry) {
            in_entry = l.find(head) != std::string_view::npos;
            return true;
        }
        if (!starts_with(l, ".param")) return false;
        // ".param .u64 .ptr .global .align 4 NAME", ".param .align 8 .b8 NAME[16]"
        std::string_view rest = trimmed(l.substr(6));
        while (!rest.empty()) {
            const size_t sp = rest.find_first_of(" \t");
            const std::string_view word = rest.substr(0, sp);
            rest = sp == std::string_view::npos ? std::string_view{} : trimmed(rest.substr(sp));
            if (word == ".align") {
                const size_t sp2 = rest.find_first_of(" \t");
                rest = sp2 == std::string_view::npos ? std::string_view{} : trimmed(rest.substr(sp2));
                continue;
            }
            if (starts_with(word, ".")) types.emplace_back(word.substr(1));
            break;
        }
        return true;
    });
    return types;
}

// ---- [inline assembly] ------------------------------------------------------------------------
namespace {

// The instructions CUDA's intrinsics write as inline assembly in NVRTC's PTX (CUDA 13.0: the
// headers NVRTC builds in and NVVM's own lowering of clock64(), __trap(), __brkpt(),
// __prof_trigger(); tests/checker/fixtures/intrinsics_asm.cu calls every one), by opcode up to a
// dot: __ldg/__ldca/.../__stwt, the pre-sync shuffles, __activemask, __nanosleep, __dp2a/__dp4a,
// parameter-space conversions, and what the SIMD functions (__vadd2, __vsadu4, __vimax3_s32, ...)
// and funnel shifts are made of.
constexpr std::array<std::string_view, 26> kIntrinsicAsmOpcodes = {
    "ld.global.ca", "ld.global.cg", "ld.global.cs",  "ld.global.lu", "ld.global.cv", "ld.global.nc", "st.global.wb",
    "st.global.cg", "st.global.cs", "st.global.wt",  "shfl.up",      "shfl.down",    "shfl.bfly",    "shfl.idx",
    "activemask",   "nanosleep",    "trap",          "brkpt",        "pmevent",      "cvta.param",   "cvta.to.param",
    "dp2a",         "dp4a",         "vabsdiff2",     "vabsdiff4",    "prmt"};
// Integer and bitwise ALU the SIMD functions write, in their integer forms only (no intrinsic's
// assembly computes in floating point).
constexpr std::array<std::string_view, 17> kIntegerAluOpcodes = {
    "add", "sub", "neg", "not", "and", "or", "xor", "lop3", "shl", "shr", "shf", "min", "max", "selp", "setp", "mov", "cvt"};

// The special registers CUDA C++ reads: threadIdx, blockDim, blockIdx, gridDim, clock(), clock64().
constexpr std::array<std::string_view, 7> kGivenSpecialRegisters = {"tid", "ntid", "ctaid", "nctaid",
                                                                   "clock", "clock_hi", "clock64"};

bool opcode_in(std::string_view op, std::string_view family) {
    return op == family || (starts_with(op, family) && op.size() > family.size() && op[family.size()] == '.');
}

// A floating-point form: a type component f16, f16x2, bf16, f32, f64, tf32, e4m3, ...
bool floating_form(std::string_view op) {
    for (size_t p = op.find('.'); p != std::string_view::npos; p = op.find('.', p + 1)) {
        std::string_view c = op.substr(p + 1, op.find('.', p + 1) - p - 1);
        if (starts_with(c, "b")) c.remove_prefix(1);
        if (starts_with(c, "t")) c.remove_prefix(1);
        if (c.size() >= 2 && (c[0] == 'f' || c[0] == 'e') && std::isdigit(static_cast<unsigned char>(c[1]))) return true;
    }
    return false;
}

bool intrinsic_opcode(std::string_view op) {
    for (auto f : kIntrinsicAsmOpcodes)
        if (opcode_in(op, f)) return true;
    for (auto f : kIntegerAluOpcodes)
        if (opcode_in(op, f)) return !floating_form(op);
    return false;
}

bool all_digits(std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; });
}

// PTX ISA's special registers (%smid, %globaltimer_lo, %envreg3, %pm0_64, ...), by name without
// the `%` and any `.x` component.
bool is_special_register(std::string_view n) {
    static constexpr std::array<std::string_view, 31> named = {
        "tid", "ntid", "laneid", "warpid", "nwarpid", "ctaid", "nctaid", "smid", "nsmid", "gridid",
        "is_explicit_cluster", "clusterid", "nclusterid", "cluster_ctaid", "cluster_nctaid", "cluster_ctarank",
        "cluster_nctarank", "lanemask_eq", "lanemask_le", "lanemask_lt", "lanemask_ge", "lanemask_gt", "clock",
        "clock_hi", "clock64", "globaltimer", "globaltimer_lo", "globaltimer_hi", "total_smem_size",
        "aggr_smem_size", "dynamic_smem_size"};
    if (std::find(named.begin(), named.end(), n) != named.end()) return true;
    if (n == "current_graph_exec" || starts_with(n, "reserved_smem_offset_")) return true;
    if (starts_with(n, "envreg")) return all_digits(n.substr(6));
    if (starts_with(n, "pm") && n.size() >= 3) {
        const std::string_view rest = n.substr(2);
        return all_digits(rest) || (rest.size() > 3 && rest.substr(rest.size() - 3) == "_64" && all_digits(rest.substr(0, rest.size() - 3)));
    }
    return false;
}

// An instruction without its label (`L1:`) and guard (`@%p1`, `@!p`).
std::string_view instruction_core(std::string_view ins) {
    if (const size_t colon = ins.find(':'); colon != std::string_view::npos && ins.find_first_of(" \t") > colon)
        ins = trimmed(ins.substr(colon + 1));
    if (starts_with(ins, "@")) {
        const size_t sp = ins.find_first_of(" \t");
        ins = sp == std::string_view::npos ? std::string_view{} : trimmed(ins.substr(sp));
    }
    return ins;
}

// Why one instruction of an asm block is not CUDA's own, or "".
std::string instruction_problem(std::string_view ins) {
    ins = instruction_core(ins);
    if (ins.empty() || starts_with(ins, ".reg")) return "";
    for (size_t p = ins.find('%'); p != std::string_view::npos; p = ins.find('%', p + 1)) {
        size_t e = p + 1;
        while (e < ins.size() && (std::isalnum(static_cast<unsigned char>(ins[e])) || ins[e] == '_')) ++e;
        const std::string_view reg = ins.substr(p + 1, e - p - 1);
        if (is_special_register(reg) &&
            std::find(kGivenSpecialRegisters.begin(), kGivenSpecialRegisters.end(), reg) == kGivenSpecialRegisters.end())
            return fmt::format("%{} is not a value CUDA C++ gives a kernel", reg);
    }
    const std::string_view op = ins.substr(0, ins.find_first_of(" \t"));
    if (!intrinsic_opcode(op)) return fmt::format("`{}` is not an instruction CUDA's intrinsics write", op);
    return "";
}

// The block's first instruction that is not CUDA's own: (its text, why), or nullopt.
std::optional<std::pair<std::string, std::string>> block_problem(std::string text) {
    std::replace(text.begin(), text.end(), '\n', ' ');
    size_t i = 0;
    while (i < text.size()) {
        size_t e = text.find(';', i);
        if (e == std::string::npos) e = text.size();
        std::string_view ins = trimmed(std::string_view(text).substr(i, e - i));
        i = e + 1;
        // `{ .reg .pred p; setp...; }`: braces that open or close a statement scope the block's
        // own registers; braces after an opcode are a vector operand (`{%f7,%f8}`)
        while (!ins.empty() && (ins.front() == '{' || ins.front() == '}')) ins = trimmed(ins.substr(1));
        if (const std::string why = instruction_problem(ins); !why.empty())
            return std::pair{std::string(ins) + ";", why};
    }
    return std::nullopt;
}

}  // namespace

std::optional<std::string> inline_asm_problem(std::string_view ptx, const std::string& display) {
    const int student = file_index(ptx, display);
    int file = -1, line = 0;
    bool in_asm = false;
    std::string body;
    std::optional<std::string> problem;
    for_each_line(ptx, [&](std::string_view l) {
        if (l == "// begin inline asm") {
            in_asm = true;
            body.clear();
            return true;
        }
        if (in_asm && l == "// end inline asm") {
            in_asm = false;
            if (auto p = block_problem(body)) {
                problem = fmt::format("{}: inline assembly is not allowed (`{}`): {}; a submission is CUDA C++ "
                                      "only, however the asm is spelled",
                                      where(display, file, student, line), p->first, p->second);
                return false;
            }
            return true;
        }
        if (in_asm) {
            body += std::string(l.substr(0, l.find("//"))) + "\n";
            return true;
        }
        parse_loc(l, file, line);
        return true;
    });
    return problem;
}

// ---- [vet_compiled] ---------------------------------------------------------------------------
namespace {

template <class T, class F>
std::string listed(const std::vector<T>& v, F&& spell) {
    std::string s = "(";
    for (size_t k = 0; k < v.size(); ++k) s += (k ? ", " : "") + spell(v[k]);
    return s + ")";
}

std::optional<std::string> signature_problem(const Request& req, std::string_view ptx, const std::string& kernel) {
    if (req.cases.empty()) return std::nullopt;
    const CaseSpec& c = req.cases.front();
    SignatureFit fit = SignatureFit::wrong;
    std::string takes;
    if (auto params = mangled_parameters(kernel)) {
        fit = signature_fit(*params, c, req.precision);
        takes = listed(*params, [](const MangledType& t) { return t.spelled(); });
    } else {
        const auto types = entry_param_types(ptx, kernel);
        fit = widths_fit_at(types, c, req.precision)            ? SignatureFit::fits
              : widths_fit_at(types, c, other(req.precision)) ? SignatureFit::other_precision
                                                              : SignatureFit::wrong;
        takes = listed(types, [](const std::string& t) { return "." + t; }) + " in the PTX";
    }
    if (fit == SignatureFit::fits) return std::nullopt;
    const std::string at = entry_where(ptx, kernel, req.display_name);
    const std::string declared =
        req.kernel_signature.empty() ? std::string("the exercise's kernel") : "`" + req.kernel_signature + "`";
    if (fit == SignatureFit::other_precision)
        return fmt::format("{}: wrong precision: the {} exercise is {} precision; the kernel must be declared as {} "
                           "(yours takes {})",
                           at, req.exercise, req.precision == Precision::f64 ? "double" : "single", declared, takes);
    return fmt::format("{}: wrong signature: the kernel must be declared as {} (`const` on a pointer it only reads "
                       "is fine; yours takes {})",
                       at, declared, takes);
}

}  // namespace

std::optional<std::string> vet_compiled(const Request& req, std::string_view ptx, const std::string& kernel_lowered) {
    if (auto p = signature_problem(req, ptx, kernel_lowered)) return p;
    return inline_asm_problem(ptx, req.display_name);
}

}  // namespace stencil::checker
