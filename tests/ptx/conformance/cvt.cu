// Conversions (cvt): every integer <-> integer pair of widths and signs, with .sat where the ISA
// allows it; float -> float with rounding (f64 -> f32, f32 -> f16/bf16 and back; tf32, fp8,
// .relu and .satfinite are in extended.cu);
// float -> integer with .rni .rzi .rmi .rpi (NaN, +-inf and out-of-range values); integer ->
// float with .rn .rz .rm .rp; rounding to an integral float (cvt.rni.f32.f32 ...); and what NVRTC
// emits for C++ casts and the conversion intrinsics.
//
// What is pinned (PTX ISA, cvt):
// - integer -> integer: the low bits of the source are used (a wider source register is allowed),
//   the result is sign-extended (signed destination) or zero-extended to the destination
//   register, which here is 32 bits for 8/16-bit types (so the extension rule is pinned too);
//   .sat clamps to the destination's range, legal only where that range is not a superset;
// - float -> integer: "NaN inputs are converted to 0", and the result "is clamped to the
//   destination range by default" (so +-inf and out-of-range values saturate);
// - float -> float and integer -> float: IEEE rounding as the modifier says, .ftz flushes f32
//   subnormals; .sat clamps to [0, 1] (NaN -> +0);
// - NaN results of float conversions: the ISA does not define the payload (cvt.f32.bf16 says
//   "unspecified NaN"), so those columns use rule `nan` (any NaN of the result type).
//
// See int_arith.cu for the kernel ABI.

typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef long long s64;

// ---- integer <-> integer ------------------------------------------------------------------------
//! kernel cvt_int in=u64 random=256
//! out u64 cvt.s8.u8 cvt.u16.u8 cvt.s16.u8 cvt.u32.u8 cvt.s32.u8 cvt.u64.u8 cvt.s64.u8 cvt.u8.s8
//! out u64 cvt.u16.s8 cvt.s16.s8 cvt.u32.s8 cvt.s32.s8 cvt.u64.s8 cvt.s64.s8 cvt.u8.u16 cvt.s8.u16
//! out u64 cvt.s16.u16 cvt.u32.u16 cvt.s32.u16 cvt.u64.u16 cvt.s64.u16 cvt.u8.s16 cvt.s8.s16 cvt.u16.s16
//! out u64 cvt.u32.s16 cvt.s32.s16 cvt.u64.s16 cvt.s64.s16 cvt.u8.u32 cvt.s8.u32 cvt.u16.u32 cvt.s16.u32
//! out u64 cvt.s32.u32 cvt.u64.u32 cvt.s64.u32 cvt.u8.s32 cvt.s8.s32 cvt.u16.s32 cvt.s16.s32 cvt.u32.s32
//! out u64 cvt.u64.s32 cvt.s64.s32 cvt.u8.u64 cvt.s8.u64 cvt.u16.u64 cvt.s16.u64 cvt.u32.u64 cvt.s32.u64
//! out u64 cvt.s64.u64 cvt.u8.s64 cvt.s8.s64 cvt.u16.s64 cvt.s16.s64 cvt.u32.s64 cvt.s32.s64 cvt.u64.s64
//! out u64 cvt.sat.s8.u8 cvt.sat.u8.s8 cvt.sat.u16.s8 cvt.sat.u32.s8 cvt.sat.u64.s8 cvt.sat.u8.u16 cvt.sat.s8.u16 cvt.sat.s16.u16
//! out u64 cvt.sat.u8.s16 cvt.sat.s8.s16 cvt.sat.u16.s16 cvt.sat.u32.s16 cvt.sat.u64.s16 cvt.sat.u8.u32 cvt.sat.s8.u32 cvt.sat.u16.u32
//! out u64 cvt.sat.s16.u32 cvt.sat.s32.u32 cvt.sat.u8.s32 cvt.sat.s8.s32 cvt.sat.u16.s32 cvt.sat.s16.s32 cvt.sat.u32.s32 cvt.sat.u64.s32
//! out u64 cvt.sat.u8.u64 cvt.sat.s8.u64 cvt.sat.u16.u64 cvt.sat.s16.u64 cvt.sat.u32.u64 cvt.sat.s32.u64 cvt.sat.s64.u64 cvt.sat.u8.s64
//! out u64 cvt.sat.s8.s64 cvt.sat.u16.s64 cvt.sat.s16.s64 cvt.sat.u32.s64 cvt.sat.s32.s64 cvt.sat.u64.s64
//! out u64 cvt.u16.u32(h) cvt.s16.s32(h) cvt.s32.s16(h) cvt.sat.s8.s16(h) cvt.u64.u16(h) cvt.s64.s16(h)
//! out u64 C++:(int)(short)a C++:(uchar)a C++:(s64)(int)a C++:(u32)(schar)a
#define K 104
// Long because each conversion is one row of one table, compared with the GPU bit for bit.
extern "C" __global__ void cvt_int(const u64* in, u64* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const u64 a64 = in[i];
    const u32 a32 = (u32)a64;
    u64* o = out + (u64)i * K;
    int k = 0;
    u32 r;
    u64 w;
    // CVT(instruction, destination constraint, destination, source constraint, source)
#define CVT(insn, DC, dst, SC, src) { asm volatile(insn " %0, %1;" : DC(dst) : SC(src)); o[k++] = dst; }
    CVT("cvt.s8.u8", "=r", r, "r", a32)
    CVT("cvt.u16.u8", "=r", r, "r", a32)
    CVT("cvt.s16.u8", "=r", r, "r", a32)
    CVT("cvt.u32.u8", "=r", r, "r", a32)
    CVT("cvt.s32.u8", "=r", r, "r", a32)
    CVT("cvt.u64.u8", "=l", w, "r", a32)
    CVT("cvt.s64.u8", "=l", w, "r", a32)
    CVT("cvt.u8.s8", "=r", r, "r", a32)
    CVT("cvt.u16.s8", "=r", r, "r", a32)
    CVT("cvt.s16.s8", "=r", r, "r", a32)
    CVT("cvt.u32.s8", "=r", r, "r", a32)
    CVT("cvt.s32.s8", "=r", r, "r", a32)
    CVT("cvt.u64.s8", "=l", w, "r", a32)
    CVT("cvt.s64.s8", "=l", w, "r", a32)
    CVT("cvt.u8.u16", "=r", r, "r", a32)
    CVT("cvt.s8.u16", "=r", r, "r", a32)
    CVT("cvt.s16.u16", "=r", r, "r", a32)
    CVT("cvt.u32.u16", "=r", r, "r", a32)
    CVT("cvt.s32.u16", "=r", r, "r", a32)
    CVT("cvt.u64.u16", "=l", w, "r", a32)
    CVT("cvt.s64.u16", "=l", w, "r", a32)
    CVT("cvt.u8.s16", "=r", r, "r", a32)
    CVT("cvt.s8.s16", "=r", r, "r", a32)
    CVT("cvt.u16.s16", "=r", r, "r", a32)
    CVT("cvt.u32.s16", "=r", r, "r", a32)
    CVT("cvt.s32.s16", "=r", r, "r", a32)
    CVT("cvt.u64.s16", "=l", w, "r", a32)
    CVT("cvt.s64.s16", "=l", w, "r", a32)
    CVT("cvt.u8.u32", "=r", r, "r", a32)
    CVT("cvt.s8.u32", "=r", r, "r", a32)
    CVT("cvt.u16.u32", "=r", r, "r", a32)
    CVT("cvt.s16.u32", "=r", r, "r", a32)
    CVT("cvt.s32.u32", "=r", r, "r", a32)
    CVT("cvt.u64.u32", "=l", w, "r", a32)
    CVT("cvt.s64.u32", "=l", w, "r", a32)
    CVT("cvt.u8.s32", "=r", r, "r", a32)
    CVT("cvt.s8.s32", "=r", r, "r", a32)
    CVT("cvt.u16.s32", "=r", r, "r", a32)
    CVT("cvt.s16.s32", "=r", r, "r", a32)
    CVT("cvt.u32.s32", "=r", r, "r", a32)
    CVT("cvt.u64.s32", "=l", w, "r", a32)
    CVT("cvt.s64.s32", "=l", w, "r", a32)
    CVT("cvt.u8.u64", "=r", r, "l", a64)
    CVT("cvt.s8.u64", "=r", r, "l", a64)
    CVT("cvt.u16.u64", "=r", r, "l", a64)
    CVT("cvt.s16.u64", "=r", r, "l", a64)
    CVT("cvt.u32.u64", "=r", r, "l", a64)
    CVT("cvt.s32.u64", "=r", r, "l", a64)
    CVT("cvt.s64.u64", "=l", w, "l", a64)
    CVT("cvt.u8.s64", "=r", r, "l", a64)
    CVT("cvt.s8.s64", "=r", r, "l", a64)
    CVT("cvt.u16.s64", "=r", r, "l", a64)
    CVT("cvt.s16.s64", "=r", r, "l", a64)
    CVT("cvt.u32.s64", "=r", r, "l", a64)
    CVT("cvt.s32.s64", "=r", r, "l", a64)
    CVT("cvt.u64.s64", "=l", w, "l", a64)
    CVT("cvt.sat.s8.u8", "=r", r, "r", a32)
    CVT("cvt.sat.u8.s8", "=r", r, "r", a32)
    CVT("cvt.sat.u16.s8", "=r", r, "r", a32)
    CVT("cvt.sat.u32.s8", "=r", r, "r", a32)
    CVT("cvt.sat.u64.s8", "=l", w, "r", a32)
    CVT("cvt.sat.u8.u16", "=r", r, "r", a32)
    CVT("cvt.sat.s8.u16", "=r", r, "r", a32)
    CVT("cvt.sat.s16.u16", "=r", r, "r", a32)
    CVT("cvt.sat.u8.s16", "=r", r, "r", a32)
    CVT("cvt.sat.s8.s16", "=r", r, "r", a32)
    CVT("cvt.sat.u16.s16", "=r", r, "r", a32)
    CVT("cvt.sat.u32.s16", "=r", r, "r", a32)
    CVT("cvt.sat.u64.s16", "=l", w, "r", a32)
    CVT("cvt.sat.u8.u32", "=r", r, "r", a32)
    CVT("cvt.sat.s8.u32", "=r", r, "r", a32)
    CVT("cvt.sat.u16.u32", "=r", r, "r", a32)
    CVT("cvt.sat.s16.u32", "=r", r, "r", a32)
    CVT("cvt.sat.s32.u32", "=r", r, "r", a32)
    CVT("cvt.sat.u8.s32", "=r", r, "r", a32)
    CVT("cvt.sat.s8.s32", "=r", r, "r", a32)
    CVT("cvt.sat.u16.s32", "=r", r, "r", a32)
    CVT("cvt.sat.s16.s32", "=r", r, "r", a32)
    CVT("cvt.sat.u32.s32", "=r", r, "r", a32)
    CVT("cvt.sat.u64.s32", "=l", w, "r", a32)
    CVT("cvt.sat.u8.u64", "=r", r, "l", a64)
    CVT("cvt.sat.s8.u64", "=r", r, "l", a64)
    CVT("cvt.sat.u16.u64", "=r", r, "l", a64)
    CVT("cvt.sat.s16.u64", "=r", r, "l", a64)
    CVT("cvt.sat.u32.u64", "=r", r, "l", a64)
    CVT("cvt.sat.s32.u64", "=r", r, "l", a64)
    CVT("cvt.sat.s64.u64", "=l", w, "l", a64)
    CVT("cvt.sat.u8.s64", "=r", r, "l", a64)
    CVT("cvt.sat.s8.s64", "=r", r, "l", a64)
    CVT("cvt.sat.u16.s64", "=r", r, "l", a64)
    CVT("cvt.sat.s16.s64", "=r", r, "l", a64)
    CVT("cvt.sat.u32.s64", "=r", r, "l", a64)
    CVT("cvt.sat.s32.s64", "=r", r, "l", a64)
    CVT("cvt.sat.u64.s64", "=l", w, "l", a64)
    // 16-bit registers (the natural form NVRTC emits for short/unsigned short)
    const u16 h16 = (u16)a32;
    u16 h;
    { asm volatile("cvt.u16.u32 %0, %1;" : "=h"(h) : "r"(a32)); o[k++] = h; }
    { asm volatile("cvt.s16.s32 %0, %1;" : "=h"(h) : "r"(a32)); o[k++] = h; }
    { asm volatile("cvt.s32.s16 %0, %1;" : "=r"(r) : "h"(h16)); o[k++] = r; }
    { asm volatile("cvt.sat.s8.s16 %0, %1;" : "=h"(h) : "h"(h16)); o[k++] = h; }
    { asm volatile("cvt.u64.u16 %0, %1;" : "=l"(w) : "h"(h16)); o[k++] = w; }
    { asm volatile("cvt.s64.s16 %0, %1;" : "=l"(w) : "h"(h16)); o[k++] = w; }
    o[k++] = (u32)(int)(short)a32;
    o[k++] = (unsigned char)a32;
    o[k++] = (u64)(long long)(int)a32;
    o[k++] = (u32)(signed char)a32;
}
#undef K

// ---- from f32 -----------------------------------------------------------------------------------
//! kernel cvt_f32 in=f32,f32 random=128
//! out f64:nan cvt.f64.f32
//! out u32 cvt.rni.s32.f32 cvt.rzi.s32.f32 cvt.rmi.s32.f32 cvt.rpi.s32.f32 cvt.rni.u32.f32 cvt.rzi.u32.f32 cvt.rmi.u32.f32 cvt.rpi.u32.f32
//! out u64 cvt.rni.s64.f32 cvt.rzi.s64.f32 cvt.rmi.s64.f32 cvt.rpi.s64.f32 cvt.rni.u64.f32 cvt.rzi.u64.f32 cvt.rmi.u64.f32 cvt.rpi.u64.f32
//! out u32 cvt.rzi.s16.f32 cvt.rni.u8.f32 cvt.rzi.ftz.s32.f32 cvt.rzi.sat.s32.f32
//! out f32:nan cvt.rni.f32.f32 cvt.rzi.f32.f32 cvt.rmi.f32.f32 cvt.rpi.f32.f32 cvt.rni.ftz.f32.f32 cvt.sat.f32.f32 cvt.ftz.sat.f32.f32
//! out f16:nan cvt.rn.f16.f32 cvt.rz.f16.f32 cvt.rm.f16.f32 cvt.rp.f16.f32
//! out f32:nan cvt.f32.f16(cvt.rn.f16.f32)
//! out bf16:nan cvt.rn.bf16.f32 cvt.rz.bf16.f32
//! out f32:nan cvt.f32.bf16(cvt.rn.bf16.f32)
//! out f16x2:nan cvt.rn.f16x2.f32
//! out bf16x2:nan cvt.rn.bf16x2.f32
//! out u32 C++:(int)a C++:(unsigned)a C++:__float2int_rn C++:__float2uint_ru C++:__float2ll_rd C++:lrintf
//! out f32:nan C++:truncf C++:floorf C++:ceilf C++:rintf C++:roundf
#define K 49
extern "C" __global__ void cvt_f32(const u64* in, u64* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float a = __uint_as_float((u32)in[2 * i]), b = __uint_as_float((u32)in[2 * i + 1]);
    u64* o = out + (u64)i * K;
    int k = 0;
    u32 r;
    u64 w;
    float f;
    u16 h;
    { double d; asm volatile("cvt.f64.f32 %0, %1;" : "=d"(d) : "f"(a)); o[k++] = __double_as_longlong(d); }
#define TOI(insn) { asm volatile(insn " %0, %1;" : "=r"(r) : "f"(a)); o[k++] = r; }
#define TOL(insn) { asm volatile(insn " %0, %1;" : "=l"(w) : "f"(a)); o[k++] = w; }
#define TOF(insn) { asm volatile(insn " %0, %1;" : "=f"(f) : "f"(a)); o[k++] = __float_as_uint(f); }
#define TOH(insn) { asm volatile(insn " %0, %1;" : "=h"(h) : "f"(a)); o[k++] = h; }
#define TO2(insn) { asm volatile(insn " %0, %1, %2;" : "=r"(r) : "f"(a), "f"(b)); o[k++] = r; }
    TOI("cvt.rni.s32.f32") TOI("cvt.rzi.s32.f32") TOI("cvt.rmi.s32.f32") TOI("cvt.rpi.s32.f32")
    TOI("cvt.rni.u32.f32") TOI("cvt.rzi.u32.f32") TOI("cvt.rmi.u32.f32") TOI("cvt.rpi.u32.f32")
    TOL("cvt.rni.s64.f32") TOL("cvt.rzi.s64.f32") TOL("cvt.rmi.s64.f32") TOL("cvt.rpi.s64.f32")
    TOL("cvt.rni.u64.f32") TOL("cvt.rzi.u64.f32") TOL("cvt.rmi.u64.f32") TOL("cvt.rpi.u64.f32")
    TOI("cvt.rzi.s16.f32") TOI("cvt.rni.u8.f32") TOI("cvt.rzi.ftz.s32.f32") TOI("cvt.rzi.sat.s32.f32")
    TOF("cvt.rni.f32.f32") TOF("cvt.rzi.f32.f32") TOF("cvt.rmi.f32.f32") TOF("cvt.rpi.f32.f32")
    TOF("cvt.rni.ftz.f32.f32") TOF("cvt.sat.f32.f32") TOF("cvt.ftz.sat.f32.f32")
    TOH("cvt.rn.f16.f32") TOH("cvt.rz.f16.f32") TOH("cvt.rm.f16.f32") TOH("cvt.rp.f16.f32")
    {   // and back: f16 -> f32 is exact
        u16 hh; asm volatile("cvt.rn.f16.f32 %0, %1;" : "=h"(hh) : "f"(a));
        asm volatile("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(hh)); o[k++] = __float_as_uint(f);
    }
    TOH("cvt.rn.bf16.f32") TOH("cvt.rz.bf16.f32")
    {
        u16 hh; asm volatile("cvt.rn.bf16.f32 %0, %1;" : "=h"(hh) : "f"(a));
        asm volatile("cvt.f32.bf16 %0, %1;" : "=f"(f) : "h"(hh)); o[k++] = __float_as_uint(f);
    }
    // packed pairs: d = {cvt(a) in the upper half, cvt(b) in the lower}
    TO2("cvt.rn.f16x2.f32") TO2("cvt.rn.bf16x2.f32")
    // What NVRTC emits for C++ casts and the conversion intrinsics.
    o[k++] = (u32)(int)a;              // UB out of range in C++; the PTX (cvt.rzi) clamps
    o[k++] = (u32)a;
    o[k++] = (u32)__float2int_rn(a);
    o[k++] = __float2uint_ru(a);
    o[k++] = (u32)__float2ll_rd(a);
    o[k++] = (u32)lrintf(a);
    o[k++] = __float_as_uint(truncf(a));
    o[k++] = __float_as_uint(floorf(a));
    o[k++] = __float_as_uint(ceilf(a));
    o[k++] = __float_as_uint(rintf(a));
    o[k++] = __float_as_uint(roundf(a));
}
#undef K

// ---- from f64 -----------------------------------------------------------------------------------
//! kernel cvt_f64 in=f64 random=512
//! out f32:nan cvt.rn.f32.f64 cvt.rz.f32.f64 cvt.rm.f32.f64 cvt.rp.f32.f64 cvt.rn.ftz.f32.f64 cvt.rn.sat.f32.f64
//! out u32 cvt.rni.s32.f64 cvt.rzi.s32.f64 cvt.rmi.s32.f64 cvt.rpi.s32.f64 cvt.rni.u32.f64 cvt.rzi.u32.f64 cvt.rmi.u32.f64 cvt.rpi.u32.f64
//! out u64 cvt.rni.s64.f64 cvt.rzi.s64.f64 cvt.rmi.s64.f64 cvt.rpi.s64.f64 cvt.rni.u64.f64 cvt.rzi.u64.f64 cvt.rmi.u64.f64 cvt.rpi.u64.f64
//! out f64:nan cvt.rni.f64.f64 cvt.rzi.f64.f64 cvt.rmi.f64.f64 cvt.rpi.f64.f64 cvt.sat.f64.f64
//! out f16:nan cvt.rn.f16.f64
//! out bf16:nan cvt.rn.bf16.f64
//! out u32 C++:(int)a C++:__double2uint_rn
//! out f32:nan C++:(float)a C++:__double2float_rz
//! out f64:nan C++:floor(a) C++:round(a)
#define K 35
extern "C" __global__ void cvt_f64(const u64* in, u64* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const double a = __longlong_as_double((s64)in[i]);
    u64* o = out + (u64)i * K;
    int k = 0;
    u32 r;
    u64 w;
    float f;
    double d;
    u16 h;
#define DF(insn) { asm volatile(insn " %0, %1;" : "=f"(f) : "d"(a)); o[k++] = __float_as_uint(f); }
#define DI(insn) { asm volatile(insn " %0, %1;" : "=r"(r) : "d"(a)); o[k++] = r; }
#define DL(insn) { asm volatile(insn " %0, %1;" : "=l"(w) : "d"(a)); o[k++] = w; }
#define DD(insn) { asm volatile(insn " %0, %1;" : "=d"(d) : "d"(a)); o[k++] = __double_as_longlong(d); }
    DF("cvt.rn.f32.f64") DF("cvt.rz.f32.f64") DF("cvt.rm.f32.f64") DF("cvt.rp.f32.f64")
    DF("cvt.rn.ftz.f32.f64") DF("cvt.rn.sat.f32.f64")
    DI("cvt.rni.s32.f64") DI("cvt.rzi.s32.f64") DI("cvt.rmi.s32.f64") DI("cvt.rpi.s32.f64")
    DI("cvt.rni.u32.f64") DI("cvt.rzi.u32.f64") DI("cvt.rmi.u32.f64") DI("cvt.rpi.u32.f64")
    DL("cvt.rni.s64.f64") DL("cvt.rzi.s64.f64") DL("cvt.rmi.s64.f64") DL("cvt.rpi.s64.f64")
    DL("cvt.rni.u64.f64") DL("cvt.rzi.u64.f64") DL("cvt.rmi.u64.f64") DL("cvt.rpi.u64.f64")
    DD("cvt.rni.f64.f64") DD("cvt.rzi.f64.f64") DD("cvt.rmi.f64.f64") DD("cvt.rpi.f64.f64") DD("cvt.sat.f64.f64")
    { asm volatile("cvt.rn.f16.f64 %0, %1;" : "=h"(h) : "d"(a)); o[k++] = h; }
    { asm volatile("cvt.rn.bf16.f64 %0, %1;" : "=h"(h) : "d"(a)); o[k++] = h; }
    o[k++] = (u32)(int)a;
    o[k++] = __double2uint_rn(a);
    o[k++] = __float_as_uint((float)a);
    o[k++] = __float_as_uint(__double2float_rz(a));
    o[k++] = __double_as_longlong(floor(a));
    o[k++] = __double_as_longlong(round(a));
}
#undef K

// ---- from integers ------------------------------------------------------------------------------
//! kernel cvt_i2f in=u64 random=512
//! out f32 cvt.rn.f32.s32 cvt.rz.f32.s32 cvt.rm.f32.s32 cvt.rp.f32.s32 cvt.rn.f32.u32 cvt.rz.f32.u32 cvt.rm.f32.u32 cvt.rp.f32.u32
//! out f32 cvt.rn.f32.s64 cvt.rz.f32.s64 cvt.rm.f32.s64 cvt.rp.f32.s64 cvt.rn.f32.u64 cvt.rz.f32.u64 cvt.rm.f32.u64 cvt.rp.f32.u64
//! out f64 cvt.rn.f64.s64 cvt.rz.f64.s64 cvt.rm.f64.s64 cvt.rp.f64.s64 cvt.rn.f64.u64 cvt.rz.f64.u64 cvt.rm.f64.u64 cvt.rp.f64.u64
//! out f64 cvt.rn.f64.s32 cvt.rn.f64.u32
//! out f32 cvt.rn.f32.s16 cvt.rn.f32.u8
//! out f16 cvt.rn.f16.s32 cvt.rz.f16.u32 cvt.rn.f16.s64
//! out bf16 cvt.rn.bf16.s32
//! out f32 C++:(float)(int)a C++:(float)a(u64) C++:__int2float_rz C++:__ll2float_ru
//! out f64 C++:(double)(s64)a C++:__ull2double_rd
#define K 38
extern "C" __global__ void cvt_i2f(const u64* in, u64* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const u64 a64 = in[i];
    const u32 a32 = (u32)a64;
    u64* o = out + (u64)i * K;
    int k = 0;
    float f;
    double d;
    u16 h;
#define IF32(insn) { asm volatile(insn " %0, %1;" : "=f"(f) : "r"(a32)); o[k++] = __float_as_uint(f); }
#define IF64(insn) { asm volatile(insn " %0, %1;" : "=f"(f) : "l"(a64)); o[k++] = __float_as_uint(f); }
#define ID64(insn) { asm volatile(insn " %0, %1;" : "=d"(d) : "l"(a64)); o[k++] = __double_as_longlong(d); }
#define ID32(insn) { asm volatile(insn " %0, %1;" : "=d"(d) : "r"(a32)); o[k++] = __double_as_longlong(d); }
    IF32("cvt.rn.f32.s32") IF32("cvt.rz.f32.s32") IF32("cvt.rm.f32.s32") IF32("cvt.rp.f32.s32")
    IF32("cvt.rn.f32.u32") IF32("cvt.rz.f32.u32") IF32("cvt.rm.f32.u32") IF32("cvt.rp.f32.u32")
    IF64("cvt.rn.f32.s64") IF64("cvt.rz.f32.s64") IF64("cvt.rm.f32.s64") IF64("cvt.rp.f32.s64")
    IF64("cvt.rn.f32.u64") IF64("cvt.rz.f32.u64") IF64("cvt.rm.f32.u64") IF64("cvt.rp.f32.u64")
    ID64("cvt.rn.f64.s64") ID64("cvt.rz.f64.s64") ID64("cvt.rm.f64.s64") ID64("cvt.rp.f64.s64")
    ID64("cvt.rn.f64.u64") ID64("cvt.rz.f64.u64") ID64("cvt.rm.f64.u64") ID64("cvt.rp.f64.u64")
    ID32("cvt.rn.f64.s32") ID32("cvt.rn.f64.u32")
    { asm volatile("cvt.rn.f32.s16 %0, %1;" : "=f"(f) : "h"((u16)a32)); o[k++] = __float_as_uint(f); }
    { asm volatile("cvt.rn.f32.u8 %0, %1;" : "=f"(f) : "r"(a32)); o[k++] = __float_as_uint(f); }
    { asm volatile("cvt.rn.f16.s32 %0, %1;" : "=h"(h) : "r"(a32)); o[k++] = h; }
    { asm volatile("cvt.rz.f16.u32 %0, %1;" : "=h"(h) : "r"(a32)); o[k++] = h; }
    { asm volatile("cvt.rn.f16.s64 %0, %1;" : "=h"(h) : "l"(a64)); o[k++] = h; }
    { asm volatile("cvt.rn.bf16.s32 %0, %1;" : "=h"(h) : "r"(a32)); o[k++] = h; }
    o[k++] = __float_as_uint((float)(int)a32);
    o[k++] = __float_as_uint((float)a64);
    o[k++] = __float_as_uint(__int2float_rz((int)a32));
    o[k++] = __float_as_uint(__ll2float_ru((s64)a64));
    o[k++] = __double_as_longlong((double)(s64)a64);
    o[k++] = __double_as_longlong(__ull2double_rd(a64));
}
