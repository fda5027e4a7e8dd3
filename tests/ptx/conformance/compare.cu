// Compare and select: setp with every comparison of each type (the unsigned lo/ls/hi/hs, the
// float unordered equ/neu/ltu/leu/gtu/geu and num/nan, .ftz), setp with a combining boolean
// (.and/.or/.xor, two destinations p|q), set (integer mask or 1.0f results, with a boolean),
// selp, slct, and predicate logic (and/or/xor/not.pred).
//
// Each predicate is written out as 0 or 1 through selp.u32. Float inputs come edge values first
// (+-0, +-1, subnormals, FLT_MIN/MAX, +-inf, quiet and signalling NaNs with payloads), the core
// ones in a full cross product of the first two operands, so every ordered/unordered case is
// reached. The third
// input's bit 0 is the predicate operand of the combining forms. See int_arith.cu for the ABI.

typedef unsigned int u32;
typedef unsigned long long u64;

// setp CMP.TYPE of (x, y) as 0/1, constraint C ("r", "l", "f", "d")
#define SETP(insn, C, x, y) { u32 r_; asm volatile("{\n\t.reg .pred p;\n\t" insn " p, %1, %2;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(r_) : C(x), C(y)); o[k++] = r_; }
// setp CMP.BOOL.TYPE p|q, x, y, pc where pc = (c & 1): (p, q) packed as p | q << 1
#define SETPB(insn, C, x, y) { u32 r_; asm volatile("{\n\t.reg .pred p, q, pc;\n\t.reg .u32 t0, t1;\n\tsetp.ne.u32 pc, %3, 0;\n\t" insn " p|q, %1, %2, pc;\n\tselp.u32 t0, 1, 0, p;\n\tselp.u32 t1, 2, 0, q;\n\tor.b32 %0, t0, t1;\n\t}" : "=r"(r_) : C(x), C(y), "r"(c & 1)); o[k++] = r_; }

// ---- integers -----------------------------------------------------------------------------------
//! kernel cmp_int in=u32,u32,u32 random=128
//! out u32 setp.eq.s32 setp.ne.s32 setp.lt.s32 setp.le.s32 setp.gt.s32 setp.ge.s32
//! out u32 setp.eq.u32 setp.ne.u32 setp.lt.u32 setp.le.u32 setp.gt.u32 setp.ge.u32
//! out u32 setp.lo.u32 setp.ls.u32 setp.hi.u32 setp.hs.u32 setp.eq.b32 setp.ne.b32
//! out u32 setp.lt.s16 setp.hi.u16
//! out u32 setp.lt.and.s32:p|q<<1 setp.ge.or.u32:p|q<<1 setp.ne.xor.b32:p|q<<1
//! out u32 set.lt.u32.s32 set.hi.u32.u32 set.eq.s32.b32 set.lt.f32.s32 set.gt.and.u32.s32 set.le.or.f32.u32
//! out u32 selp.b32 selp.s32 slct.u32.s32 slct.s32.s32
//! out u32 and.pred or.pred xor.pred not.pred
//! out u64 selp.b64
#define K 38
extern "C" __global__ void cmp_int(const u64* in, u64* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const u32 a = (u32)in[3 * i], b = (u32)in[3 * i + 1], c = (u32)in[3 * i + 2];
    u64* o = out + (u64)i * K;
    int k = 0;
    SETP("setp.eq.s32", "r", a, b) SETP("setp.ne.s32", "r", a, b) SETP("setp.lt.s32", "r", a, b)
    SETP("setp.le.s32", "r", a, b) SETP("setp.gt.s32", "r", a, b) SETP("setp.ge.s32", "r", a, b)
    SETP("setp.eq.u32", "r", a, b) SETP("setp.ne.u32", "r", a, b) SETP("setp.lt.u32", "r", a, b)
    SETP("setp.le.u32", "r", a, b) SETP("setp.gt.u32", "r", a, b) SETP("setp.ge.u32", "r", a, b)
    SETP("setp.lo.u32", "r", a, b) SETP("setp.ls.u32", "r", a, b) SETP("setp.hi.u32", "r", a, b)
    SETP("setp.hs.u32", "r", a, b) SETP("setp.eq.b32", "r", a, b) SETP("setp.ne.b32", "r", a, b)
    {
        const unsigned short ha = (unsigned short)a, hb = (unsigned short)b;
        SETP("setp.lt.s16", "h", ha, hb) SETP("setp.hi.u16", "h", ha, hb)
    }
    SETPB("setp.lt.and.s32", "r", a, b) SETPB("setp.ge.or.u32", "r", a, b) SETPB("setp.ne.xor.b32", "r", a, b)
    u32 r;
    asm volatile("set.lt.u32.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); o[k++] = r;
    asm volatile("set.hi.u32.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); o[k++] = r;
    asm volatile("set.eq.s32.b32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); o[k++] = r;
    { float f; asm volatile("set.lt.f32.s32 %0, %1, %2;" : "=f"(f) : "r"(a), "r"(b)); o[k++] = __float_as_uint(f); }
    asm volatile("{\n\t.reg .pred pc;\n\tsetp.ne.u32 pc, %3, 0;\n\tset.gt.and.u32.s32 %0, %1, %2, pc;\n\t}" : "=r"(r) : "r"(a), "r"(b), "r"(c & 1)); o[k++] = r;
    { float f; asm volatile("{\n\t.reg .pred pc;\n\tsetp.ne.u32 pc, %3, 0;\n\tset.le.or.f32.u32 %0, %1, %2, !pc;\n\t}" : "=f"(f) : "r"(a), "r"(b), "r"(c & 1)); o[k++] = __float_as_uint(f); }
    // selp on c's bit 0; slct on the sign of c
    asm volatile("{\n\t.reg .pred pc;\n\tsetp.ne.u32 pc, %3, 0;\n\tselp.b32 %0, %1, %2, pc;\n\t}" : "=r"(r) : "r"(a), "r"(b), "r"(c & 1)); o[k++] = r;
    asm volatile("{\n\t.reg .pred pc;\n\tsetp.lt.s32 pc, %3, 0;\n\tselp.s32 %0, %1, %2, pc;\n\t}" : "=r"(r) : "r"(a), "r"(b), "r"(c)); o[k++] = r;
    asm volatile("slct.u32.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); o[k++] = r;
    asm volatile("slct.s32.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); o[k++] = r;
    // predicate logic on p = (a < b signed), q = c's bit 0
#define PLOG(body) asm volatile("{\n\t.reg .pred p, q, d;\n\tsetp.lt.s32 p, %1, %2;\n\tsetp.ne.u32 q, %3, 0;\n\t" body "\n\tselp.u32 %0, 1, 0, d;\n\t}" : "=r"(r) : "r"(a), "r"(b), "r"(c & 1)); o[k++] = r;
    PLOG("and.pred d, p, q;") PLOG("or.pred d, p, q;") PLOG("xor.pred d, p, q;") PLOG("not.pred d, p;")
    {
        u64 w;
        asm volatile("{\n\t.reg .pred pc;\n\tsetp.ne.u32 pc, %3, 0;\n\tselp.b64 %0, %1, %2, pc;\n\t}" : "=l"(w) : "l"(in[3 * i]), "l"(in[3 * i + 1]), "r"(c & 1)); o[k++] = w;
    }
}
#undef K

//! kernel cmp_int64 in=u64,u64 random=128
//! out u32 setp.eq.s64 setp.ne.s64 setp.lt.s64 setp.le.s64 setp.gt.s64 setp.ge.s64
//! out u32 setp.lo.u64 setp.ls.u64 setp.hi.u64 setp.hs.u64 setp.lt.u64 setp.ge.u64 setp.eq.b64
#define K 13
extern "C" __global__ void cmp_int64(const u64* in, u64* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const u64 a = in[2 * i], b = in[2 * i + 1];
    u64* o = out + (u64)i * K;
    int k = 0;
    SETP("setp.eq.s64", "l", a, b) SETP("setp.ne.s64", "l", a, b) SETP("setp.lt.s64", "l", a, b)
    SETP("setp.le.s64", "l", a, b) SETP("setp.gt.s64", "l", a, b) SETP("setp.ge.s64", "l", a, b)
    SETP("setp.lo.u64", "l", a, b) SETP("setp.ls.u64", "l", a, b) SETP("setp.hi.u64", "l", a, b)
    SETP("setp.hs.u64", "l", a, b) SETP("setp.lt.u64", "l", a, b) SETP("setp.ge.u64", "l", a, b)
    SETP("setp.eq.b64", "l", a, b)
}
#undef K

// ---- floats -------------------------------------------------------------------------------------
//! kernel cmp_f32 in=f32,f32,u32 random=128
//! out u32 setp.eq.f32 setp.ne.f32 setp.lt.f32 setp.le.f32 setp.gt.f32 setp.ge.f32
//! out u32 setp.equ.f32 setp.neu.f32 setp.ltu.f32 setp.leu.f32 setp.gtu.f32 setp.geu.f32
//! out u32 setp.num.f32 setp.nan.f32 setp.lt.ftz.f32 setp.eq.ftz.f32 setp.gtu.ftz.f32
//! out u32 setp.lt.and.f32:p|q<<1 setp.neu.or.f32:p|q<<1
//! out u32 set.lt.u32.f32 set.nan.u32.f32 set.geu.f32.f32 set.ltu.ftz.u32.f32
//! out f32 selp.f32 slct.f32.f32 slct.ftz.f32.f32 slct.u32.f32
//! out u32 C++:a<b C++:a!=b C++:!(a>=b) C++:isnan(a)
#define K 31
extern "C" __global__ void cmp_f32(const u64* in, u64* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float a = __uint_as_float((u32)in[3 * i]), b = __uint_as_float((u32)in[3 * i + 1]);
    const u32 c = (u32)in[3 * i + 2];
    u64* o = out + (u64)i * K;
    int k = 0;
    SETP("setp.eq.f32", "f", a, b) SETP("setp.ne.f32", "f", a, b) SETP("setp.lt.f32", "f", a, b)
    SETP("setp.le.f32", "f", a, b) SETP("setp.gt.f32", "f", a, b) SETP("setp.ge.f32", "f", a, b)
    SETP("setp.equ.f32", "f", a, b) SETP("setp.neu.f32", "f", a, b) SETP("setp.ltu.f32", "f", a, b)
    SETP("setp.leu.f32", "f", a, b) SETP("setp.gtu.f32", "f", a, b) SETP("setp.geu.f32", "f", a, b)
    SETP("setp.num.f32", "f", a, b) SETP("setp.nan.f32", "f", a, b) SETP("setp.lt.ftz.f32", "f", a, b)
    SETP("setp.eq.ftz.f32", "f", a, b) SETP("setp.gtu.ftz.f32", "f", a, b)
    SETPB("setp.lt.and.f32", "f", a, b) SETPB("setp.neu.or.f32", "f", a, b)
    u32 r;
    float f;
    asm volatile("set.lt.u32.f32 %0, %1, %2;" : "=r"(r) : "f"(a), "f"(b)); o[k++] = r;
    asm volatile("set.nan.u32.f32 %0, %1, %2;" : "=r"(r) : "f"(a), "f"(b)); o[k++] = r;
    asm volatile("set.geu.f32.f32 %0, %1, %2;" : "=f"(f) : "f"(a), "f"(b)); o[k++] = __float_as_uint(f);
    asm volatile("set.ltu.ftz.u32.f32 %0, %1, %2;" : "=r"(r) : "f"(a), "f"(b)); o[k++] = r;
    asm volatile("{\n\t.reg .pred pc;\n\tsetp.ne.u32 pc, %3, 0;\n\tselp.f32 %0, %1, %2, pc;\n\t}" : "=f"(f) : "f"(a), "f"(b), "r"(c & 1)); o[k++] = __float_as_uint(f);
    // slct d, a, b, c: d = c >= 0 ? a : b (c a float: -0.0 >= 0; NaN: the ISA leaves it to
    // the comparison, pinned here as the GPU does it)
    asm volatile("slct.f32.f32 %0, %1, %2, %3;" : "=f"(f) : "f"(a), "f"(b), "f"(b)); o[k++] = __float_as_uint(f);
    asm volatile("slct.ftz.f32.f32 %0, %1, %2, %3;" : "=f"(f) : "f"(b), "f"(a), "f"(a)); o[k++] = __float_as_uint(f);
    asm volatile("slct.u32.f32 %0, %1, %2, %3;" : "=r"(r) : "r"(c), "r"(~c), "f"(a)); o[k++] = r;
    // What NVRTC emits for C++ comparisons.
    o[k++] = a < b;
    o[k++] = a != b;
    o[k++] = !(a >= b);
    o[k++] = isnan(a);
}
#undef K

//! kernel cmp_f64 in=f64,f64,u32 random=128
//! out u32 setp.eq.f64 setp.ne.f64 setp.lt.f64 setp.le.f64 setp.gt.f64 setp.ge.f64
//! out u32 setp.equ.f64 setp.neu.f64 setp.ltu.f64 setp.leu.f64 setp.gtu.f64 setp.geu.f64
//! out u32 setp.num.f64 setp.nan.f64 setp.lt.and.f64:p|q<<1 set.leu.u32.f64
//! out f64 selp.f64 slct.f64.f32
//! out u32 C++:a<=b C++:isinf(a)
#define K 20
extern "C" __global__ void cmp_f64(const u64* in, u64* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const double a = __longlong_as_double((long long)in[3 * i]), b = __longlong_as_double((long long)in[3 * i + 1]);
    const u32 c = (u32)in[3 * i + 2];
    u64* o = out + (u64)i * K;
    int k = 0;
    SETP("setp.eq.f64", "d", a, b) SETP("setp.ne.f64", "d", a, b) SETP("setp.lt.f64", "d", a, b)
    SETP("setp.le.f64", "d", a, b) SETP("setp.gt.f64", "d", a, b) SETP("setp.ge.f64", "d", a, b)
    SETP("setp.equ.f64", "d", a, b) SETP("setp.neu.f64", "d", a, b) SETP("setp.ltu.f64", "d", a, b)
    SETP("setp.leu.f64", "d", a, b) SETP("setp.gtu.f64", "d", a, b) SETP("setp.geu.f64", "d", a, b)
    SETP("setp.num.f64", "d", a, b) SETP("setp.nan.f64", "d", a, b)
    SETPB("setp.lt.and.f64", "d", a, b)
    u32 r;
    double d;
    asm volatile("set.leu.u32.f64 %0, %1, %2;" : "=r"(r) : "d"(a), "d"(b)); o[k++] = r;
    asm volatile("{\n\t.reg .pred pc;\n\tsetp.ne.u32 pc, %3, 0;\n\tselp.f64 %0, %1, %2, pc;\n\t}" : "=d"(d) : "d"(a), "d"(b), "r"(c & 1)); o[k++] = __double_as_longlong(d);
    asm volatile("slct.f64.f32 %0, %1, %2, %3;" : "=d"(d) : "d"(a), "d"(b), "f"(__uint_as_float(c))); o[k++] = __double_as_longlong(d);
    o[k++] = a <= b;
    o[k++] = isinf(a);
}
