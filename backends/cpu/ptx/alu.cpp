// The arithmetic of PTX's ALU instructions (alu.h).
//
// Sections (in order):
//   rounding        host_mode / rounded: PTX's rounding modifiers through the host's fesetround
//   conversions     out32/out64 (.ftz, .sat, canonical NaN), half and bf16, cvt (to/from integers
//                   with saturation and NaN-to-0, float widths, integer widths)
//   comparisons     compare (setp/set/slct), combine (the .and/.or/.xor with a predicate), fminmax
//   integers        int_arith: add_sub (carries, .sat), mul_mad (.hi/.wide/24-bit, sad),
//                   div_rem_and_unary (div/rem, abs, neg, min/max); bitop (and/or/xor/not, popc,
//                   clz, brev, shifts' clamps) with bit_field (bfe, bfi), permute_bytes, lop3
//   floats          float32_op / float64_op (exact where PTX defines it; approximations inside
//                   PTX's documented bounds), testp
//   the entry       convert, compare_or_select, funnel_shift, which float ops exist; alu(): one
//                   instruction's result from its sources
#include "backends/cpu/ptx/alu.h"

#include <bit>
#include <cfenv>
#include <cmath>
#include <cstring>
#include <limits>

namespace ptx {

namespace {

using u64 = std::uint64_t;
using u32 = std::uint32_t;
using i64 = std::int64_t;

inline float f32(u64 v) { return std::bit_cast<float>(static_cast<u32>(v)); }
inline double f64(u64 v) { return std::bit_cast<double>(v); }
inline u64 bits(float f) { return std::bit_cast<u32>(f); }
inline u64 bits(double d) { return std::bit_cast<u64>(d); }

// The GPU's canonical NaNs: arithmetic on NaN returns these, not the input's payload.
constexpr u32 kNaN32 = 0x7fffffffu;

inline float ftz(float x) { return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x; }
inline double ftz(double x) { return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0, x) : x; }

int host_mode(Rnd r) {
    switch (r) {
        case Rnd::rz: case Rnd::rzi: return FE_TOWARDZERO;
        case Rnd::rm: case Rnd::rmi: return FE_DOWNWARD;
        case Rnd::rp: case Rnd::rpi: return FE_UPWARD;
        default: return FE_TONEAREST;
    }
}

// Runs f with the host's rounding mode set to r (round to nearest needs no switch).
template <class F>
auto rounded(Rnd r, F f) {
    const int mode = host_mode(r);
    if (mode == FE_TONEAREST) return f();
    const int old = std::fegetround();
    std::fesetround(mode);
    auto v = f();
    std::fesetround(old);
    return v;
}

// .sat: NaN and every x <= 0 (-0 included) become +0.
template <class T>
T sat01(T x) {
    if (std::isnan(x) || x <= T(0)) return T(0);
    return x > T(1) ? T(1) : x;
}

// A float result as the GPU stores it: canonical NaN, .ftz, .sat.
u64 out32(float x, std::uint32_t flags) {
    if (flags & kSat) x = sat01(x);
    if (flags & kFtz) x = ftz(x);
    if (std::isnan(x)) return kNaN32;
    return bits(x);
}
// f64 NaNs are the host's: an operand's payload survives (quieted), and a NaN made from numbers
// (0 * inf) is 0xfff8000000000000, both as on the H100. Which payload wins when both operands
// are NaN is unspecified (the GPU's compiler may swap operands): tests/ptx compares NaN-ness.
u64 out64(double x, std::uint32_t flags) {
    if (flags & kSat) x = sat01(x);
    return bits(x);
}
float in32(u64 v, std::uint32_t flags) { return (flags & kFtz) ? ftz(f32(v)) : f32(v); }

int width(Ty t) { return bytes_of(t) * 8; }

u64 sext(u64 v, int w) {
    if (w >= 64) return v;
    const u64 m = u64(1) << (w - 1);
    v &= (u64(1) << w) - 1;
    return (v ^ m) - m;
}
u64 zext(u64 v, int w) { return w >= 64 ? v : v & ((u64(1) << w) - 1); }

// double -> half (IEEE binary16) in any rounding mode: the value as a count of the half's
// quantum at its exponent, rounded as asked; overflow gives inf or the largest finite half as
// the mode says.
u64 half_from_double(double x, Rnd r) {
    const u64 sign = std::signbit(x) ? 0x8000u : 0;
    if (std::isnan(x)) return 0x7fffu;
    const bool neg = sign != 0;
    const bool up_away = r == Rnd::rp ? !neg : r == Rnd::rm ? neg : false;  // directed away from 0
    const bool toward_zero = r == Rnd::rz || (r == Rnd::rp && neg) || (r == Rnd::rm && !neg);
    const u64 huge = toward_zero ? 0x7bffu : 0x7c00u;
    if (std::isinf(x)) return sign | 0x7c00u;
    const double m = std::fabs(x);
    if (m == 0) return sign;
    int e;
    std::frexp(m, &e);           // m = f * 2^e, f in [0.5, 1)
    const int E = std::max(e - 1, -14);  // the half's exponent for this magnitude
    const double quanta = std::ldexp(m, 10 - E);  // m / 2^(E - 10): exact in double
    double count = std::floor(quanta);
    const double rem = quanta - count;
    if (r == Rnd::rz) {
    } else if (r == Rnd::rm || r == Rnd::rp) {
        if (rem > 0 && up_away) count += 1;
    } else if (rem > 0.5 || (rem == 0.5 && std::fmod(count, 2.0) == 1.0)) {
        count += 1;
    }
    if (E == -14 && count < 1024) return sign | u64(count);  // subnormal (or zero)
    u64 h = (u64(E + 15) << 10) + u64(count) - 1024;
    if (h >= 0x7c00u) return sign | huge;
    return sign | h;
}
u64 half_from_float(float f, Rnd r) { return half_from_double(double(f), r); }
float float_from_half(u64 h16) {
    const u32 h = u32(h16 & 0xffff);
    const u32 sign = (h & 0x8000u) << 16;
    int e = (h >> 10) & 0x1f;
    u32 m = h & 0x3ffu;
    u32 x;
    if (e == 31) x = sign | 0x7f800000u | (m << 13);
    else if (e == 0) {
        if (m == 0) x = sign;
        else {
            e = 1;
            while (!(m & 0x400u)) m <<= 1, --e;
            m &= 0x3ffu;
            x = sign | (u32(e - 15 + 127) << 23) | (m << 13);
        }
    } else x = sign | (u32(e - 15 + 127) << 23) | (m << 13);
    return std::bit_cast<float>(x);
}

// float <-> bfloat16 (the float's top 16 bits), round to nearest even or toward zero
u64 bf16_from_float(float f, Rnd r) {
    const u32 x = std::bit_cast<u32>(f);
    if (std::isnan(f)) return 0x7fffu;
    if (r == Rnd::rz) return x >> 16;
    return (x + 0x7fffu + ((x >> 16) & 1)) >> 16;
}
float float_from_bf16(u64 h) { return std::bit_cast<float>(u32(h & 0xffff) << 16); }

// A value of type t as a double (exact for every int up to 53 bits, and for floats).
double as_double(Ty t, u64 v) {
    if (t == Ty::f32) return f32(v);
    if (t == Ty::f64) return f64(v);
    if (t == Ty::f16) return float_from_half(v);
    if (t == Ty::bf16) return float_from_bf16(v);
    return 0;
}

// The integer nearest x in the direction r asks (.rzi/.rmi/.rpi/.rni, or their float-rounding
// spellings); any other r leaves x as it is.
template <class Float>
Float to_integral(Float x, Rnd r) {
    switch (r) {
        case Rnd::rzi: case Rnd::rz: return std::trunc(x);
        case Rnd::rmi: case Rnd::rm: return std::floor(x);
        case Rnd::rpi: case Rnd::rp: return std::ceil(x);
        case Rnd::rni: case Rnd::rn: return std::nearbyint(x);
        default: return x;
    }
}

// float -> integer: round as asked, NaN -> 0, saturate to the destination's range.
template <class Float>
u64 float_to_int(Float x, Rnd r, Ty dst) {
    // NaN: 0 from f32 to a 32-bit integer, the top bit alone otherwise (what the H100 gives)
    if (std::isnan(x)) return (sizeof(Float) == 4 && width(dst) <= 32) ? 0 : u64(1) << (width(dst) - 1);
    const Float y = to_integral(x, r == Rnd::none ? Rnd::rni : r);
    const int w = width(dst);
    if (is_signed(dst)) {
        const long double lo = -std::ldexp(1.0L, w - 1), hi = std::ldexp(1.0L, w - 1) - 1;
        const long double z = (long double)y;
        if (z <= lo) return zext(u64(i64(lo)), 64);
        if (z >= hi) return zext(u64(i64(hi)), 64);
        return u64(i64(z));
    }
    const long double hi = std::ldexp(1.0L, w) - 1;
    const long double z = (long double)y;
    if (z <= 0) return 0;
    if (z >= hi) return w >= 64 ? ~u64(0) : (u64(1) << w) - 1;
    return u64(z);
}

// integer -> float with a rounding mode
template <class Float>
Float int_to_float(u64 v, Ty src, Rnd r) {
    return rounded(r, [&] {
        if (is_signed(src)) {
            volatile i64 s = i64(sext(v, width(src)));
            return Float(s);
        }
        volatile u64 u = zext(v, width(src));
        return Float(u);
    });
}

u64 cvt(const Instr& in, u64 a) {
    const Ty dst = in.type, src = in.type2;
    const bool dfl = is_float(dst), sfl = is_float(src);
    if (!dfl && !sfl) {
        // integer widths; .sat clamps to the destination's range
        const int sw = width(src), dw = width(dst);
        const u64 sv = is_signed(src) ? sext(a, sw) : zext(a, sw);
        if (in.flags & kSat) {
            if (is_signed(src)) {
                const i64 x = i64(sv);
                if (is_signed(dst)) {
                    const i64 lo = dw >= 64 ? INT64_MIN : -(i64(1) << (dw - 1)), hi = dw >= 64 ? INT64_MAX : (i64(1) << (dw - 1)) - 1;
                    return u64(x < lo ? lo : x > hi ? hi : x);
                }
                const u64 hi = dw >= 64 ? ~u64(0) : (u64(1) << dw) - 1;
                return x < 0 ? 0 : u64(x) > hi ? hi : u64(x);
            }
            const u64 x = sv;
            const u64 hi = is_signed(dst) ? (dw >= 64 ? u64(INT64_MAX) : (u64(1) << (dw - 1)) - 1)
                                          : (dw >= 64 ? ~u64(0) : (u64(1) << dw) - 1);
            return x > hi ? hi : x;
        }
        return is_signed(dst) ? sext(sv, dw) : zext(sv, dw);
    }
    if (dfl && sfl) {
        if (dst == Ty::f32 && src == Ty::f32) {  // round to integral (cvt.rni.f32.f32)
            return out32(to_integral(in32(a, in.flags), in.rnd), in.flags);
        }
        if (dst == Ty::f64 && src == Ty::f64) {
            return out64(to_integral(f64(a), in.rnd), in.flags);
        }
        if (dst == Ty::f64 && src == Ty::f32) {
            const float x = in32(a, in.flags);
            return out64(double(x), in.flags);
        }
        if (dst == Ty::f32 && src == Ty::f64)
            return out32(rounded(in.rnd, [&] { volatile double x = f64(a); return float(x); }), in.flags);
        if (dst == Ty::bf16 && src == Ty::f32) return bf16_from_float(in32(a, in.flags), in.rnd);
        if (dst == Ty::bf16 && src == Ty::f64) return bf16_from_float(float(f64(a)), in.rnd);
        if (dst == Ty::f32 && src == Ty::bf16) return out32(float_from_bf16(a), in.flags);
        if (dst == Ty::f64 && src == Ty::bf16) return bits(double(float_from_bf16(a)));
        if (dst == Ty::f16 && src == Ty::f32) return half_from_float(in32(a, in.flags), in.rnd);
        if (dst == Ty::f32 && src == Ty::f16) return out32(float_from_half(a), in.flags);
        if (dst == Ty::f16 && src == Ty::f64) return half_from_double(f64(a), in.rnd);
        if (dst == Ty::f64 && src == Ty::f16) return bits(double(float_from_half(a)));
        return 0;
    }
    if (!dfl && sfl) {
        if (src == Ty::f32) return float_to_int(in32(a, in.flags), in.rnd, dst);
        if (src == Ty::f64) return float_to_int(f64(a), in.rnd, dst);
        if (src == Ty::bf16) return float_to_int(float_from_bf16(a), in.rnd, dst);
        return float_to_int(float_from_half(a), in.rnd, dst);
    }
    // integer -> float
    if (dst == Ty::f32) return out32(int_to_float<float>(a, src, in.rnd), in.flags);
    if (dst == Ty::f64) return out64(int_to_float<double>(a, src, in.rnd), in.flags);
    if (dst == Ty::bf16) return bf16_from_float(int_to_float<float>(a, src, in.rnd), in.rnd);
    // integer -> half: through double (exact for 32-bit integers), rounded once
    return half_from_double(is_signed(src) ? double(i64(sext(a, width(src)))) : double(zext(a, width(src))), in.rnd);
}

bool compare(const Instr& in, u64 a, u64 b) {
    const Ty t = in.type;
    if (is_float(t)) {
        const double x = t == Ty::f32 ? in32(a, in.flags) : as_double(t, a);
        const double y = t == Ty::f32 ? in32(b, in.flags) : as_double(t, b);
        const bool un = std::isnan(x) || std::isnan(y);
        switch (in.cmp) {
            case Cmp::eq: return !un && x == y;
            case Cmp::ne: return !un && x != y;
            case Cmp::lt: return !un && x < y;
            case Cmp::le: return !un && x <= y;
            case Cmp::gt: return !un && x > y;
            case Cmp::ge: return !un && x >= y;
            case Cmp::equ: return un || x == y;
            case Cmp::neu: return un || x != y;
            case Cmp::ltu: return un || x < y;
            case Cmp::leu: return un || x <= y;
            case Cmp::gtu: return un || x > y;
            case Cmp::geu: return un || x >= y;
            case Cmp::num: return !un;
            case Cmp::nan: return un;
            default: return false;
        }
    }
    const int w = width(t);
    const bool sgn = is_signed(t);
    const i64 sa = i64(sext(a, w)), sb = i64(sext(b, w));
    const u64 ua = zext(a, w), ub = zext(b, w);
    switch (in.cmp) {
        case Cmp::eq: return ua == ub;
        case Cmp::ne: return ua != ub;
        case Cmp::lt: return sgn ? sa < sb : ua < ub;
        case Cmp::le: return sgn ? sa <= sb : ua <= ub;
        case Cmp::gt: return sgn ? sa > sb : ua > ub;
        case Cmp::ge: return sgn ? sa >= sb : ua >= ub;
        case Cmp::lo: return ua < ub;
        case Cmp::ls: return ua <= ub;
        case Cmp::hi: return ua > ub;
        case Cmp::hs: return ua >= ub;
        default: return false;
    }
}

bool combine(std::uint32_t flags, bool r, u64 c) {
    if (flags & kBoolAnd) return r && (c & 1);
    if (flags & kBoolOr) return r || (c & 1);
    if (flags & kBoolXor) return r != bool(c & 1);
    return r;
}

// min/max of floats: a NaN operand yields the other (both NaN: NaN); -0 is below +0.
template <class T>
T fminmax(T a, T b, bool is_max, bool nan_propagates) {
    if (std::isnan(a) || std::isnan(b)) {
        if (nan_propagates || (std::isnan(a) && std::isnan(b))) return std::numeric_limits<T>::quiet_NaN();
        return std::isnan(a) ? b : a;
    }
    if (a == b && a == T(0)) return (std::signbit(a) != is_max) ? a : b;
    return is_max ? (a > b ? a : b) : (a < b ? a : b);
}

u64 mul_hi_u(u64 a, u64 b, int w) {
    if (w == 64) return u64((unsigned __int128)a * b >> 64);
    return (zext(a, w) * zext(b, w)) >> w;
}
u64 mul_hi_s(u64 a, u64 b, int w) {
    if (w == 64) return u64((__int128)i64(a) * i64(b) >> 64);
    return u64((i64(sext(a, w)) * i64(sext(b, w))) >> w);
}

// i32 saturation (add.sat, sub.sat, mad.lo.sat): the exact sum clamped to [INT32_MIN, INT32_MAX].
u64 saturate_s32(i64 r) { return sext(u64(r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : r), 32); }

// add/addc/sub/subc: .sat, and the carry (borrow) in and out of .cc.
u64 add_sub(const Instr& in, const u64* s, std::uint32_t& carry) {
    const int w = width(in.type);
    const bool sgn = is_signed(in.type);
    auto fit = [&](u64 v) { return sgn ? sext(v, w) : zext(v, w); };
    const u64 a = s[0], b = s[1];
    switch (in.op) {
        case Op::add:
            if (in.flags & kSat) return saturate_s32(i64(sext(a, 32)) + i64(sext(b, 32)));  // add.sat.s32
            if (in.flags & kCc) {
                const unsigned __int128 r = (unsigned __int128)zext(a, w) + zext(b, w);
                carry = u32((r >> w) & 1);
                return fit(u64(r));
            }
            return fit(a + b);
        case Op::addc: {
            const unsigned __int128 r = (unsigned __int128)zext(a, w) + zext(b, w) + carry;
            if (in.flags & kCc) carry = u32((r >> w) & 1);
            return fit(u64(r));
        }
        case Op::sub:
            if (in.flags & kSat) return saturate_s32(i64(sext(a, 32)) - i64(sext(b, 32)));
            if (in.flags & kCc) {
                carry = zext(a, w) < zext(b, w) ? 1 : 0;  // borrow
                return fit(a - b);
            }
            return fit(a - b);
        case Op::subc: {
            const u64 r = zext(a, w) - zext(b, w) - carry;
            if (in.flags & kCc) carry = ((unsigned __int128)zext(a, w) < (unsigned __int128)zext(b, w) + carry) ? 1 : 0;
            return fit(r);
        }
        default: return 0;
    }
}

// mul/mad (.lo, .hi, .wide, .sat, .cc), madc, mul24/mad24, sad.
u64 mul_mad(const Instr& in, const u64* s, std::uint32_t& carry) {
    const int w = width(in.type);
    const bool sgn = is_signed(in.type);
    auto fit = [&](u64 v) { return sgn ? sext(v, w) : zext(v, w); };
    const u64 a = s[0], b = s[1];
    switch (in.op) {
        case Op::mul: case Op::mad: {
            u64 r;
            if (in.flags & kWide) {
                r = sgn ? u64(i64(sext(a, w)) * i64(sext(b, w))) : zext(a, w) * zext(b, w);
                r = sgn ? sext(r, 2 * w) : zext(r, 2 * w);
                if (in.op == Op::mad) r = sgn ? sext(r + s[2], 2 * w) : zext(r + s[2], 2 * w);
                return r;
            }
            r = (in.flags & kHi) ? (sgn ? mul_hi_s(a, b, w) : mul_hi_u(a, b, w)) : a * b;
            if (in.op == Op::mad && (in.flags & kCc)) {
                const unsigned __int128 t = (unsigned __int128)zext(r, w) + zext(s[2], w);
                carry = u32((t >> w) & 1);
                return fit(u64(t));
            }
            if (in.op == Op::mad) {
                // .sat saturates mad.lo; the H100 computes mad.hi.sat.s32 as a plain mad.hi (it
                // wraps: tests/ptx pins it)
                if ((in.flags & kSat) && sgn && !(in.flags & kHi)) return saturate_s32(i64(sext(r, 32)) + i64(sext(s[2], 32)));
                r += s[2];
            }
            return fit(r);
        }
        case Op::madc: {  // (a * b).hi/.lo + c + carry-in; .cc sets the carry-out
            const u64 p = (in.flags & kHi) ? mul_hi_u(a, b, w) : zext(a * b, w);
            const unsigned __int128 t = (unsigned __int128)p + zext(s[2], w) + carry;
            if (in.flags & kCc) carry = u32((t >> w) & 1);
            return fit(u64(t));
        }
        case Op::mul24: case Op::mad24: {
            const u64 x = sgn ? sext(a, 24) : zext(a, 24), y = sgn ? sext(b, 24) : zext(b, 24);
            u64 r = (in.flags & kHi) ? (sgn ? u64((i64(x) * i64(y)) >> 16) : (x * y) >> 16) : x * y;
            if (in.op == Op::mad24) r += s[2];
            return fit(r);
        }
        case Op::sad: {
            const u64 d = sgn ? (i64(sext(a, w)) > i64(sext(b, w)) ? a - b : b - a)
                              : (zext(a, w) > zext(b, w) ? a - b : b - a);
            return fit(d + s[2]);
        }
        default: return 0;
    }
}

// div/rem (PTX defines division by 0 and INT_MIN / -1), abs, neg, min/max.
u64 div_rem_and_unary(const Instr& in, const u64* s) {
    const int w = width(in.type);
    const bool sgn = is_signed(in.type);
    auto fit = [&](u64 v) { return sgn ? sext(v, w) : zext(v, w); };
    const u64 a = s[0], b = s[1];
    switch (in.op) {
        case Op::div:
            if (sgn) {
                const i64 x = i64(sext(a, w)), y = i64(sext(b, w));
                if (y == 0) return fit(~u64(0));
                if (y == -1) return fit(u64(0) - u64(x));
                return fit(u64(x / y));
            } else {
                const u64 x = zext(a, w), y = zext(b, w);
                return y == 0 ? fit(~u64(0)) : fit(x / y);
            }
        case Op::rem:
            if (sgn) {
                const i64 x = i64(sext(a, w)), y = i64(sext(b, w));
                if (y == 0) return fit(u64(x));
                if (y == -1) return 0;
                return fit(u64(x % y));
            } else {
                const u64 x = zext(a, w), y = zext(b, w);
                return y == 0 ? fit(x) : fit(x % y);
            }
        case Op::abs: {
            const i64 x = i64(sext(a, w));
            return fit(u64(x < 0 ? -x : x));
        }
        case Op::neg: return fit(u64(0) - a);
        case Op::min: case Op::max: {
            const bool mx = in.op == Op::max;
            if (sgn) {
                const i64 x = i64(sext(a, w)), y = i64(sext(b, w));
                return fit(u64(mx ? (x > y ? x : y) : (x < y ? x : y)));
            }
            const u64 x = zext(a, w), y = zext(b, w);
            return mx ? (x > y ? x : y) : (x < y ? x : y);
        }
        default: return 0;
    }
}

u64 int_arith(const Instr& in, const u64* s, std::uint32_t& carry) {
    switch (in.op) {
        case Op::add: case Op::addc: case Op::sub: case Op::subc: return add_sub(in, s, carry);
        case Op::mul: case Op::mad: case Op::madc: case Op::mul24: case Op::mad24: case Op::sad:
            return mul_mad(in, s, carry);
        default: return div_rem_and_unary(in, s);
    }
}

// bfe and bfi: bit fields at a position and a length (the 64-bit forms clamp both to 255).
u64 bit_field(const Instr& in, const u64* s, int w) {
    const Ty t = in.type;
    const u64 a = s[0], b = s[1];
    if (in.op == Op::bfe) {
        // position and length: bits 7:0 for .b32; the 64-bit forms clamp the 32-bit value
        // to 255 instead (what the H100 computes)
        const u32 pos = w == 64 ? u32(std::min<u64>(zext(b, 32), 255)) : u32(b & 0xff);
        const u32 len = w == 64 ? u32(std::min<u64>(zext(s[2], 32), 255)) : u32(s[2] & 0xff);
        const u64 x = zext(a, w);
        const bool sgn = is_signed(t);
        if (len == 0) return 0;
        u64 r = 0;
        const u32 msb = pos + len - 1;
        const u64 sbit = sgn ? (msb >= u32(w) ? (x >> (w - 1)) & 1 : (x >> msb) & 1) : 0;
        for (u32 i = 0; i < u32(w); ++i) {
            const u64 bit = (i < len && pos + i < u32(w)) ? (x >> (pos + i)) & 1 : sbit;
            r |= bit << i;
        }
        return r;
    }
    // bfi d, a (field), b (base), c (pos), e (len)
    const u32 pos = w == 64 ? u32(std::min<u64>(zext(s[2], 32), 255)) : u32(s[2] & 0xff);
    const u32 len = w == 64 ? u32(std::min<u64>(zext(s[3], 32), 255)) : u32(s[3] & 0xff);
    u64 r = zext(b, w);
    for (u32 i = 0; i < len && pos + i < u32(w); ++i) {
        const u64 bit = (a >> i) & 1;
        r = (r & ~(u64(1) << (pos + i))) | (bit << (pos + i));
    }
    return r;
}

// prmt: each result byte picked from the 8 source bytes by a selector, or by one of the modes.
u64 permute_bytes(const Instr& in, const u64* s) {
    const u64 bytes = zext(s[0], 32) | (zext(s[1], 32) << 32);
    const u32 sel = u32(s[2]);
    u32 r = 0;
    const std::uint32_t mode = in.flags & (kPrmtF4e | kPrmtB4e | kPrmtRc8 | kPrmtEcl | kPrmtEcr | kPrmtRc16);
    if (mode) {  // the special modes: byte i of the result is source byte pick(i), c = sel[1:0]
        const u32 c = sel & 3;
        for (u32 i = 0; i < 4; ++i) {
            u32 pick = 0;
            if (mode == kPrmtF4e) pick = c + i;
            else if (mode == kPrmtB4e) pick = (c - i) & 7;
            else if (mode == kPrmtRc8) pick = c;
            else if (mode == kPrmtEcl) pick = std::max(i, c);
            else if (mode == kPrmtEcr) pick = std::min(i, c);
            else pick = 2 * (c & 1) + (i & 1);
            r |= u32((bytes >> (8 * pick)) & 0xff) << (8 * i);
        }
        return r;
    }
    for (int i = 0; i < 4; ++i) {
        const u32 sl = (sel >> (4 * i)) & 0xf;
        u32 byte = u32((bytes >> (8 * (sl & 7))) & 0xff);
        if (sl & 8) byte = (byte & 0x80) ? 0xff : 0;
        r |= byte << (8 * i);
    }
    return r;
}

// lop3: any function of three inputs, bit by bit, given by its truth table.
u64 lop3(const u64* s, int w) {
    const u32 lut = u32(s[3]);
    const u64 x = s[0], y = s[1], z = s[2];
    u64 r = 0;
    for (int i = 0; i < 8; ++i)
        if ((lut >> i) & 1) {
            const u64 ma = (i & 4) ? x : ~x, mb = (i & 2) ? y : ~y, mc = (i & 1) ? z : ~z;
            r |= ma & mb & mc;
        }
    return zext(r, w);
}

u64 bitop(const Instr& in, const u64* s) {
    const Ty t = in.type;
    const int w = t == Ty::pred ? 1 : width(t);
    const u64 a = s[0], b = s[1];
    switch (in.op) {
        case Op::and_: return zext(a & b, w);
        case Op::or_: return zext(a | b, w);
        case Op::xor_: return zext(a ^ b, w);
        case Op::not_: return zext(~a, w);
        case Op::cnot: return zext(a, w) == 0 ? 1 : 0;
        case Op::popc: return u64(std::popcount(zext(a, w)));
        case Op::clz: return zext(a, w) == 0 ? u64(w) : u64(std::countl_zero(zext(a, w)) - (64 - w));
        case Op::brev: {
            u64 r = 0, x = zext(a, w);
            for (int i = 0; i < w; ++i) r |= ((x >> i) & 1) << (w - 1 - i);
            return r;
        }
        case Op::bfind: {
            u64 x = zext(a, w);
            if (is_signed(t) && ((x >> (w - 1)) & 1)) x = zext(~x, w);
            if (x == 0) return 0xffffffffu;
            const int msb = 63 - std::countl_zero(x);
            return (in.flags & kShiftr) ? u64(w - 1 - msb) : u64(msb);
        }
        case Op::shl: {
            const u64 n = zext(b, 32);
            return n >= u64(w) ? 0 : zext(a << n, w);
        }
        case Op::shr: {
            const u64 n = zext(b, 32);
            if (is_signed(t)) {
                const i64 x = i64(sext(a, w));
                return zext(u64(n >= u64(w) ? (x < 0 ? -1 : 0) : x >> n), w);
            }
            return n >= u64(w) ? 0 : zext(a, w) >> n;
        }
        case Op::bfe: case Op::bfi: return bit_field(in, s, w);
        case Op::prmt: return permute_bytes(in, s);
        case Op::lop3: return lop3(s, w);
        default: return 0;
    }
}

// .ftz flushes a result that is tiny before rounding (|exact| < 2^-126), as the GPU does: a
// product that rounds up to FLT_MIN is still flushed. `exact` is the result in double (exact for
// add/sub/mul of floats; for fma, near enough to decide tininess).
u64 out32_ftz(float rounded_result, double exact, std::uint32_t flags) {
    if ((flags & kFtz) && exact != 0 && std::fabs(exact) < double(std::numeric_limits<float>::min()))
        rounded_result = std::copysign(0.0f, float(exact));
    return out32(rounded_result, flags);
}

u64 float32_op(const Instr& in, const u64* s, int n) {
    const std::uint32_t fl = in.flags;
    const float a = in32(s[0], fl), b = n > 1 ? in32(s[1], fl) : 0.0f, c = n > 2 ? in32(s[2], fl) : 0.0f;
    const Rnd r = in.rnd;
    switch (in.op) {
        case Op::add: return out32_ftz(rounded(r, [&] { volatile float x = a; return x + b; }), double(a) + b, fl);
        case Op::sub: return out32_ftz(rounded(r, [&] { volatile float x = a; return x - b; }), double(a) - b, fl);
        case Op::mul: return out32_ftz(rounded(r, [&] { volatile float x = a; return x * b; }), double(a) * b, fl);
        case Op::fma: case Op::mad:
            return out32_ftz(rounded(r, [&] { return std::fmaf(a, b, c); }), std::fma(double(a), double(b), double(c)), fl);
        case Op::div:
            if (fl & kApprox) {
                // div.approx: for 2^126 < |b| < 2^128 the result is a * 0 (the ISA documents it:
                // inf / huge is NaN); elsewhere a / b, inside the approximation's bound.
                if (std::fabs(b) > 0x1p126f && std::isfinite(b)) return out32(a * std::copysign(0.0f, b), fl);
                return out32(a / b, fl);
            }
            if (fl & kFull) return out32(a / b, fl);
            return out32(rounded(r, [&] { volatile float x = a; return x / b; }), fl);
        case Op::rcp: return out32(rounded(r, [&] { volatile float x = 1.0f; return x / a; }), fl);
        case Op::sqrt: return out32(rounded(r, [&] { return std::sqrt(a); }), fl);
        case Op::rsqrt: return out32(1.0f / std::sqrt(a), fl);
        // The GPU's approximate units flush subnormal results (with or without .ftz).
        case Op::sin: return out32(ftz(std::sin(a)), fl);
        case Op::cos: return out32(ftz(std::cos(a)), fl);
        case Op::ex2: return out32(ftz(std::exp2(a)), fl);
        case Op::lg2: return out32(ftz(std::log2(a)), fl);
        case Op::tanh: return out32(std::tanh(a), fl);
        case Op::abs: {
            const float x = std::fabs(a);
            return (fl & kFtz) ? bits(ftz(x)) : bits(x);
        }
        case Op::neg: return (fl & kFtz) ? bits(ftz(-a)) : bits(-a);
        case Op::min: case Op::max:
            return out32(fminmax(a, b, in.op == Op::max, fl & kNaN), fl & ~kSat);
        case Op::copysign: return bits(std::copysign(b, a));
        default: return 0;
    }
}

u64 float64_op(const Instr& in, const u64* s, int n) {
    const std::uint32_t fl = in.flags;
    const double a = f64(s[0]), b = n > 1 ? f64(s[1]) : 0.0, c = n > 2 ? f64(s[2]) : 0.0;
    const Rnd r = in.rnd;
    // rcp/rsqrt.approx.f64 come from the GPU's 32-bit-high-word units: the low word is zero.
    auto high_word = [](double x) { return bits(x) & 0xffffffff00000000ull; };
    switch (in.op) {
        case Op::add: return out64(rounded(r, [&] { volatile double x = a; return x + b; }), fl);
        case Op::sub: return out64(rounded(r, [&] { volatile double x = a; return x - b; }), fl);
        case Op::mul: return out64(rounded(r, [&] { volatile double x = a; return x * b; }), fl);
        case Op::fma: case Op::mad: return out64(rounded(r, [&] { return std::fma(a, b, c); }), fl);
        case Op::div: return out64(rounded(r, [&] { volatile double x = a; return x / b; }), fl);
        case Op::rcp:
            if (fl & kApprox) return std::isnan(a) ? bits(a) : high_word(1.0 / ftz(a));
            return out64(rounded(r, [&] { volatile double x = 1.0; return x / a; }), fl);
        case Op::sqrt: return out64(rounded(r, [&] { return std::sqrt(a); }), fl);
        case Op::rsqrt:
            if (std::isnan(a)) return bits(a);
            return (fl & kFtz) ? high_word(1.0 / std::sqrt(ftz(a))) : bits(1.0 / std::sqrt(a));
        case Op::abs: return std::isnan(a) ? (s[0] | 0x0008000000000000ull) : bits(std::fabs(a));  // NaN: quieted, sign kept
        case Op::neg: return bits(-a);
        case Op::min: case Op::max: return out64(fminmax(a, b, in.op == Op::max, fl & kNaN), 0);
        case Op::copysign: return bits(std::copysign(b, a));
        default: return 0;
    }
}

u64 testp(const Instr& in, u64 a) {
    const double x = in.type == Ty::f32 ? double(f32(a)) : f64(a);
    const int c = in.type == Ty::f32 ? std::fpclassify(f32(a)) : std::fpclassify(x);
    switch (in.sub) {
        case Sub::finite: return std::isfinite(x);
        case Sub::infinite: return std::isinf(x);
        case Sub::number: return !std::isnan(x);
        case Sub::notanumber: return std::isnan(x);
        case Sub::normal: return c == FP_NORMAL || c == FP_ZERO;  // the GPU counts 0 as normal
        case Sub::subnormal: return c == FP_SUBNORMAL;
        default: return 0;
    }
}

// cvt: one value, or two f32 packed into f16x2 / bf16x2. False: a form the engine does not run.
bool convert(const Instr& in, const u64* s, int n, AluResult& out) {
    if (in.type == Ty::f16x2 || in.type == Ty::bf16x2) {
        // cvt.rn.f16x2.f32 d, a, b: a converted into the upper half, b into the lower
        if (n < 2 || in.type2 != Ty::f32) return false;
        Instr one = in;
        one.type = in.type == Ty::f16x2 ? Ty::f16 : Ty::bf16;
        out.d = (cvt(one, s[0]) << 16) | (cvt(one, s[1]) & 0xffff);
        return true;
    }
    out.d = cvt(in, s[0]);
    return true;
}

// setp, set, selp, slct, testp: comparisons and the selections they drive.
void compare_or_select(const Instr& in, const u64* s, int n, AluResult& out) {
    switch (in.op) {
        case Op::setp: {
            const bool r = compare(in, s[0], s[1]);
            const u64 c = n > 2 ? s[2] : 0;
            out.d = combine(in.flags, r, c);
            out.d2 = combine(in.flags, !r, c);
            out.has_d2 = true;
            return;
        }
        case Op::set: {
            // set.cmp.dtype.stype d, a, b[, c]: all ones (or 1.0f) when true
            Instr cmp = in;
            cmp.type = in.type2;
            const bool r = combine(in.flags, compare(cmp, s[0], s[1]), n > 2 ? s[2] : 0);
            if (in.type == Ty::f32) out.d = r ? bits(1.0f) : 0;
            else out.d = r ? zext(~u64(0), width(in.type)) : 0;
            return;
        }
        case Op::selp: out.d = (s[2] & 1) ? s[0] : s[1]; return;
        case Op::slct: {
            // slct.dtype.stype d, a, b, c: c >= 0 ? a : b
            const bool take_a = in.type2 == Ty::f32 ? in32(s[2], in.flags) >= 0.0f : i64(sext(s[2], 32)) >= 0;
            out.d = take_a ? s[0] : s[1];
            return;
        }
        default: out.d = testp(in, s[0]); return;  // testp
    }
}

// shf.l / shf.r: the 64-bit pair hi:lo shifted, clamped at 32 or (.wrap) modulo 32.
u64 funnel_shift(const Instr& in, const u64* s) {
    const u32 lo = u32(s[0]), hi = u32(s[1]);
    u32 sh = u32(s[2]);
    sh = (in.flags & kWrap) ? (sh & 31) : (sh > 32 ? 32 : sh);
    const u64 both = (u64(hi) << 32) | lo;
    if (in.sub == Sub::up) return u32((both << sh) >> 32);  // .l (decoded as Sub::up)
    return u32(both >> sh);
}

// The instructions float32_op and float64_op compute (f64 has no approximate transcendentals).
bool is_float32_op(Op op) {
    switch (op) {
        case Op::add: case Op::sub: case Op::mul: case Op::fma: case Op::mad: case Op::div: case Op::rcp:
        case Op::sqrt: case Op::rsqrt: case Op::sin: case Op::cos: case Op::ex2: case Op::lg2: case Op::tanh:
        case Op::abs: case Op::neg: case Op::min: case Op::max: case Op::copysign: return true;
        default: return false;
    }
}
bool is_float64_op(Op op) {
    switch (op) {
        case Op::add: case Op::sub: case Op::mul: case Op::fma: case Op::mad: case Op::div: case Op::rcp:
        case Op::sqrt: case Op::rsqrt: case Op::abs: case Op::neg: case Op::min: case Op::max:
        case Op::copysign: return true;
        default: return false;
    }
}

}  // namespace

std::uint64_t truncate_to(Ty t, std::uint64_t v) {
    const int w = width(t);
    if (w == 0) return v & 1;
    return is_signed(t) ? sext(v, w) : zext(v, w);
}

bool alu(const Instr& in, const std::uint64_t* s, int n, AluResult& out, std::uint32_t& carry) {
    const Ty t = in.type;
    switch (in.op) {
        case Op::cvt: return convert(in, s, n, out);
        case Op::setp: case Op::set: case Op::selp: case Op::slct: case Op::testp:
            compare_or_select(in, s, n, out);
            return true;
        case Op::shf:
            out.d = funnel_shift(in, s);
            return true;
        default: break;
    }
    if (t == Ty::f32 && is_float32_op(in.op)) {
        out.d = float32_op(in, s, n);
        return true;
    }
    if (t == Ty::f64 && is_float64_op(in.op)) {
        out.d = float64_op(in, s, n);
        return true;
    }
    if (is_float(t)) return false;
    switch (in.op) {
        case Op::add: case Op::addc: case Op::sub: case Op::subc: case Op::mul: case Op::mad: case Op::madc:
        case Op::mul24: case Op::mad24: case Op::sad: case Op::div: case Op::rem: case Op::abs:
        case Op::neg: case Op::min: case Op::max:
            out.d = int_arith(in, s, carry);
            return true;
        case Op::and_: case Op::or_: case Op::xor_: case Op::not_: case Op::cnot: case Op::popc:
        case Op::clz: case Op::brev: case Op::bfind: case Op::shl: case Op::shr: case Op::bfe:
        case Op::bfi: case Op::prmt: case Op::lop3:
            out.d = bitop(in, s);
            return true;
        default: return false;
    }
}

bool is_approximate(const Instr& in) {
    if (in.type != Ty::f32) return false;
    switch (in.op) {
        case Op::div: return (in.flags & (kApprox | kFull)) != 0;
        case Op::rcp: case Op::sqrt: return (in.flags & kApprox) != 0;
        case Op::rsqrt: case Op::sin: case Op::cos: case Op::ex2: case Op::lg2: case Op::tanh: return true;
        default: return false;
    }
}

std::uint64_t move_within_bound(const Instr& in, std::uint64_t exact, int direction) {
    const float x = f32(exact);
    if (direction == 0 || !std::isfinite(x) || x == 0.0f) return exact;
    const float toward = direction > 0 ? INFINITY : -INFINITY;
    float y = x;
    switch (in.op) {
        case Op::sin: case Op::cos: y = float(double(x) + direction * std::ldexp(1.0, -21)); break;  // |err| <= 2^-20.5
        case Op::lg2: y = float(double(x) + direction * std::ldexp(1.0, -23)); break;  // |err| <= 2^-22.6
        case Op::tanh: y = float(double(x) * (1.0 + direction * std::ldexp(1.0, -12))); break;  // rel <= 2^-10.987
        default: y = std::nextafter(x, toward); break;  // within 1 ulp (div: 2 ulp)
    }
    return std::isfinite(y) ? bits(y) : exact;
}

}  // namespace ptx

