// Atomics: atom.global and atom.shared add/min/max/exch/cas/and/or/xor/inc/dec on u32, s32, u64,
// s64, f32, f64 (b32/b64 for the bitwise ones), red (no return value), the .relaxed/.acq_rel
// .gpu forms, and the C++ atomic functions.
//
// Only order-independent results are compared (the GPU runs the threads in no fixed order):
// - final values of the targets, with operands chosen so every order gives the same bits (the
//   f32/f64 additions add multiples of 0.25 / 0.5 whose partial sums are all exact);
// - returned old values only through order-independent summaries: N additions of 1 return a
//   permutation of init..init+N-1 (their sum and xor are fixed), N identical inc/dec operations
//   return a fixed multiset (its sum), the olds of an exchange plus the final value are the
//   initial value plus everything exchanged (their sum), exactly one of N compare-and-swaps of the
//   same expected value succeeds, and a CAS loop that adds is an addition.
// inc/dec (ISA): inc d = old >= b ? 0 : old + 1; dec d = (old == 0 || old > b) ? b : old - 1.
//
// atom_global: the targets are the `//! extra` words after the per-thread outputs (initialised
// by the runner with the values given there, compared after the launch); every thread of every
// block hits the same words. Exchange and CAS, whose final values depend on the order, use a
// word per block, summarised in shared memory and reset before the block ends.
// atom_shared: the same on __shared__ words, per block; every thread writes its block's summary.
// See int_arith.cu for the rest of the ABI.

typedef unsigned int u32;
typedef int s32;
typedef unsigned long long u64;
typedef long long s64;

// A global atomic with a result: fn(address, value) -> old
#define GATOM(fn, insn, T, C) \
    __device__ __forceinline__ T fn(u64 addr, T v) { T r; asm volatile(insn " %0, [%1], %2;" : "=" C(r) : "l"(addr), C(v) : "memory"); return r; }
GATOM(g_add_u32, "atom.global.add.u32", u32, "r")
GATOM(g_add_u64, "atom.global.add.u64", u64, "l")
GATOM(g_add_f32, "atom.global.add.f32", float, "f")
GATOM(g_add_f64, "atom.global.add.f64", double, "d")
GATOM(g_min_u32, "atom.global.min.u32", u32, "r")
GATOM(g_max_u32, "atom.global.max.u32", u32, "r")
GATOM(g_min_s32, "atom.global.min.s32", u32, "r")
GATOM(g_max_s32, "atom.global.max.s32", u32, "r")
GATOM(g_min_u64, "atom.global.min.u64", u64, "l")
GATOM(g_max_s64, "atom.global.max.s64", u64, "l")
GATOM(g_and_b32, "atom.global.and.b32", u32, "r")
GATOM(g_or_b32, "atom.global.or.b32", u32, "r")
GATOM(g_xor_b32, "atom.global.xor.b32", u32, "r")
GATOM(g_and_b64, "atom.global.and.b64", u64, "l")
GATOM(g_or_b64, "atom.global.or.b64", u64, "l")
GATOM(g_xor_b64, "atom.global.xor.b64", u64, "l")
GATOM(g_inc_u32, "atom.global.inc.u32", u32, "r")
GATOM(g_dec_u32, "atom.global.dec.u32", u32, "r")
GATOM(g_exch_b32, "atom.global.exch.b32", u32, "r")
GATOM(g_exch_b64, "atom.global.exch.b64", u64, "l")
GATOM(g_add_relaxed, "atom.relaxed.gpu.global.add.u32", u32, "r")
GATOM(g_add_acq_rel, "atom.acq_rel.gpu.global.add.u32", u32, "r")
__device__ __forceinline__ u32 g_cas_b32(u64 addr, u32 cmp, u32 v) {
    u32 r; asm volatile("atom.global.cas.b32 %0, [%1], %2, %3;" : "=r"(r) : "l"(addr), "r"(cmp), "r"(v) : "memory"); return r;
}
__device__ __forceinline__ u64 g_cas_b64(u64 addr, u64 cmp, u64 v) {
    u64 r; asm volatile("atom.global.cas.b64 %0, [%1], %2, %3;" : "=l"(r) : "l"(addr), "l"(cmp), "l"(v) : "memory"); return r;
}
__device__ __forceinline__ u64 gaddr(const void* p) { return (u64)__cvta_generic_to_global(p); }

//! kernel atom_global in=u32,key block=128 grid=8
//! out u64 exch.b32-per-block:sum(olds)+final cas.b32-per-block:successes cas.b32-per-block:winner-holds exch.b64-per-block:sum(olds)+final
//! extra u32 atom.global.add.u32=5
//! extra u32 atom.global.add.u32(+1)=100
//! extra u64 atom.global.add.u32(+1):sum(olds)=0
//! extra u32 atom.global.add.u32(+1):xor(olds)=0
//! extra u64 atom.global.add.u64=100000000
//! extra f32 atom.global.add.f32=3fc00000
//! extra f64 atom.global.add.f64=4000000000000000
//! extra u32 atom.global.min.u32=ffffffff
//! extra u32 atom.global.max.u32=0
//! extra u32 atom.global.min.s32=7fffffff
//! extra u32 atom.global.max.s32=80000000
//! extra u64 atom.global.min.u64=ffffffffffffffff
//! extra u64 atom.global.max.s64=8000000000000000
//! extra u32 atom.global.and.b32=ffffffff
//! extra u32 atom.global.or.b32=0
//! extra u32 atom.global.xor.b32=12345678
//! extra u64 atom.global.and.b64=ffffffffffffffff
//! extra u64 atom.global.or.b64=0
//! extra u64 atom.global.xor.b64=123456789abcdef
//! extra u32 atom.global.inc.u32(17)=0
//! extra u64 atom.global.inc.u32(17):sum(olds)=0
//! extra u32 atom.global.dec.u32(100)=5
//! extra u64 atom.global.dec.u32(100):sum(olds)=0
//! extra u32 atom.global.cas.b32-loop-add=0
//! extra u64 atom.global.cas.b64-loop-add=7
//! extra u32 red.global.add.u32=0
//! extra u32 red.global.min.u32=ffffffff
//! extra f32 red.global.add.f32=0
//! extra u32 atom.relaxed.gpu.global.add.u32=0
//! extra u32 atom.acq_rel.gpu.global.add.u32=0
//! extra u32 C++:atomicAdd(u32)=0
//! extra u64 C++:atomicMax(s64)=8000000000000000
//! extra u32 C++:atomicInc(u32,1000)=0
//! extra f64 C++:atomicAdd(double)=0
//! extra u32 exch.b32-per-block[8]=0 0 0 0 0 0 0 0
//! extra u32 cas.b32-per-block[8]=0 0 0 0 0 0 0 0
//! extra u64 exch.b64-per-block[8]=0 0 0 0 0 0 0 0
#define K 4
enum {
    X_ADD, X_ADD1, X_ADD1_SUM, X_ADD1_XOR, X_ADD64, X_ADDF, X_ADDD, X_MINU, X_MAXU, X_MINS, X_MAXS,
    X_MINU64, X_MAXS64, X_AND, X_OR, X_XOR, X_AND64, X_OR64, X_XOR64, X_INC, X_INC_SUM, X_DEC,
    X_DEC_SUM, X_CAS_LOOP, X_CAS64_LOOP, X_RED_ADD, X_RED_MIN, X_RED_ADDF, X_RELAXED, X_ACQ_REL,
    X_CXX_ADD, X_CXX_MAX64, X_CXX_INC, X_CXX_ADDD, X_EXCH = X_CXX_ADDD + 1, X_CAS = X_EXCH + 8,
    X_EXCH64 = X_CAS + 8
};
extern "C" __global__ void atom_global(const u64* in, u64* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const u32 v = (u32)in[2 * i], key = (u32)in[2 * i + 1];
    u64* x = out + (u64)n * K;  // the extra words: the atomic targets
#define AT(j) gaddr(&x[j])
    g_add_u32(AT(X_ADD), v & 0xff);
    const u32 old1 = g_add_u32(AT(X_ADD1), 1);
    g_add_u64(AT(X_ADD1_SUM), old1);
    g_xor_b32(AT(X_ADD1_XOR), old1);
    g_add_u64(AT(X_ADD64), (u64)v << 20);
    g_add_f32(AT(X_ADDF), (float)(v & 15) * 0.25f);
    g_add_f64(AT(X_ADDD), (double)(v & 1023) * 0.5);
    g_min_u32(AT(X_MINU), v);
    g_max_u32(AT(X_MAXU), v);
    g_min_s32(AT(X_MINS), v);
    g_max_s32(AT(X_MAXS), v);
    g_min_u64(AT(X_MINU64), (u64)v * 3 + key + 0x100000000ull);
    g_max_s64(AT(X_MAXS64), (u64)((s64)(s32)v * 12345));
    g_and_b32(AT(X_AND), v | (1u << (i & 31)));
    g_or_b32(AT(X_OR), v & (1u << (i & 31)));
    g_xor_b32(AT(X_XOR), v);
    g_and_b64(AT(X_AND64), ~((u64)(v & 0xff) << (i & 55)));
    g_or_b64(AT(X_OR64), (u64)(v & 0x3) << (i & 62));
    g_xor_b64(AT(X_XOR64), (u64)v << (i & 31));
    g_add_u64(AT(X_INC_SUM), g_inc_u32(AT(X_INC), 17));
    g_add_u64(AT(X_DEC_SUM), g_dec_u32(AT(X_DEC), 100));
    {   // an addition made of compare-and-swap loops, 32- and 64-bit
        u32 old = *(volatile u32*)&x[X_CAS_LOOP], seen;
        while ((seen = g_cas_b32(AT(X_CAS_LOOP), old, old + key + 1)) != old) old = seen;
        u64 old64 = *(volatile u64*)&x[X_CAS64_LOOP], seen64;
        while ((seen64 = g_cas_b64(AT(X_CAS64_LOOP), old64, old64 + ((u64)(key + 1) << 33))) != old64) old64 = seen64;
    }
    asm volatile("red.global.add.u32 [%0], %1;" :: "l"(AT(X_RED_ADD)), "r"(3u) : "memory");
    asm volatile("red.global.min.u32 [%0], %1;" :: "l"(AT(X_RED_MIN)), "r"(v ^ 0x5555u) : "memory");
    asm volatile("red.global.add.f32 [%0], %1;" :: "l"(AT(X_RED_ADDF)), "f"(0.5f) : "memory");
    g_add_relaxed(AT(X_RELAXED), 2);
    g_add_acq_rel(AT(X_ACQ_REL), key);
    atomicAdd((u32*)&x[X_CXX_ADD], v >> 24);
    atomicMax((long long*)&x[X_CXX_MAX64], (long long)(s32)v);
    atomicInc((u32*)&x[X_CXX_INC], 1000u);
    atomicAdd((double*)&x[X_CXX_ADDD], (double)key);
    __threadfence();
    // Exchange and CAS on this block's own words, summarised through shared memory.
    __shared__ unsigned long long sum_exch, sum_exch64;
    __shared__ unsigned successes, winner;
    if (threadIdx.x == 0) { sum_exch = 0; sum_exch64 = 0; successes = 0; winner = 0; }
    __syncthreads();
    const u32 me = threadIdx.x + 1;
    atomicAdd(&sum_exch, (unsigned long long)g_exch_b32(AT(X_EXCH + blockIdx.x), me));
    atomicAdd(&sum_exch64, g_exch_b64(AT(X_EXCH64 + blockIdx.x), (u64)me << 32 | me));
    if (g_cas_b32(AT(X_CAS + blockIdx.x), 0, me) == 0) { atomicAdd(&successes, 1u); winner = me; }
    __syncthreads();
    u64* o = out + (u64)i * K;
    // (volatile: read from the point of coherence, where the atomics were performed)
    o[0] = sum_exch + *(volatile u32*)&x[X_EXCH + blockIdx.x];
    o[1] = successes;
    o[2] = *(volatile u32*)&x[X_CAS + blockIdx.x] == winner;
    o[3] = sum_exch64 + *(volatile u64*)&x[X_EXCH64 + blockIdx.x];
    __syncthreads();
    if (threadIdx.x == 0) { x[X_EXCH + blockIdx.x] = 0; x[X_CAS + blockIdx.x] = 0; x[X_EXCH64 + blockIdx.x] = 0; }
}
#undef K

// ---- shared memory --------------------------------------------------------------------------------
//! kernel atom_shared in=u32,key block=128 grid=4
//! out u32 atom.shared.add.u32 atom.shared.add.u32(+1):xor(olds)
//! out u64 atom.shared.add.u32(+1):sum(olds) atom.shared.add.u64
//! out f32 atom.shared.add.f32
//! out f64 atom.shared.add.f64
//! out u32 atom.shared.min.u32 atom.shared.max.u32 atom.shared.min.s32 atom.shared.max.s32
//! out u64 atom.shared.min.s64 atom.shared.max.u64
//! out u32 atom.shared.and.b32 atom.shared.or.b32 atom.shared.xor.b32
//! out u64 atom.shared.and.b64 atom.shared.or.b64 atom.shared.xor.b64
//! out u32 atom.shared.inc.u32(9)
//! out u64 atom.shared.inc.u32(9):sum(olds)
//! out u32 atom.shared.dec.u32(7)
//! out u64 atom.shared.dec.u32(7):sum(olds) atom.shared.exch.b32:sum(olds)+final
//! out u32 atom.shared.cas.b32:successes atom.shared.cas.b32:winner-holds atom.shared.cas.b32-loop-add red.shared.add.u32 C++:atomicMin(shared,int)
#define K 28
#define SATOM(fn, insn, T, C) \
    __device__ __forceinline__ T fn(u32 addr, T v) { T r; asm volatile(insn " %0, [%1], %2;" : "=" C(r) : "r"(addr), C(v) : "memory"); return r; }
SATOM(s_add_u32, "atom.shared.add.u32", u32, "r")
SATOM(s_add_u64, "atom.shared.add.u64", u64, "l")
SATOM(s_add_f32, "atom.shared.add.f32", float, "f")
SATOM(s_add_f64, "atom.shared.add.f64", double, "d")
SATOM(s_min_u32, "atom.shared.min.u32", u32, "r")
SATOM(s_max_u32, "atom.shared.max.u32", u32, "r")
SATOM(s_min_s32, "atom.shared.min.s32", u32, "r")
SATOM(s_max_s32, "atom.shared.max.s32", u32, "r")
SATOM(s_min_s64, "atom.shared.min.s64", u64, "l")
SATOM(s_max_u64, "atom.shared.max.u64", u64, "l")
SATOM(s_and_b32, "atom.shared.and.b32", u32, "r")
SATOM(s_or_b32, "atom.shared.or.b32", u32, "r")
SATOM(s_xor_b32, "atom.shared.xor.b32", u32, "r")
SATOM(s_and_b64, "atom.shared.and.b64", u64, "l")
SATOM(s_or_b64, "atom.shared.or.b64", u64, "l")
SATOM(s_xor_b64, "atom.shared.xor.b64", u64, "l")
SATOM(s_inc_u32, "atom.shared.inc.u32", u32, "r")
SATOM(s_dec_u32, "atom.shared.dec.u32", u32, "r")
SATOM(s_exch_b32, "atom.shared.exch.b32", u32, "r")
__device__ __forceinline__ u32 saddr(const void* p) { return (u32)__cvta_generic_to_shared(p); }
__device__ __forceinline__ u32 s_cas_b32(u32 addr, u32 cmp, u32 v) {
    u32 r; asm volatile("atom.shared.cas.b32 %0, [%1], %2, %3;" : "=r"(r) : "r"(addr), "r"(cmp), "r"(v) : "memory"); return r;
}
enum {
    S_ADD, S_ADD1, S_ADD1_XOR, S_ADD1_SUM, S_ADD64, S_ADDF, S_ADDD, S_MINU, S_MAXU, S_MINS, S_MAXS,
    S_MINS64, S_MAXU64, S_AND, S_OR, S_XOR, S_AND64, S_OR64, S_XOR64, S_INC, S_INC_SUM, S_DEC,
    S_DEC_SUM, S_EXCH_SUM, S_EXCH, S_SUCC, S_WIN, S_CAS, S_CAS_LOOP, S_RED, S_CXX_MIN, S_WORDS
};
extern "C" __global__ void atom_shared(const u64* in, u64* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const u32 v = (u32)in[2 * i], key = (u32)in[2 * i + 1];
    __shared__ u64 s[S_WORDS];
    if (threadIdx.x == 0) {
        for (int j = 0; j < S_WORDS; ++j) s[j] = 0;
        s[S_ADD1] = 1000; s[S_ADDF] = __float_as_uint(-2.0f); s[S_ADDD] = __double_as_longlong(0.25);
        s[S_MINU] = ~0u; s[S_MINS] = 0x7fffffffu; s[S_MAXS] = 0x80000000u;
        s[S_MINS64] = 0x7fffffffffffffffull; s[S_AND] = ~0u; s[S_AND64] = ~0ull;
        s[S_XOR64] = 0xfedcba9876543210ull; s[S_DEC] = 3; s[S_CXX_MIN] = 0x7fffffff;
    }
    __syncthreads();
#define SA(j) saddr(&s[j])
    s_add_u32(SA(S_ADD), v & 0xffff);
    const u32 old1 = s_add_u32(SA(S_ADD1), 1);
    s_xor_b32(SA(S_ADD1_XOR), old1);
    s_add_u64(SA(S_ADD1_SUM), old1);
    s_add_u64(SA(S_ADD64), (u64)v * 0x10001ull);
    s_add_f32(SA(S_ADDF), (float)(v & 7) * 0.25f);
    s_add_f64(SA(S_ADDD), -(double)(v & 255) * 0.5);
    s_min_u32(SA(S_MINU), v);
    s_max_u32(SA(S_MAXU), v);
    s_min_s32(SA(S_MINS), v);
    s_max_s32(SA(S_MAXS), v);
    s_min_s64(SA(S_MINS64), (u64)((s64)(s32)v << 8));
    s_max_u64(SA(S_MAXU64), (u64)v * v);
    s_and_b32(SA(S_AND), v | (1u << (threadIdx.x & 31)));
    s_or_b32(SA(S_OR), v & 0x01010101u);
    s_xor_b32(SA(S_XOR), v);
    s_and_b64(SA(S_AND64), ~((u64)key << (threadIdx.x & 60)));
    s_or_b64(SA(S_OR64), (u64)(v & 1) << (threadIdx.x & 63));
    s_xor_b64(SA(S_XOR64), (u64)v * 0x100000001ull);
    s_add_u64(SA(S_INC_SUM), s_inc_u32(SA(S_INC), 9));
    s_add_u64(SA(S_DEC_SUM), s_dec_u32(SA(S_DEC), 7));
    const u32 me = threadIdx.x + 1;
    s_add_u64(SA(S_EXCH_SUM), s_exch_b32(SA(S_EXCH), me));
    if (s_cas_b32(SA(S_CAS), 0, me) == 0) { s_add_u32(SA(S_SUCC), 1); s[S_WIN] = me; }
    {
        u32 old = *(volatile u32*)&s[S_CAS_LOOP], seen;
        while ((seen = s_cas_b32(SA(S_CAS_LOOP), old, old + key + 1)) != old) old = seen;
    }
    asm volatile("red.shared.add.u32 [%0], %1;" :: "r"(SA(S_RED)), "r"(key) : "memory");
    atomicMin((int*)&s[S_CXX_MIN], (int)v);
    __syncthreads();
    u64* o = out + (u64)i * K;
    int k = 0;
    o[k++] = (u32)s[S_ADD]; o[k++] = (u32)s[S_ADD1_XOR]; o[k++] = s[S_ADD1_SUM]; o[k++] = s[S_ADD64];
    o[k++] = (u32)s[S_ADDF]; o[k++] = s[S_ADDD];
    o[k++] = (u32)s[S_MINU]; o[k++] = (u32)s[S_MAXU]; o[k++] = (u32)s[S_MINS]; o[k++] = (u32)s[S_MAXS];
    o[k++] = s[S_MINS64]; o[k++] = s[S_MAXU64];
    o[k++] = (u32)s[S_AND]; o[k++] = (u32)s[S_OR]; o[k++] = (u32)s[S_XOR];
    o[k++] = s[S_AND64]; o[k++] = s[S_OR64]; o[k++] = s[S_XOR64];
    o[k++] = (u32)s[S_INC]; o[k++] = s[S_INC_SUM]; o[k++] = (u32)s[S_DEC]; o[k++] = s[S_DEC_SUM];
    o[k++] = s[S_EXCH_SUM] + (u32)s[S_EXCH];
    o[k++] = (u32)s[S_SUCC]; o[k++] = (u32)s[S_CAS] == (u32)s[S_WIN]; o[k++] = (u32)s[S_CAS_LOOP];
    o[k++] = (u32)s[S_RED]; o[k++] = (u32)s[S_CXX_MIN];
}
