// f64 arithmetic with every rounding modifier: add/sub/mul/fma/mad (.rn .rz .rm .rp), the
// IEEE-rounded div/rcp/sqrt (.rn .rz .rm .rp), min/max, abs/neg, copysign, testp, and what NVRTC
// emits for the C++ operators.
//
// What is pinned: finite and infinite results bit for bit (IEEE 754 operations with an explicit
// rounding; f64 always supports subnormals). NaN results: the PTX ISA does not define an f64 NaN
// encoding for arithmetic (unlike f32, the GPU propagates input payloads), so a NaN result is
// compared as "any NaN" (rule `nan`); abs.f64 is the exception the ISA states: "NaN input is passed
// through unchanged", so it is compared bit for bit. min/max: a NaN operand yields the other
// operand; +0.0 > -0.0.
//
// Inputs: the f64 edge values (the core ones in a full cross product of a and b), then random
// values (many with nearby exponents, c sometimes close to -(a*b)). See int_arith.cu for the
// kernel ABI.

typedef unsigned long long u64;
typedef long long s64;

//! kernel f64_arith in=f64,f64,f64 random=256
//! out f64:nan add.rn.f64 add.rz.f64 add.rm.f64 add.rp.f64 add.f64
//! out f64:nan sub.rn.f64 sub.rz.f64 sub.rm.f64 sub.rp.f64
//! out f64:nan mul.rn.f64 mul.rz.f64 mul.rm.f64 mul.rp.f64
//! out f64:nan fma.rn.f64 fma.rz.f64 fma.rm.f64 fma.rp.f64 mad.rn.f64
//! out f64:nan div.rn.f64 div.rz.f64 div.rm.f64 div.rp.f64
//! out f64:nan rcp.rn.f64 rcp.rz.f64 rcp.rm.f64 rcp.rp.f64
//! out f64:nan sqrt.rn.f64 sqrt.rz.f64 sqrt.rm.f64 sqrt.rp.f64
//! out f64:nan min.f64 max.f64
//! out f64 abs.f64
//! out f64:nan neg.f64 copysign.f64
//! out u32 testp.finite.f64 testp.infinite.f64 testp.number.f64 testp.notanumber.f64 testp.normal.f64 testp.subnormal.f64
//! out f64:nan C++:a+b C++:a*b+c C++:a/b C++:sqrt(a) C++:fmin C++:1/a
//! out f64 mov.f64
#define K 48
extern "C" __global__ void f64_arith(const u64* in, u64* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const double a = __longlong_as_double((s64)in[3 * i]), b = __longlong_as_double((s64)in[3 * i + 1]),
                 c = __longlong_as_double((s64)in[3 * i + 2]);
    u64* o = out + (u64)i * K;
    int k = 0;
    double d;
#define D1(insn) { asm volatile(insn " %0, %1;" : "=d"(d) : "d"(a)); o[k++] = __double_as_longlong(d); }
#define D2(insn) { asm volatile(insn " %0, %1, %2;" : "=d"(d) : "d"(a), "d"(b)); o[k++] = __double_as_longlong(d); }
#define D3(insn) { asm volatile(insn " %0, %1, %2, %3;" : "=d"(d) : "d"(a), "d"(b), "d"(c)); o[k++] = __double_as_longlong(d); }
    D2("add.rn.f64") D2("add.rz.f64") D2("add.rm.f64") D2("add.rp.f64") D2("add.f64")
    D2("sub.rn.f64") D2("sub.rz.f64") D2("sub.rm.f64") D2("sub.rp.f64")
    D2("mul.rn.f64") D2("mul.rz.f64") D2("mul.rm.f64") D2("mul.rp.f64")
    D3("fma.rn.f64") D3("fma.rz.f64") D3("fma.rm.f64") D3("fma.rp.f64") D3("mad.rn.f64")
    D2("div.rn.f64") D2("div.rz.f64") D2("div.rm.f64") D2("div.rp.f64")
    D1("rcp.rn.f64") D1("rcp.rz.f64") D1("rcp.rm.f64") D1("rcp.rp.f64")
    D1("sqrt.rn.f64") D1("sqrt.rz.f64") D1("sqrt.rm.f64") D1("sqrt.rp.f64")
    D2("min.f64") D2("max.f64")
    D1("abs.f64") D1("neg.f64") D2("copysign.f64")
#define TP(insn) { unsigned r_; asm volatile("{\n\t.reg .pred p;\n\t" insn " p, %1;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(r_) : "d"(a)); o[k++] = r_; }
    TP("testp.finite.f64") TP("testp.infinite.f64") TP("testp.number.f64") TP("testp.notanumber.f64")
    TP("testp.normal.f64") TP("testp.subnormal.f64")
    o[k++] = __double_as_longlong(a + b);
    o[k++] = __double_as_longlong(a * b + c);
    o[k++] = __double_as_longlong(a / b);
    o[k++] = __double_as_longlong(sqrt(a));
    o[k++] = __double_as_longlong(fmin(a, b));
    o[k++] = __double_as_longlong(1.0 / a);
    D1("mov.f64")
}
