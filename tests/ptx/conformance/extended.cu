// Instructions beyond what the lab's kernels need, kept in their own module so that an engine
// that cannot run one of them yet fails this family only (ptx::load refuses a whole module):
// dp4a/dp2a, bmsk, szext, min/max .xorsign.abs, the conversions with .relu and .satfinite and to
// tf32/e4m3/e5m2, elect.sync, the cluster special registers of a launch without clusters, and
// indirect calls through a table of function pointers (a .global initialised with function
// addresses; call through a register with a .callprototype).
//
// What is pinned: the ISA's definitions, bit for bit (bmsk/szext clamp or wrap the position and
// width; .xorsign.abs: the magnitude of the min/max of |a|, |b| with the sign a ^ b, NaN results
// ignore both; .relu clamps negatives to 0 and turns NaN into the canonical NaN; .satfinite
// clamps to the largest finite value (a NaN stays a NaN: any NaN for f16; the e4m3/e5m2 bytes are
// pinned as the GPU gives them); elect.sync elects the lowest member lane; without
// clusters %cluster_ctarank = 0, %cluster_nctarank = 1, %is_explicit_cluster = 0, %clusterid =
// %ctaid, %nclusterid = %nctaid). See int_arith.cu for the kernel ABI.

typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;

//! kernel ext_int in=u32,u32,shift,shift random=256
//! out u32 dp4a.u32.u32 dp4a.s32.s32 dp4a.s32.u32 dp2a.lo.u32.u32 dp2a.hi.s32.s32
//! out u32 bmsk.clamp.b32 bmsk.wrap.b32 szext.clamp.s32 szext.wrap.s32 szext.clamp.u32 szext.wrap.u32
#define K 11
extern "C" __global__ void ext_int(const u64* in, u64* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const u32 a = (u32)in[4 * i], b = (u32)in[4 * i + 1], c = (u32)in[4 * i + 2], d = (u32)in[4 * i + 3];
    u64* o = out + (u64)i * K;
    int k = 0;
    u32 r;
#define R4(insn) { asm volatile(insn " %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c ^ d)); o[k++] = r; }
    R4("dp4a.u32.u32") R4("dp4a.s32.s32") R4("dp4a.s32.u32") R4("dp2a.lo.u32.u32") R4("dp2a.hi.s32.s32")
    // bmsk pos = c, len = d; szext a at width c
    { asm volatile("bmsk.clamp.b32 %0, %1, %2;" : "=r"(r) : "r"(c), "r"(d)); o[k++] = r; }
    { asm volatile("bmsk.wrap.b32 %0, %1, %2;" : "=r"(r) : "r"(c), "r"(d)); o[k++] = r; }
#define SZ(insn) { asm volatile(insn " %0, %1, %2;" : "=r"(r) : "r"(a), "r"(c)); o[k++] = r; }
    SZ("szext.clamp.s32") SZ("szext.wrap.s32") SZ("szext.clamp.u32") SZ("szext.wrap.u32")
}
#undef K

//! kernel ext_f32 in=f32,f32 random=256
//! out f32 min.xorsign.abs.f32 max.xorsign.abs.f32
//! out f16 cvt.rn.relu.f16.f32
//! out f16:nan cvt.rn.satfinite.f16.f32
//! out f16x2 cvt.rn.relu.f16x2.f32
//! out u32 cvt.rna.tf32.f32 cvt.rn.satfinite.e4m3x2.f32 cvt.rn.satfinite.e5m2x2.f32
//! out f16x2:nan cvt.rn.f16x2.e4m3x2(cvt.rn.satfinite.e4m3x2.f32) cvt.rn.f16x2.e5m2x2(cvt.rn.satfinite.e5m2x2.f32)
#define K 10
extern "C" __global__ void ext_f32(const u64* in, u64* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float a = __uint_as_float((u32)in[2 * i]), b = __uint_as_float((u32)in[2 * i + 1]);
    u64* o = out + (u64)i * K;
    int k = 0;
    float f;
    u32 r;
    u16 h, e4, e5;
    asm volatile("min.xorsign.abs.f32 %0, %1, %2;" : "=f"(f) : "f"(a), "f"(b)); o[k++] = __float_as_uint(f);
    asm volatile("max.xorsign.abs.f32 %0, %1, %2;" : "=f"(f) : "f"(a), "f"(b)); o[k++] = __float_as_uint(f);
    asm volatile("cvt.rn.relu.f16.f32 %0, %1;" : "=h"(h) : "f"(a)); o[k++] = h;
    asm volatile("cvt.rn.satfinite.f16.f32 %0, %1;" : "=h"(h) : "f"(a)); o[k++] = h;
    asm volatile("cvt.rn.relu.f16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(a), "f"(b)); o[k++] = r;
    asm volatile("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(a)); o[k++] = r;
    asm volatile("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;" : "=h"(e4) : "f"(a), "f"(b)); o[k++] = e4;
    asm volatile("cvt.rn.satfinite.e5m2x2.f32 %0, %1, %2;" : "=h"(e5) : "f"(a), "f"(b)); o[k++] = e5;
    asm volatile("cvt.rn.f16x2.e4m3x2 %0, %1;" : "=r"(r) : "h"(e4)); o[k++] = r;
    asm volatile("cvt.rn.f16x2.e5m2x2 %0, %1;" : "=r"(r) : "h"(e5)); o[k++] = r;
}
#undef K

// elect.sync (all lanes, and the odd lanes in a branch) and the cluster registers.
//! kernel ext_warp in=key block=64 grid=2
//! out u32 elect.sync elect.sync:p elect.sync(odd-lanes) elect.sync(odd-lanes):p
//! out u32 %cluster_ctarank %cluster_nctarank %is_explicit_cluster %clusterid.x %nclusterid.x %cluster_ctaid.x %cluster_nctaid.x
#define K 11
extern "C" __global__ void ext_warp(const u64* in, u64* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    u64* o = out + (u64)i * K;
    int k = 0;
    u32 r, p;
    asm volatile("{\n\t.reg .pred q;\n\telect.sync %0|q, 0xffffffff;\n\tselp.u32 %1, 1, 0, q;\n\t}" : "=r"(r), "=r"(p));
    o[k++] = r; o[k++] = p;
    if (threadIdx.x & 1) {
        asm volatile("{\n\t.reg .pred q;\n\telect.sync %0|q, 0xaaaaaaaa;\n\tselp.u32 %1, 1, 0, q;\n\t}" : "=r"(r), "=r"(p));
    } else {
        r = 0xffffffffu;
        p = 2;
    }
    o[k++] = r; o[k++] = p;
#define S(name) asm volatile("mov.u32 %0, %%" name ";" : "=r"(r)); o[k++] = r;
    S("cluster_ctarank") S("cluster_nctarank")
    asm volatile("{\n\t.reg .pred q;\n\tmov.pred q, %%is_explicit_cluster;\n\tselp.u32 %0, 1, 0, q;\n\t}" : "=r"(r)); o[k++] = r;  // a .pred register
    S("clusterid.x") S("nclusterid.x") S("cluster_ctaid.x") S("cluster_nctaid.x")
}
#undef K

// Indirect calls: a table of function addresses in a .global, called through a register.
__device__ __noinline__ u32 op_add(u32 x, u32 y) { return x + y; }
__device__ __noinline__ u32 op_mul(u32 x, u32 y) { return x * y; }
__device__ __noinline__ u32 op_xor(u32 x, u32 y) { return x ^ y; }
__device__ __noinline__ u32 op_rot(u32 x, u32 y) { return __funnelshift_l(x, x, y); }
typedef u32 (*binop)(u32, u32);
__device__ binop ops[4] = {op_add, op_mul, op_xor, op_rot};

//! kernel ext_calls in=u32,u32 random=256
//! out u32 indirect:ops[b%4](a,b) indirect:ops[(b>>2)%4](b,a)
#define K 2
extern "C" __global__ void ext_calls(const u64* in, u64* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const u32 a = (u32)in[2 * i], b = (u32)in[2 * i + 1];
    out[(u64)i * K] = ops[b & 3](a, b);
    out[(u64)i * K + 1] = ops[(b >> 2) & 3](b, a);
}
