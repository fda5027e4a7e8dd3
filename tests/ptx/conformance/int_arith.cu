// Integer arithmetic: add/sub (plain, .sat, carry chains), mul.lo/hi/wide, mul24, mad (lo, hi,
// wide, hi.sat, carry), div/rem, min/max, abs/neg, sad, on 16-, 32- and 64-bit types (dp4a/dp2a:
// extended.cu).
//
// Every instruction is written as inline PTX so the exact form is pinned, whatever NVRTC would
// choose for the C++ operator. Inputs are bit patterns (edge values first: 0, 1, -1, INT_MIN,
// INT_MAX, 0xffff..., powers of two, then seeded random ones).
//
// Division: the PTX ISA says "Division by zero yields an unspecified, machine-specific value", so
// a zero divisor is skipped (the column holds the marker 0xdead instead, written by C++, not by
// div/rem). INT_MIN / -1 (s32, s64) overflows the quotient; the ISA says nothing about it, so it
// is skipped the same way. rem of negative operands: the ISA calls it machine-dependent; NVIDIA
// GPUs truncate toward zero (C++ semantics, which NVRTC relies on), and that is what is pinned.
//
// Kernel ABI (all conformance kernels): thread i < n reads its inputs in[i*A .. i*A+A-1] (A =
// number of `in=` kinds) and writes its outputs out[i*K .. i*K+K-1] in the order of the
// `//! out` lines; 32-bit results are zero-extended into the 64-bit word.

typedef unsigned short u16;
typedef short s16;
typedef unsigned int u32;
typedef int s32;
typedef unsigned long long u64;
typedef long long s64;

#define SKIPPED 0xdeadull

// ---- 32-bit -----------------------------------------------------------------------------------
//! kernel int32_arith in=u32,u32,u32 random=256
//! out u32 add.u32 add.s32 add.sat.s32 sub.u32 sub.s32 sub.sat.s32
//! out u32 mul.lo.u32 mul.lo.s32 mul.hi.u32 mul.hi.s32
//! out u64 mul.wide.u32 mul.wide.s32
//! out u32 mul24.lo.u32 mul24.hi.u32 mul24.lo.s32 mul24.hi.s32 mad24.lo.u32 mad24.hi.s32
//! out u32 mad.lo.u32 mad.lo.s32 mad.hi.u32 mad.hi.s32 mad.hi.sat.s32
//! out u64 mad.wide.u32 mad.wide.s32
//! out u32 div.u32 div.s32 rem.u32 rem.s32
//! out u32 min.u32 min.s32 max.u32 max.s32 abs.s32 neg.s32 sad.u32 sad.s32
//! out u32 add.cc.u32+addc.cc.u32+addc.u32:lo add.cc.u32+addc.cc.u32+addc.u32:mid add.cc.u32+addc.cc.u32+addc.u32:hi
//! out u32 sub.cc.u32+subc.u32:lo sub.cc.u32+subc.u32:hi
//! out u32 mad.lo.cc.u32+madc.hi.u32:lo mad.lo.cc.u32+madc.hi.u32:hi
//! out u32 add.cc.u32+addc.u32:carry-out
//! out u16 add.u16 sub.s16 mul.lo.u16 mul.hi.s16 min.s16 max.u16 abs.s16 div.s16 rem.u16
//! out u32 mul.wide.u16 mul.wide.s16
#define K 56
extern "C" __global__ void int32_arith(const u64* in, u64* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const u32 a = (u32)in[3 * i], b = (u32)in[3 * i + 1], c = (u32)in[3 * i + 2];
    u64* o = out + (u64)i * K;
    int k = 0;
    u32 r;
    u64 w;
#define R3(insn)  { asm volatile(insn " %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); o[k++] = r; }
#define R4(insn)  { asm volatile(insn " %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); o[k++] = r; }
#define W3(insn)  { asm volatile(insn " %0, %1, %2;" : "=l"(w) : "r"(a), "r"(b)); o[k++] = w; }
    R3("add.u32") R3("add.s32") R3("add.sat.s32") R3("sub.u32") R3("sub.s32") R3("sub.sat.s32")
    R3("mul.lo.u32") R3("mul.lo.s32") R3("mul.hi.u32") R3("mul.hi.s32")
    W3("mul.wide.u32") W3("mul.wide.s32")
    R3("mul24.lo.u32") R3("mul24.hi.u32") R3("mul24.lo.s32") R3("mul24.hi.s32")
    R4("mad24.lo.u32") R4("mad24.hi.s32")
    R4("mad.lo.u32") R4("mad.lo.s32") R4("mad.hi.u32") R4("mad.hi.s32") R4("mad.hi.sat.s32")
    const u64 c64 = ((u64)b << 32) | c;  // the 64-bit addend of mad.wide
    { asm volatile("mad.wide.u32 %0, %1, %2, %3;" : "=l"(w) : "r"(a), "r"(b), "l"(c64)); o[k++] = w; }
    { asm volatile("mad.wide.s32 %0, %1, %2, %3;" : "=l"(w) : "r"(a), "r"(b), "l"(c64)); o[k++] = w; }
    // div/rem: a zero divisor (unspecified in PTX) and INT_MIN / -1 are skipped.
    if (b != 0) { R3("div.u32") } else o[k++] = SKIPPED;
    if (b != 0 && !(a == 0x80000000u && b == 0xffffffffu)) { R3("div.s32") } else o[k++] = SKIPPED;
    if (b != 0) { R3("rem.u32") } else o[k++] = SKIPPED;
    if (b != 0 && !(a == 0x80000000u && b == 0xffffffffu)) { R3("rem.s32") } else o[k++] = SKIPPED;
    R3("min.u32") R3("min.s32") R3("max.u32") R3("max.s32")
    { asm volatile("abs.s32 %0, %1;" : "=r"(r) : "r"(a)); o[k++] = r; }
    { asm volatile("neg.s32 %0, %1;" : "=r"(r) : "r"(a)); o[k++] = r; }
    R4("sad.u32") R4("sad.s32")
    {   // 96-bit add: (c:b:a) + (a:c:b), carry through CC.CF
        u32 lo, mid, hi;
        asm volatile("add.cc.u32 %0, %3, %4;\n\taddc.cc.u32 %1, %4, %5;\n\taddc.u32 %2, %5, %3;"
                     : "=r"(lo), "=r"(mid), "=r"(hi) : "r"(a), "r"(b), "r"(c));
        o[k++] = lo; o[k++] = mid; o[k++] = hi;
    }
    {   // 64-bit subtract (b:a) - (a:c) with borrow
        u32 lo, hi;
        asm volatile("sub.cc.u32 %0, %2, %4;\n\tsubc.u32 %1, %3, %2;" : "=r"(lo), "=r"(hi) : "r"(a), "r"(b), "r"(c));
        o[k++] = lo; o[k++] = hi;
    }
    {   // 64-bit a*b + (c:c) from mad.lo.cc / madc.hi
        u32 lo, hi;
        asm volatile("mad.lo.cc.u32 %0, %2, %3, %4;\n\tmadc.hi.u32 %1, %2, %3, %4;" : "=r"(lo), "=r"(hi) : "r"(a), "r"(b), "r"(c));
        o[k++] = lo; o[k++] = hi;
    }
    {   // the carry flag itself: addc.u32 of 0 + 0 + CF
        asm volatile("{\n\t.reg .u32 t;\n\tadd.cc.u32 t, %1, %2;\n\taddc.u32 %0, 0, 0;\n\t}" : "=r"(r) : "r"(a), "r"(b));
        o[k++] = r;
    }
    // 16-bit: the low halves of a, b (h registers)
    const u16 ha = (u16)a, hb = (u16)b;
    u16 h;
#define H3(insn) { asm volatile(insn " %0, %1, %2;" : "=h"(h) : "h"(ha), "h"(hb)); o[k++] = h; }
    H3("add.u16") H3("sub.s16") H3("mul.lo.u16") H3("mul.hi.s16") H3("min.s16") H3("max.u16")
    { asm volatile("abs.s16 %0, %1;" : "=h"(h) : "h"(ha)); o[k++] = h; }
    if (hb != 0 && !(ha == 0x8000 && hb == 0xffff)) { H3("div.s16") } else o[k++] = SKIPPED;
    if (hb != 0) { H3("rem.u16") } else o[k++] = SKIPPED;
    { asm volatile("mul.wide.u16 %0, %1, %2;" : "=r"(r) : "h"(ha), "h"(hb)); o[k++] = r; }
    { asm volatile("mul.wide.s16 %0, %1, %2;" : "=r"(r) : "h"(ha), "h"(hb)); o[k++] = r; }
}
#undef K

// ---- 64-bit -----------------------------------------------------------------------------------
//! kernel int64_arith in=u64,u64,u64 random=256
//! out u64 add.u64 add.s64 sub.s64 mul.lo.u64 mul.lo.s64 mul.hi.u64 mul.hi.s64
//! out u64 mad.lo.s64 mad.hi.u64 mad.hi.s64
//! out u64 div.u64 div.s64 rem.u64 rem.s64
//! out u64 min.u64 min.s64 max.u64 max.s64 abs.s64 neg.s64 sad.u64 sad.s64
//! out u64 add.cc.u64+addc.u64:lo add.cc.u64+addc.u64:hi sub.cc.u64+subc.u64:lo sub.cc.u64+subc.u64:hi
//! out u64 add.s64(C++) mul.lo.s64(C++) div.u64(C++,b!=0)
#define K 29
extern "C" __global__ void int64_arith(const u64* in, u64* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const u64 a = in[3 * i], b = in[3 * i + 1], c = in[3 * i + 2];
    u64* o = out + (u64)i * K;
    int k = 0;
    u64 r;
#define L3(insn) { asm volatile(insn " %0, %1, %2;" : "=l"(r) : "l"(a), "l"(b)); o[k++] = r; }
#define L4(insn) { asm volatile(insn " %0, %1, %2, %3;" : "=l"(r) : "l"(a), "l"(b), "l"(c)); o[k++] = r; }
    L3("add.u64") L3("add.s64") L3("sub.s64") L3("mul.lo.u64") L3("mul.lo.s64") L3("mul.hi.u64") L3("mul.hi.s64")
    L4("mad.lo.s64") L4("mad.hi.u64") L4("mad.hi.s64")
    const bool overflow = a == 0x8000000000000000ull && b == ~0ull;
    if (b != 0) { L3("div.u64") } else o[k++] = SKIPPED;
    if (b != 0 && !overflow) { L3("div.s64") } else o[k++] = SKIPPED;
    if (b != 0) { L3("rem.u64") } else o[k++] = SKIPPED;
    if (b != 0 && !overflow) { L3("rem.s64") } else o[k++] = SKIPPED;
    L3("min.u64") L3("min.s64") L3("max.u64") L3("max.s64")
    { asm volatile("abs.s64 %0, %1;" : "=l"(r) : "l"(a)); o[k++] = r; }
    { asm volatile("neg.s64 %0, %1;" : "=l"(r) : "l"(a)); o[k++] = r; }
    L4("sad.u64") L4("sad.s64")
    {   // 128-bit add (b:a) + (c:b)
        u64 lo, hi;
        asm volatile("add.cc.u64 %0, %2, %3;\n\taddc.u64 %1, %3, %4;" : "=l"(lo), "=l"(hi) : "l"(a), "l"(b), "l"(c));
        o[k++] = lo; o[k++] = hi;
    }
    {   // 128-bit subtract (b:a) - (a:c)
        u64 lo, hi;
        asm volatile("sub.cc.u64 %0, %2, %4;\n\tsubc.u64 %1, %3, %2;" : "=l"(lo), "=l"(hi) : "l"(a), "l"(b), "l"(c));
        o[k++] = lo; o[k++] = hi;
    }
    // The same through C++ operators (what NVRTC emits for ordinary code).
    o[k++] = (u64)((s64)a + (s64)b);
    o[k++] = a * b;
    o[k++] = b != 0 ? a / b : SKIPPED;
}
