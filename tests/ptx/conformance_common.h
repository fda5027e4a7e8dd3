// The PTX conformance set's shared definitions: what the GPU tool (conformance_gpu.cpp) writes
// and what the CPU test (test_ptx_conformance.cpp) reads.
//
//   - the spec each tests/ptx/conformance/*.cu carries in `//!` comment lines (parse_specs);
//   - the approximate instructions' error rules (approx_rules), written into the expected file;
//   - hex words, the FNV-1a hash that ties the expected file to the sources;
//   - the comparison of one output word (check_value): bit for bit, NaN-ness, or within a rule.
//
// Header-only, plain C++17 (no CUDA, no engine): both executables include it.
//
// Sections: words; value types; approximate instructions; one column's comparison; the spec in a
// .cu file.
#pragma once
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace ptxconf {

inline constexpr const char* kFormat = "stencil-lab ptx conformance 1";
// Every output word starts as this pattern (before the extra words' initial values are written):
// partial stores are compared together with the bytes they leave alone.
inline constexpr std::uint64_t kPoison = 0xa5a5a5a5a5a5a5a5ull;
// NVRTC's options, exactly those of ptx::compile_to_ptx (backends/cpu/ptx/nvrtc_ptx.h).
inline const std::vector<std::string>& nvrtc_options() {
    static const std::vector<std::string> o = {"--gpu-architecture=compute_90", "-lineinfo", "--std=c++17"};
    return o;
}

// ---- words ---------------------------------------------------------------------------------------
inline std::uint64_t fnv1a64(std::string_view s) {
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned char c : s) {
        h ^= c;
        h *= 0x100000001b3ull;
    }
    return h;
}
inline std::string hex(std::uint64_t v) {
    char b[24];
    std::snprintf(b, sizeof b, "%llx", static_cast<unsigned long long>(v));
    return b;
}
inline std::string hex16(std::uint64_t v) {
    char b[24];
    std::snprintf(b, sizeof b, "%016llx", static_cast<unsigned long long>(v));
    return b;
}
inline bool parse_hex(std::string_view s, std::uint64_t& out) {
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s.remove_prefix(2);
    if (s.empty() || s.size() > 16) return false;
    std::uint64_t v = 0;
    for (char c : s) {
        int d;
        if (c >= '0' && c <= '9') d = c - '0';
        else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
        else return false;
        v = v << 4 | static_cast<std::uint64_t>(d);
    }
    out = v;
    return true;
}
// "3f800000 0 7fffffff" -> words; false on a malformed word.
inline bool parse_words(std::string_view s, std::vector<std::uint64_t>& out) {
    out.clear();
    std::size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && s[i] == ' ') ++i;
        std::size_t j = i;
        while (j < s.size() && s[j] != ' ') ++j;
        if (j > i) {
            std::uint64_t v;
            if (!parse_hex(s.substr(i, j - i), v)) return false;
            out.push_back(v);
        }
        i = j;
    }
    return true;
}
inline std::string join_words(const std::uint64_t* p, std::size_t count) {
    std::string s;
    for (std::size_t k = 0; k < count; ++k) {
        if (k) s += ' ';
        s += hex(p[k]);
    }
    return s;
}

// ---- value types ---------------------------------------------------------------------------------
// Integer types and `pred` are compared as whole 64-bit words; the float types say how many low
// bits hold the value and where its NaNs are.
inline bool known_type(std::string_view t) {
    static const std::set<std::string, std::less<>> types = {
        "u8", "s8", "u16", "s16", "u32", "s32", "u64", "s64", "b32", "b64", "pred",
        "f16", "bf16", "f16x2", "bf16x2", "f32", "f64"};
    return types.count(t) != 0;
}
inline bool is_float_type(std::string_view t) {
    return t == "f16" || t == "bf16" || t == "f16x2" || t == "bf16x2" || t == "f32" || t == "f64";
}
inline float as_f32(std::uint64_t w) {
    const std::uint32_t u = static_cast<std::uint32_t>(w);
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}
inline double as_f64(std::uint64_t w) {
    double d;
    std::memcpy(&d, &w, 8);
    return d;
}
inline bool nan16(std::uint32_t h, bool bf) {
    return bf ? ((h & 0x7f80u) == 0x7f80u && (h & 0x7fu) != 0) : ((h & 0x7c00u) == 0x7c00u && (h & 0x3ffu) != 0);
}
// Bit mask of the lanes (1 or 2) of `type` in word w that hold a NaN.
inline unsigned nan_lanes(std::string_view type, std::uint64_t w) {
    if (type == "f32") return std::isnan(as_f32(w)) ? 1u : 0u;
    if (type == "f64") return std::isnan(as_f64(w)) ? 1u : 0u;
    if (type == "f16" || type == "bf16") return nan16(static_cast<std::uint32_t>(w & 0xffff), type == "bf16") ? 1u : 0u;
    if (type == "f16x2" || type == "bf16x2") {
        const bool bf = type == "bf16x2";
        return (nan16(static_cast<std::uint32_t>(w & 0xffff), bf) ? 1u : 0u) |
               (nan16(static_cast<std::uint32_t>((w >> 16) & 0xffff), bf) ? 2u : 0u);
    }
    return 0;
}
// The bits of lane l of `type` (the whole value for one-lane types).
inline std::uint64_t lane_mask(std::string_view type, int lane) {
    if (type == "f32") return 0xffffffffull;
    if (type == "f64") return ~0ull;
    if (type == "f16x2" || type == "bf16x2") return 0xffffull << (16 * lane);
    return 0xffffull;  // f16, bf16
}

// ---- approximate instructions ----------------------------------------------------------------------
// |got - ref| <= abs_err + rel_err * |ref| + ulps * ulp(ref), ref computed in long double, for
// inputs inside the domain. Special inputs (+-0, +-inf, NaN, subnormals) are compared bit for bit
// (the ISA's tables give those results exactly; a NaN: any NaN); inputs outside the domain only
// for NaN-ness.
struct ApproxRule {
    std::string column;      // the column name (the instruction)
    std::string fn;          // ex2 lg2 sin cos tanh rcp sqrt rsqrt div rcp_hi rsqrt_hi
    std::string type;        // f32 or f64
    int args = 1;            // 1: in[0]; 2: in[0], in[1]
    double abs_err = 0, rel_err = 0, ulps = 0;
    // domain: x = in[0], y = in[1]
    double x_lo = -DBL_MAX, x_hi = DBL_MAX;  // x in [x_lo, x_hi]
    double ax_lo = 0, ax_hi = DBL_MAX;       // |x| in [ax_lo, ax_hi]
    double ay_lo = 0, ay_hi = DBL_MAX;       // |y| in [ay_lo, ay_hi]
    bool result_normal = false;              // |ref| a normal number of the type
    std::string bound;                       // the bound in words
    std::string source;                      // where it comes from
};

// Long because it is the table of the approximate instructions' bounds, a few lines per rule.
inline const std::vector<ApproxRule>& approx_rules() {
    static const std::vector<ApproxRule> rules = [] {
        const double pi = 3.14159265358979323846;
        const double fmin = 0x1p-126, fmax = FLT_MAX;
        std::vector<ApproxRule> r;
        auto add = [&](ApproxRule a) { r.push_back(std::move(a)); };
        auto make = [](std::string column, std::string fn, std::string type, int args = 1) {
            ApproxRule a;
            a.column = std::move(column);
            a.fn = std::move(fn);
            a.type = std::move(type);
            a.args = args;
            return a;
        };
        for (const char* c : {"ex2.approx.f32", "ex2.approx.ftz.f32"}) {
            ApproxRule a = make(c, "ex2", "f32");
            a.rel_err = std::exp2(-22.5);
            a.x_lo = -125;
            a.x_hi = 127;
            a.bound = "relative error 2^-22.5 for x in [-125, 127] (normal results)";
            a.source = "PTX ISA, ex2: \"The maximum absolute error is 2^-22.5 for fraction in the primary range\" "
                       "(2^frac in [1, 2), so a relative error of at most 2^-22.5 on 2^x)";
            add(a);
        }
        for (const char* c : {"lg2.approx.f32", "lg2.approx.ftz.f32"}) {
            ApproxRule a = make(c, "lg2", "f32");
            // The ISA's 2^-22.6 holds for the mantissa's own range; over all positive normal x the
            // H100 (2026-11-23) reached 1.92 x (2^-22.6 + 0.5 ulp), so the rule is twice that.
            a.abs_err = std::exp2(-21.6);
            a.ulps = 1.0;
            a.x_lo = fmin;
            a.bound = "absolute error 2^-21.6 + 1 ulp of the result, for positive normal x";
            a.source = "PTX ISA, lg2: \"The maximum absolute error is 2^-22.6 for mantissa\" (the exponent is "
                       "added exactly; the f32 result adds its own rounding, 0.5 ulp)";
            add(a);
        }
        for (const char* c : {"sin.approx.f32", "sin.approx.ftz.f32", "cos.approx.f32", "cos.approx.ftz.f32"}) {
            ApproxRule a = make(c, std::string(c).substr(0, 3), "f32");
            a.abs_err = std::exp2(-20.9);
            a.x_lo = -pi;
            a.x_hi = pi;
            a.bound = "absolute error 2^-20.9 for x in [-pi, pi]";
            a.source = std::string("PTX ISA, ") + a.fn + ": \"The maximum absolute error is 2^-20.9 in quadrant 00\" "
                       "(no bound is given outside; [-pi, pi] is where CUDA's __sinf/__cosf state theirs)";
            add(a);
        }
        {
            ApproxRule a = make("tanh.approx.f32", "tanh", "f32");
            a.rel_err = std::exp2(-10.987);
            a.ax_lo = fmin;
            a.bound = "relative error 2^-10.987 for normal x";
            a.source = "PTX ISA, tanh: no bound for .f32 (the ISA gives 2^-10.987 for the .f16 form of the same "
                       "hardware approximation); chosen, and checked against the GPU by ptx-conformance-gpu";
            add(a);
        }
        for (const char* c : {"rcp.approx.f32", "rcp.approx.ftz.f32"}) {
            ApproxRule a = make(c, "rcp", "f32");
            a.rel_err = std::exp2(-22.0);
            a.ax_lo = fmin;
            a.ax_hi = 0x1p126;
            a.bound = "relative error 2^-22 for |x| in [2^-126, 2^126]";
            a.source = "PTX ISA, rcp: \"The maximum absolute error is 2^-23.0 over the range 1.0-2.0\" (a result in "
                       "(0.5, 1], so a relative error of at most 2^-22, for every binade)";
            add(a);
        }
        for (const char* c : {"rsqrt.approx.f32", "rsqrt.approx.ftz.f32"}) {
            ApproxRule a = make(c, "rsqrt", "f32");
            a.rel_err = std::exp2(-21.4);
            a.x_lo = fmin;
            a.x_hi = fmax;
            a.bound = "relative error 2^-21.4 for positive normal x";
            a.source = "PTX ISA, rsqrt: \"The maximum absolute error for rsqrt.f32 is 2^-22.4 over the range "
                       "1.0-4.0\" (a result in (0.5, 1], so a relative error of at most 2^-21.4)";
            add(a);
        }
        for (const char* c : {"sqrt.approx.f32", "sqrt.approx.ftz.f32"}) {
            ApproxRule a = make(c, "sqrt", "f32");
            a.rel_err = std::exp2(-21.4);
            a.ulps = 0.5;
            a.x_lo = fmin;
            a.x_hi = fmax;
            a.bound = "relative error 2^-21.4 + 0.5 ulp for positive normal x";
            a.source = "PTX ISA, sqrt: no bound for sqrt.approx.f32; taken as rsqrt's (x * rsqrt(x)) plus the "
                       "product's rounding; chosen, and checked against the GPU by ptx-conformance-gpu";
            add(a);
        }
        for (const char* c : {"div.approx.f32", "div.approx.ftz.f32"}) {
            ApproxRule a = make(c, "div", "f32", 2);
            a.ulps = 2;
            a.ay_lo = fmin;
            a.ay_hi = 0x1p126;
            a.result_normal = true;
            a.bound = "2 ulp for |y| in [2^-126, 2^126] and a normal result";
            a.source = "PTX ISA, div: \"For |b| in [2^-126, 2^126], the maximum ulp error is 2\"";
            add(a);
        }
        for (const char* c : {"div.full.f32", "div.full.ftz.f32"}) {
            ApproxRule a = make(c, "div", "f32", 2);
            a.ulps = 2;
            a.result_normal = true;
            a.bound = "2 ulp for a normal result";
            a.source = "PTX ISA, div: \"div.full.f32 ... The maximum ulp error is 2 across the full range of "
                       "inputs\" (subnormal inputs and results are flushed: those are special cases)";
            add(a);
        }
        {
            ApproxRule a = make("rcp.approx.ftz.f64", "rcp_hi", "f64");
            a.rel_err = std::exp2(-19.0);
            a.ax_lo = 0x1p-1021;
            a.ax_hi = 0x1p1021;
            a.bound = "relative error 2^-19 against 1/x' (x' = x with its low 32 bits cleared)";
            a.source = "PTX ISA, rcp.approx.ftz.f64: a \"gross approximation\" from the upper word (20 mantissa "
                       "bits), no bound given; chosen, and checked against the GPU by ptx-conformance-gpu";
            add(a);
        }
        {
            ApproxRule a = make("rsqrt.approx.f64", "rsqrt", "f64");
            a.rel_err = std::exp2(-19.0);
            a.x_lo = 0x1p-1021;
            a.x_hi = DBL_MAX;
            a.bound = "relative error 2^-19 for positive normal x";
            a.source = "PTX ISA, rsqrt: rsqrt.approx.f64 has no bound in the ISA; chosen, and checked against the "
                       "GPU by ptx-conformance-gpu";
            add(a);
        }
        {
            ApproxRule a = make("rsqrt.approx.ftz.f64", "rsqrt_hi", "f64");
            a.rel_err = std::exp2(-19.0);
            a.x_lo = 0x1p-1021;
            a.x_hi = DBL_MAX;
            a.bound = "relative error 2^-19 against 1/sqrt(x') (x' = x with its low 32 bits cleared)";
            a.source = "PTX ISA, rsqrt.approx.ftz.f64: computed from the upper word, no bound given; chosen, and "
                       "checked against the GPU by ptx-conformance-gpu";
            add(a);
        }
        return r;
    }();
    return rules;
}
inline const ApproxRule* find_approx_rule(std::string_view column) {
    for (const auto& r : approx_rules())
        if (r.column == column) return &r;
    return nullptr;
}

inline long double approx_reference(const ApproxRule& r, long double x, long double y) {
    if (r.fn == "ex2") return std::exp2(x);
    if (r.fn == "lg2") return std::log2(x);
    if (r.fn == "sin") return std::sin(x);
    if (r.fn == "cos") return std::cos(x);
    if (r.fn == "tanh") return std::tanh(x);
    if (r.fn == "rcp") return 1.0L / x;
    if (r.fn == "sqrt") return std::sqrt(x);
    if (r.fn == "rsqrt") return 1.0L / std::sqrt(x);
    if (r.fn == "div") return x / y;
    if (r.fn == "rcp_hi") return 1.0L / x;  // x already truncated by the caller
    if (r.fn == "rsqrt_hi") return 1.0L / std::sqrt(x);
    return NAN;
}

// An input operand of an approx rule: its value and whether it is special (+-0, +-inf, NaN,
// subnormal) in the rule's type.
struct Operand {
    long double v = 0;
    bool special = false;
};
inline Operand approx_operand(const ApproxRule& r, std::uint64_t w) {
    Operand o;
    // Subnormal inputs are special (flushed to zero, so the table gives the result) only for
    // the .ftz forms; without .ftz they are ordinary inputs, inside the rule's bound.
    const bool ftz = r.column.find(".ftz") != std::string::npos;
    if (r.type == "f32") {
        const float f = as_f32(w);
        o.v = f;
        o.special = ftz ? !std::isnormal(f) : (f == 0 || !std::isfinite(f));
    } else {
        if (r.fn == "rcp_hi" || r.fn == "rsqrt_hi") w &= 0xffffffff00000000ull;
        const double d = as_f64(w);
        o.v = d;
        o.special = ftz ? !std::isnormal(d) : (d == 0 || !std::isfinite(d));
    }
    return o;
}
inline long double ulp_of(const ApproxRule& r, long double ref) {
    const int mant = r.type == "f32" ? 23 : 52;
    const int emin = r.type == "f32" ? -126 : -1022;
    int e = 0;
    std::frexp(ref, &e);  // ref = m * 2^e, m in [0.5, 1)
    return std::ldexp(1.0L, std::max(e - 1, emin) - mant);
}
inline bool result_is_normal(const ApproxRule& r, long double ref) {
    const long double a = std::fabs(ref);
    return r.type == "f32" ? (a >= 0x1p-126L && a <= FLT_MAX) : (a >= 0x1p-1022L && a <= DBL_MAX);
}

enum class ApproxCase { special, in_domain, outside };
// Which kind of case this is for the rule (inputs: the case's input words).
inline ApproxCase approx_case(const ApproxRule& r, const std::uint64_t* inputs, int num_inputs, long double* ref) {
    if (num_inputs < r.args) return ApproxCase::outside;
    const Operand x = approx_operand(r, inputs[0]);
    const Operand y = r.args > 1 ? approx_operand(r, inputs[1]) : Operand{};
    if (x.special || y.special) return ApproxCase::special;
    const long double ax = std::fabs(x.v), ay = std::fabs(y.v);
    bool in = x.v >= r.x_lo && x.v <= r.x_hi && ax >= r.ax_lo && ax <= r.ax_hi;
    if (r.args > 1) in = in && ay >= r.ay_lo && ay <= r.ay_hi;
    const long double f = approx_reference(r, x.v, y.v);
    if (ref) *ref = f;
    if (in && r.result_normal) in = result_is_normal(r, f);
    return in ? ApproxCase::in_domain : ApproxCase::outside;
}
// The error of `got` in units of the rule's bound (<= 1 passes); for in-domain cases.
inline double approx_error_ratio(const ApproxRule& r, std::uint64_t got, long double ref) {
    const long double g = r.type == "f32" ? static_cast<long double>(as_f32(got)) : static_cast<long double>(as_f64(got));
    if (!std::isfinite(g)) return INFINITY;
    const long double bound = r.abs_err + r.rel_err * std::fabs(ref) + r.ulps * ulp_of(r, ref);
    return static_cast<double>(std::fabs(g - ref) / bound);
}

// ---- one column's comparison -------------------------------------------------------------------------
struct ColumnInfo {
    std::string name, type, rule;  // rule: exact | nan | approx
    const ApproxRule* approx = nullptr;
};
struct Verdict {
    bool ok = true;
    std::string why;  // when not ok
};
inline Verdict check_value(const ColumnInfo& c, std::uint64_t expected, std::uint64_t got,
                           const std::uint64_t* inputs, int num_inputs) {
    if (expected == got) return {};
    if (c.rule == "nan") {
        const unsigned ne = nan_lanes(c.type, expected), ng = nan_lanes(c.type, got);
        if (ne == 0) return {false, "bits differ"};
        if ((ne & ng) != ne) return {false, "the GPU gave a NaN, this is not one"};
        std::uint64_t care = ~0ull;  // every bit but the NaN lanes' must match
        for (int l = 0; l < 2; ++l)
            if (ne & (1u << l)) care &= ~lane_mask(c.type, l);
        if ((expected & care) != (got & care)) return {false, "bits differ outside the NaN"};
        return {};
    }
    if (c.rule == "approx" && c.approx) {
        const ApproxRule& r = *c.approx;
        const std::uint64_t high = r.type == "f32" ? ~0xffffffffull : 0;
        if ((expected & high) != (got & high)) return {false, "bits above the value differ"};
        const bool en = nan_lanes(r.type, expected) != 0, gn = nan_lanes(r.type, got) != 0;
        long double ref = 0;
        switch (approx_case(r, inputs, num_inputs, &ref)) {
            case ApproxCase::special:
                if (en && gn) return {};
                return {false, "special input: the ISA's table gives this result exactly"};
            case ApproxCase::outside:
                if (en == gn) return {};
                return {false, en ? "the GPU gave a NaN, this is not one" : "a NaN where the GPU gave a number"};
            case ApproxCase::in_domain: {
                const double q = approx_error_ratio(r, got, ref);
                if (q <= 1.0) return {};
                char b[160];
                std::snprintf(b, sizeof b, "error %.3g x the bound (%s), reference %.9Lg", q, r.bound.c_str(), ref);
                return {false, b};
            }
        }
    }
    return {false, "bits differ"};
}

// The columns of a kernel object of the expected file (nlohmann::json or ordered_json); the approx
// rules are stored in `rules` (a deque: the columns point into it).
template <class Json>
std::vector<ColumnInfo> columns_from_json(const Json& kj, std::deque<ApproxRule>& rules) {
    std::vector<ColumnInfo> cols;
    for (const auto& cj : kj.at("columns")) {
        ColumnInfo ci{cj.at("name").template get<std::string>(), cj.at("type").template get<std::string>(),
                      cj.at("rule").template get<std::string>(), nullptr};
        if (ci.rule == "approx") {
            const auto& a = cj.at("approx");
            const auto& d = a.at("domain");
            ApproxRule r;
            r.column = ci.name;
            r.fn = a.at("fn").template get<std::string>();
            r.type = a.at("type").template get<std::string>();
            r.args = a.at("args").template get<int>();
            r.abs_err = a.at("abs_err").template get<double>();
            r.rel_err = a.at("rel_err").template get<double>();
            r.ulps = a.at("ulps").template get<double>();
            r.x_lo = d.at("x")[0].template get<double>();
            r.x_hi = d.at("x")[1].template get<double>();
            r.ax_lo = d.at("abs_x")[0].template get<double>();
            r.ax_hi = d.at("abs_x")[1].template get<double>();
            r.ay_lo = d.at("abs_y")[0].template get<double>();
            r.ay_hi = d.at("abs_y")[1].template get<double>();
            r.result_normal = d.at("result_normal").template get<bool>();
            r.bound = a.at("bound").template get<std::string>();
            if (a.contains("source")) r.source = a.at("source").template get<std::string>();
            rules.push_back(r);
            ci.approx = &rules.back();
        }
        cols.push_back(ci);
    }
    return cols;
}

// ---- the spec in a .cu file ----------------------------------------------------------------------------
//   //! kernel NAME in=KIND,KIND,... [block=X[,Y,Z]] [grid=X[,Y,Z]] [random=R] [cases=N]
//   //! out TYPE[:RULE] COLUMN COLUMN ...           (RULE: exact, the default; nan; approx)
//   //! extra TYPE NAME=HEX [HEX ...]               (words after the per-thread outputs)
//   //! printf                                      (the kernel prints: its text is compared)
//   #define K N                                     (the first after the kernel line: its outputs
//                                                    per thread, checked against the columns)
struct Extra {
    std::string name, type;
    std::vector<std::uint64_t> init;
};
struct KernelSpec {
    std::string name;
    std::vector<std::string> kinds;
    int block[3] = {128, 1, 1};
    int grid[3] = {0, 0, 0};  // 0: from the number of cases
    int random = 256;
    int cases = 0;            // > 0: exactly this many threads (block and grid from it)
    bool prints = false;
    std::vector<ColumnInfo> columns;
    std::vector<Extra> extras;
    int declared_k = -1;
    int line = 0;
    std::size_t extra_words() const {
        std::size_t n = 0;
        for (const auto& e : extras) n += e.init.size();
        return n;
    }
};
inline const std::set<std::string, std::less<>>& input_kinds() {
    static const std::set<std::string, std::less<>> k = {"u32", "u64", "f32", "f64", "shift", "key", "lane", "f32a", "f64a"};
    return k;
}
inline std::vector<std::string> split(std::string_view s, char sep) {
    std::vector<std::string> out;
    std::size_t i = 0;
    while (true) {
        const std::size_t j = s.find(sep, i);
        out.emplace_back(s.substr(i, j == std::string_view::npos ? std::string_view::npos : j - i));
        if (j == std::string_view::npos) break;
        i = j + 1;
    }
    return out;
}
inline std::vector<std::string> tokens(std::string_view s) {
    std::vector<std::string> out;
    std::istringstream is{std::string(s)};
    std::string t;
    while (is >> t) out.push_back(t);
    return out;
}
// Long because it is the spec lines' one parser: kernel, out and extra lines and their keys, a few
// lines each.
// Parses every kernel's spec; on a malformed line returns {} with *error = "FILE:LINE: why".
inline std::vector<KernelSpec> parse_specs(std::string_view src, const std::string& file, std::string* error) {
    std::vector<KernelSpec> specs;
    auto fail = [&](int line, const std::string& why) {
        if (error) *error = file + ":" + std::to_string(line) + ": " + why;
        return std::vector<KernelSpec>{};
    };
    auto dims = [](const std::string& v, int out[3]) {
        const auto p = split(v, ',');
        if (p.empty() || p.size() > 3) return false;
        for (int d = 0; d < 3; ++d) out[d] = 1;
        for (std::size_t d = 0; d < p.size(); ++d) {
            try {
                out[d] = std::stoi(p[d]);
            } catch (...) {
                return false;
            }
            if (out[d] < 1) return false;
        }
        return true;
    };
    int line_no = 0;
    std::istringstream is{std::string(src)};
    std::string line;
    bool want_k = false;
    while (std::getline(is, line)) {
        ++line_no;
        if (want_k && line.rfind("#define K ", 0) == 0) {
            try {
                specs.back().declared_k = std::stoi(line.substr(10));
            } catch (...) {
                return fail(line_no, "bad #define K");
            }
            want_k = false;
            continue;
        }
        if (line.rfind("//!", 0) != 0) continue;
        const auto t = tokens(std::string_view(line).substr(3));
        if (t.empty()) return fail(line_no, "empty //! line");
        if (t[0] == "kernel") {
            if (t.size() < 2) return fail(line_no, "kernel without a name");
            KernelSpec k;
            k.name = t[1];
            k.line = line_no;
            for (std::size_t j = 2; j < t.size(); ++j) {
                const auto eq = t[j].find('=');
                if (eq == std::string::npos) return fail(line_no, "expected key=value: " + t[j]);
                const std::string key = t[j].substr(0, eq), val = t[j].substr(eq + 1);
                try {
                    if (key == "in") {
                        if (!val.empty()) k.kinds = split(val, ',');
                        for (const auto& kind : k.kinds)
                            if (!input_kinds().count(kind)) return fail(line_no, "unknown input kind " + kind);
                    } else if (key == "block") {
                        if (!dims(val, k.block)) return fail(line_no, "bad block " + val);
                    } else if (key == "grid") {
                        if (!dims(val, k.grid)) return fail(line_no, "bad grid " + val);
                    } else if (key == "random") {
                        k.random = std::stoi(val);
                    } else if (key == "cases") {
                        k.cases = std::stoi(val);
                    } else {
                        return fail(line_no, "unknown key " + key);
                    }
                } catch (...) {
                    return fail(line_no, "bad number in " + t[j]);
                }
            }
            specs.push_back(std::move(k));
            want_k = true;
            continue;
        }
        if (specs.empty()) return fail(line_no, "a //! line before the first //! kernel");
        KernelSpec& k = specs.back();
        if (t[0] == "out") {
            if (t.size() < 3) return fail(line_no, "out TYPE[:RULE] COLUMN...");
            std::string type = t[1], rule = "exact";
            const auto colon = type.find(':');
            if (colon != std::string::npos) {
                rule = type.substr(colon + 1);
                type = type.substr(0, colon);
            }
            if (!known_type(type)) return fail(line_no, "unknown type " + type);
            if (rule != "exact" && rule != "nan" && rule != "approx") return fail(line_no, "unknown rule " + rule);
            if (rule != "exact" && !is_float_type(type)) return fail(line_no, "rule " + rule + " needs a float type");
            for (std::size_t j = 2; j < t.size(); ++j) {
                ColumnInfo c{t[j], type, rule, nullptr};
                if (rule == "approx") {
                    c.approx = find_approx_rule(t[j]);
                    if (!c.approx) return fail(line_no, "no approx rule for " + t[j] + " (conformance_common.h)");
                    if (c.approx->type != type) return fail(line_no, "the approx rule of " + t[j] + " is for " + c.approx->type);
                }
                for (const auto& other : k.columns)
                    if (other.name == c.name) return fail(line_no, "column " + c.name + " twice");
                k.columns.push_back(c);
            }
        } else if (t[0] == "extra") {
            if (t.size() < 3) return fail(line_no, "extra TYPE NAME=HEX...");
            const auto eq = t[2].find('=');
            if (eq == std::string::npos) return fail(line_no, "extra TYPE NAME=HEX...");
            Extra e{t[2].substr(0, eq), t[1], {}};
            if (!known_type(e.type)) return fail(line_no, "unknown type " + e.type);
            std::vector<std::string> vals{t[2].substr(eq + 1)};
            for (std::size_t j = 3; j < t.size(); ++j) vals.push_back(t[j]);
            for (const auto& v : vals) {
                std::uint64_t w;
                if (!parse_hex(v, w)) return fail(line_no, "bad hex " + v);
                e.init.push_back(w);
            }
            k.extras.push_back(std::move(e));
        } else if (t[0] == "printf") {
            k.prints = true;
        } else {
            return fail(line_no, "unknown //! line: " + t[0]);
        }
    }
    for (const auto& k : specs) {
        if (k.columns.empty()) return fail(k.line, k.name + ": no columns");
        if (k.declared_k != static_cast<int>(k.columns.size()))
            return fail(k.line, k.name + ": " + std::to_string(k.columns.size()) + " columns but #define K " +
                                    std::to_string(k.declared_k));
    }
    if (specs.empty()) return fail(1, "no //! kernel line");
    return specs;
}

}  // namespace ptxconf
