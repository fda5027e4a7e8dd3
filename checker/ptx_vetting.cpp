// The contract on NVRTC's PTX (ptx_vetting.h says what and why).
//
// Sections: [parameters] against a case's arguments (their types from checker/mangled_name.h);
// [the PTX's lines] .file, .loc, .entry; [inline assembly] CUDA's intrinsics' instructions and
// special registers; [vet_compiled].
#include "checker/ptx_vetting.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>

namespace stencil::checker {

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
