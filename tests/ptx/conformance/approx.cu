// Approximate instructions: ex2, lg2, sin, cos, tanh, rcp, sqrt, rsqrt, div.approx and div.full
// (f32, with and without .ftz), and the f64 gross approximations rcp.approx.ftz.f64,
// rsqrt.approx.f64, rsqrt.approx.ftz.f64.
//
// The PTX ISA defines these only within an error bound, so they are NOT compared bit for bit
// (rule `approx`): each column's bound comes from the ISA where it gives one (ex2: 2^-22.5, lg2:
// 2^-22.6 absolute, sin/cos: 2^-20.9 absolute, rcp: 2^-23 absolute on [1, 2), rsqrt: 2^-22.4
// absolute on [1, 4), div.approx/div.full: 2 ulp) and is written into the expected file with its
// domain and source (tests/ptx/README.md has the table). Special inputs (+-0, +-inf, NaN,
// subnormals) have their results given exactly by the ISA's tables and are compared bit for bit
// (a NaN result: any NaN); inputs outside a column's domain are compared only for NaN-ness.
// The f64 ones also pin that the low 32 bits of the result are zero (the ISA says so).
//
// See int_arith.cu for the kernel ABI.

typedef unsigned int u32;
typedef unsigned long long u64;
typedef long long s64;

//! kernel approx_f32 in=f32a,f32a random=512
//! out f32:approx ex2.approx.f32 ex2.approx.ftz.f32 lg2.approx.f32 lg2.approx.ftz.f32
//! out f32:approx sin.approx.f32 sin.approx.ftz.f32 cos.approx.f32 cos.approx.ftz.f32 tanh.approx.f32
//! out f32:approx rcp.approx.f32 rcp.approx.ftz.f32 sqrt.approx.f32 sqrt.approx.ftz.f32 rsqrt.approx.f32 rsqrt.approx.ftz.f32
//! out f32:approx div.approx.f32 div.approx.ftz.f32 div.full.f32 div.full.ftz.f32
#define K 19
extern "C" __global__ void approx_f32(const u64* in, u64* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float a = __uint_as_float((u32)in[2 * i]), b = __uint_as_float((u32)in[2 * i + 1]);
    u64* o = out + (u64)i * K;
    int k = 0;
    float d;
#define A1(insn) { asm volatile(insn " %0, %1;" : "=f"(d) : "f"(a)); o[k++] = __float_as_uint(d); }
#define A2(insn) { asm volatile(insn " %0, %1, %2;" : "=f"(d) : "f"(a), "f"(b)); o[k++] = __float_as_uint(d); }
    A1("ex2.approx.f32") A1("ex2.approx.ftz.f32") A1("lg2.approx.f32") A1("lg2.approx.ftz.f32")
    A1("sin.approx.f32") A1("sin.approx.ftz.f32") A1("cos.approx.f32") A1("cos.approx.ftz.f32")
    A1("tanh.approx.f32")
    A1("rcp.approx.f32") A1("rcp.approx.ftz.f32") A1("sqrt.approx.f32") A1("sqrt.approx.ftz.f32")
    A1("rsqrt.approx.f32") A1("rsqrt.approx.ftz.f32")
    A2("div.approx.f32") A2("div.approx.ftz.f32") A2("div.full.f32") A2("div.full.ftz.f32")
}
#undef K

//! kernel approx_f64 in=f64a random=512
//! out f64:approx rcp.approx.ftz.f64 rsqrt.approx.f64 rsqrt.approx.ftz.f64
//! out u32 rcp.approx.ftz.f64:lo32 rsqrt.approx.ftz.f64:lo32
#define K 5
extern "C" __global__ void approx_f64(const u64* in, u64* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const double a = __longlong_as_double((s64)in[i]);
    u64* o = out + (u64)i * K;
    double r, q, s;
    asm volatile("rcp.approx.ftz.f64 %0, %1;" : "=d"(r) : "d"(a));
    asm volatile("rsqrt.approx.f64 %0, %1;" : "=d"(q) : "d"(a));
    asm volatile("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(s) : "d"(a));
    o[0] = __double_as_longlong(r);
    o[1] = __double_as_longlong(q);
    o[2] = __double_as_longlong(s);
    o[3] = (u32)__double_as_longlong(r);
    o[4] = (u32)__double_as_longlong(s);
}
