// Bit operations: and/or/xor/not/cnot, shl/shr (logical and arithmetic, shift counts >= the width:
// the ISA clamps them to the width), bfe/bfi (position and length taken & 0xff, fields that run
// past the msb), brev, popc, clz, bfind (.shiftamt, signed), prmt (every mode), lop3 (several
// truth tables), shf.l/shf.r (.wrap and .clamp), and 64-bit pack/unpack (mov.b64); bmsk and szext
// are in extended.cu.
//
// Inputs: a, b are values (edge patterns then random), c and d are shift counts / bit positions /
// lengths / selectors from the `shift` kind: 0..70 mostly, then 0..255, then full 32-bit values
// (so the & 0xff and clamp rules are reached). See int_arith.cu for the kernel ABI.

typedef unsigned short u16;
typedef unsigned int u32;
typedef int s32;
typedef unsigned long long u64;
typedef long long s64;

// ---- 32-bit -----------------------------------------------------------------------------------
//! kernel bits32 in=u32,u32,shift,shift random=256
//! out u32 and.b32 or.b32 xor.b32 not.b32 cnot.b32
//! out u32 shl.b32 shr.b32 shr.u32 shr.s32 shl.b16 shr.s16 shr.u16
//! out u32 bfe.u32 bfe.s32 bfi.b32
//! out u32 brev.b32 popc.b32 clz.b32 bfind.u32 bfind.s32 bfind.shiftamt.u32 bfind.shiftamt.s32
//! out u32 prmt.b32 prmt.b32.f4e prmt.b32.b4e prmt.b32.rc8 prmt.b32.ecl prmt.b32.ecr prmt.b32.rc16
//! out u32 lop3.b32:0x96 lop3.b32:0xe8 lop3.b32:0xca lop3.b32:0x01 lop3.b32:0xfe lop3.b32:0x78 lop3.b32:0x1e
//! out u32 shf.l.wrap.b32 shf.l.clamp.b32 shf.r.wrap.b32 shf.r.clamp.b32
//! out u32 shl(C++,c&31) shr.s32(C++,c&31) funnelshift_l(C++)
#define K 43
extern "C" __global__ void bits32(const u64* in, u64* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const u32 a = (u32)in[4 * i], b = (u32)in[4 * i + 1], c = (u32)in[4 * i + 2], d = (u32)in[4 * i + 3];
    u64* o = out + (u64)i * K;
    int k = 0;
    u32 r;
#define B2(insn) { asm volatile(insn " %0, %1;" : "=r"(r) : "r"(a)); o[k++] = r; }
#define B3(insn) { asm volatile(insn " %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); o[k++] = r; }
#define S3(insn) { asm volatile(insn " %0, %1, %2;" : "=r"(r) : "r"(a), "r"(c)); o[k++] = r; }
    B3("and.b32") B3("or.b32") B3("xor.b32") B2("not.b32") B2("cnot.b32")
    S3("shl.b32") S3("shr.b32") S3("shr.u32") S3("shr.s32")
    {   // 16-bit shifts: the low half of a, a 32-bit count
        u16 h, ha = (u16)a;
        asm volatile("shl.b16 %0, %1, %2;" : "=h"(h) : "h"(ha), "r"(c)); o[k++] = h;
        asm volatile("shr.s16 %0, %1, %2;" : "=h"(h) : "h"(ha), "r"(c)); o[k++] = h;
        asm volatile("shr.u16 %0, %1, %2;" : "=h"(h) : "h"(ha), "r"(c)); o[k++] = h;
    }
    // bfe a, pos = c, len = d; bfi inserts a into b at pos = c, len = d
    { asm volatile("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(c), "r"(d)); o[k++] = r; }
    { asm volatile("bfe.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(c), "r"(d)); o[k++] = r; }
    { asm volatile("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(a), "r"(b), "r"(c), "r"(d)); o[k++] = r; }
    B2("brev.b32") B2("popc.b32") B2("clz.b32") B2("bfind.u32") B2("bfind.s32")
    B2("bfind.shiftamt.u32") B2("bfind.shiftamt.s32")
    // prmt a, b, selector c (only the modes' bits of c matter)
#define P4(insn) { asm volatile(insn " %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); o[k++] = r; }
    P4("prmt.b32") P4("prmt.b32.f4e") P4("prmt.b32.b4e") P4("prmt.b32.rc8") P4("prmt.b32.ecl")
    P4("prmt.b32.ecr") P4("prmt.b32.rc16")
    // lop3 a, b, d with immediate truth tables
#define LOP(lut) { asm volatile("lop3.b32 %0, %1, %2, %3, " lut ";" : "=r"(r) : "r"(a), "r"(b), "r"(d)); o[k++] = r; }
    LOP("0x96") LOP("0xe8") LOP("0xca") LOP("0x01") LOP("0xfe") LOP("0x78") LOP("0x1e")
    // shf: the 64-bit (b:a) shifted by c, the window's high (l) or low (r) word
#define F4(insn) { asm volatile(insn " %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); o[k++] = r; }
    F4("shf.l.wrap.b32") F4("shf.l.clamp.b32") F4("shf.r.wrap.b32") F4("shf.r.clamp.b32")
    // What NVRTC emits for C++ shifts (the count masked, as C++ requires < 32) and the funnel
    // shift intrinsic.
    o[k++] = a << (c & 31);
    o[k++] = (u32)((s32)a >> (c & 31));
    o[k++] = __funnelshift_l(a, b, c);
}
#undef K

// ---- 64-bit -----------------------------------------------------------------------------------
//! kernel bits64 in=u64,u64,shift,shift random=256
//! out u64 and.b64 or.b64 xor.b64 not.b64 cnot.b64
//! out u64 shl.b64 shr.b64 shr.u64 shr.s64
//! out u64 bfe.u64 bfe.s64 bfi.b64
//! out u64 brev.b64
//! out u32 popc.b64 clz.b64 bfind.u64 bfind.s64 bfind.shiftamt.u64 bfind.shiftamt.s64
//! out u32 mov.b64-unpack:lo mov.b64-unpack:hi
//! out u64 mov.b64-pack
//! out u64 shl(C++,c&63) shr.s64(C++,c&63)
#define K 24
extern "C" __global__ void bits64(const u64* in, u64* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const u64 a = in[4 * i], b = in[4 * i + 1];
    const u32 c = (u32)in[4 * i + 2], d = (u32)in[4 * i + 3];
    u64* o = out + (u64)i * K;
    int k = 0;
    u64 r;
    u32 q;
#define Q2(insn) { asm volatile(insn " %0, %1;" : "=l"(r) : "l"(a)); o[k++] = r; }
#define Q3(insn) { asm volatile(insn " %0, %1, %2;" : "=l"(r) : "l"(a), "l"(b)); o[k++] = r; }
#define QS(insn) { asm volatile(insn " %0, %1, %2;" : "=l"(r) : "l"(a), "r"(c)); o[k++] = r; }
#define Q32(insn) { asm volatile(insn " %0, %1;" : "=r"(q) : "l"(a)); o[k++] = q; }
    Q3("and.b64") Q3("or.b64") Q3("xor.b64") Q2("not.b64") Q2("cnot.b64")
    QS("shl.b64") QS("shr.b64") QS("shr.u64") QS("shr.s64")
    { asm volatile("bfe.u64 %0, %1, %2, %3;" : "=l"(r) : "l"(a), "r"(c), "r"(d)); o[k++] = r; }
    { asm volatile("bfe.s64 %0, %1, %2, %3;" : "=l"(r) : "l"(a), "r"(c), "r"(d)); o[k++] = r; }
    { asm volatile("bfi.b64 %0, %1, %2, %3, %4;" : "=l"(r) : "l"(a), "l"(b), "r"(c), "r"(d)); o[k++] = r; }
    Q2("brev.b64")
    Q32("popc.b64") Q32("clz.b64") Q32("bfind.u64") Q32("bfind.s64") Q32("bfind.shiftamt.u64") Q32("bfind.shiftamt.s64")
    {
        u32 lo, hi;
        asm volatile("mov.b64 {%0, %1}, %2;" : "=r"(lo), "=r"(hi) : "l"(a)); o[k++] = lo; o[k++] = hi;
        asm volatile("mov.b64 %0, {%1, %2};" : "=l"(r) : "r"((u32)b), "r"((u32)a)); o[k++] = r;
    }
    o[k++] = a << (c & 63);
    o[k++] = (u64)((s64)a >> (c & 63));
}
