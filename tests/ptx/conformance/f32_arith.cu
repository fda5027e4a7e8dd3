// f32 arithmetic with every rounding modifier: add/sub/mul/fma/mad (.rn .rz .rm .rp, .ftz, .sat),
// the IEEE-rounded div/rcp/sqrt (.rn .rz .rm .rp, .ftz), min/max (NaN operands, -0 < +0, .NaN),
// abs/neg, copysign, testp, and what NVRTC emits for the C++ operators (.xorsign.abs: extended.cu).
//
// What is pinned (PTX ISA, "Floating Point Instructions"):
// - results bit for bit: these instructions are IEEE 754 operations with an explicit rounding
//   (add/sub/mul without a modifier default to .rn; here they are written explicitly so the
//   optimizer cannot fuse them);
// - .ftz flushes subnormal inputs and results to sign-preserving zero; .sat clamps to [0, 1]
//   and turns NaN into +0.0;
// - NaN results: the GPU returns the one canonical f32 NaN (0x7fffffff) whatever the operands'
//   payloads, so the NaN bits are pinned too (rule `exact`), except where the ISA says "unspecified
//   NaN": abs.f32 and neg.f32 of a NaN, and copysign (no NaN rule), compared as "any NaN"
//   (rule `nan`);
// - min/max: a NaN operand yields the other operand, two NaNs a NaN, .NaN a canonical NaN if
//   either is NaN; +0.0 > -0.0.
//
// Inputs: a, b from the f32 edge values (0, -0, +-1, subnormals, FLT_MIN, FLT_MAX, +-inf,
// quiet/signalling NaNs with payloads, 1 +- ulp, values at integer and f16 boundaries; the core
// ones in a full cross product), then random values, many with nearby exponents so rounding is
// exercised, and c sometimes close to -(a*b) so fma's cancellation is. See int_arith.cu for the
// kernel ABI.

typedef unsigned int u32;
typedef unsigned long long u64;

//! kernel f32_arith in=f32,f32,f32 random=256
//! out f32 add.rn.f32 add.rz.f32 add.rm.f32 add.rp.f32 add.f32 add.rn.ftz.f32 add.rz.ftz.f32 add.rn.sat.f32 add.rn.ftz.sat.f32
//! out f32 sub.rn.f32 sub.rz.f32 sub.rm.f32 sub.rp.f32 sub.rn.ftz.f32 sub.rn.sat.f32
//! out f32 mul.rn.f32 mul.rz.f32 mul.rm.f32 mul.rp.f32 mul.f32 mul.rn.ftz.f32 mul.rn.sat.f32 mul.rm.ftz.f32
//! out f32 fma.rn.f32 fma.rz.f32 fma.rm.f32 fma.rp.f32 fma.rn.ftz.f32 fma.rn.sat.f32 fma.rn.ftz.sat.f32 mad.rn.f32 mad.rp.ftz.f32
//! out f32 div.rn.f32 div.rz.f32 div.rm.f32 div.rp.f32 div.rn.ftz.f32
//! out f32 rcp.rn.f32 rcp.rz.f32 rcp.rm.f32 rcp.rp.f32 rcp.rn.ftz.f32
//! out f32 sqrt.rn.f32 sqrt.rz.f32 sqrt.rm.f32 sqrt.rp.f32 sqrt.rn.ftz.f32
//! out f32 min.f32 max.f32 min.ftz.f32 max.ftz.f32 min.NaN.f32 max.NaN.f32 min.ftz.NaN.f32
//! out f32:nan abs.f32 abs.ftz.f32 neg.f32 neg.ftz.f32 copysign.f32
//! out u32 testp.finite.f32 testp.infinite.f32 testp.number.f32 testp.notanumber.f32 testp.normal.f32 testp.subnormal.f32
//! out f32 C++:a+b C++:a*b+c C++:a/b C++:sqrtf(a) C++:fminf C++:fmaxf C++:1/a C++:__fmul_rd
//! out f32 mov.f32
#define K 74
extern "C" __global__ void f32_arith(const u64* in, u64* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float a = __uint_as_float((u32)in[3 * i]), b = __uint_as_float((u32)in[3 * i + 1]),
                c = __uint_as_float((u32)in[3 * i + 2]);
    u64* o = out + (u64)i * K;
    int k = 0;
    float d;
#define F1(insn) { asm volatile(insn " %0, %1;" : "=f"(d) : "f"(a)); o[k++] = __float_as_uint(d); }
#define F2(insn) { asm volatile(insn " %0, %1, %2;" : "=f"(d) : "f"(a), "f"(b)); o[k++] = __float_as_uint(d); }
#define F3(insn) { asm volatile(insn " %0, %1, %2, %3;" : "=f"(d) : "f"(a), "f"(b), "f"(c)); o[k++] = __float_as_uint(d); }
    F2("add.rn.f32") F2("add.rz.f32") F2("add.rm.f32") F2("add.rp.f32") F2("add.f32")
    F2("add.rn.ftz.f32") F2("add.rz.ftz.f32") F2("add.rn.sat.f32") F2("add.rn.ftz.sat.f32")
    F2("sub.rn.f32") F2("sub.rz.f32") F2("sub.rm.f32") F2("sub.rp.f32") F2("sub.rn.ftz.f32") F2("sub.rn.sat.f32")
    F2("mul.rn.f32") F2("mul.rz.f32") F2("mul.rm.f32") F2("mul.rp.f32") F2("mul.f32")
    F2("mul.rn.ftz.f32") F2("mul.rn.sat.f32") F2("mul.rm.ftz.f32")
    F3("fma.rn.f32") F3("fma.rz.f32") F3("fma.rm.f32") F3("fma.rp.f32") F3("fma.rn.ftz.f32")
    F3("fma.rn.sat.f32") F3("fma.rn.ftz.sat.f32") F3("mad.rn.f32") F3("mad.rp.ftz.f32")
    F2("div.rn.f32") F2("div.rz.f32") F2("div.rm.f32") F2("div.rp.f32") F2("div.rn.ftz.f32")
    F1("rcp.rn.f32") F1("rcp.rz.f32") F1("rcp.rm.f32") F1("rcp.rp.f32") F1("rcp.rn.ftz.f32")
    F1("sqrt.rn.f32") F1("sqrt.rz.f32") F1("sqrt.rm.f32") F1("sqrt.rp.f32") F1("sqrt.rn.ftz.f32")
    F2("min.f32") F2("max.f32") F2("min.ftz.f32") F2("max.ftz.f32") F2("min.NaN.f32") F2("max.NaN.f32")
    F2("min.ftz.NaN.f32")
    F1("abs.f32") F1("abs.ftz.f32") F1("neg.f32") F1("neg.ftz.f32") F2("copysign.f32")
#define TP(insn) { u32 r_; asm volatile("{\n\t.reg .pred p;\n\t" insn " p, %1;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(r_) : "f"(a)); o[k++] = r_; }
    TP("testp.finite.f32") TP("testp.infinite.f32") TP("testp.number.f32") TP("testp.notanumber.f32")
    TP("testp.normal.f32") TP("testp.subnormal.f32")
    // What NVRTC emits for C++ (default flags: no fast math, FMA contraction on, IEEE div/sqrt).
    o[k++] = __float_as_uint(a + b);
    o[k++] = __float_as_uint(a * b + c);
    o[k++] = __float_as_uint(a / b);
    o[k++] = __float_as_uint(sqrtf(a));
    o[k++] = __float_as_uint(fminf(a, b));
    o[k++] = __float_as_uint(fmaxf(a, b));
    o[k++] = __float_as_uint(1.0f / a);
    o[k++] = __float_as_uint(__fmul_rd(a, b));
    F1("mov.f32")
}
