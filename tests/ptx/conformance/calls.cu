// Device function calls: __noinline__ functions (PTX .func with call/ret and .param passing) with
// parameters and results of every size (8-, 16-, 32-, 64-bit integers, f32, f64, a struct by value,
// a pointer), many parameters, and bounded recursion (Fibonacci, factorial, mutual recursion, a
// recursion through a local array). Indirect calls through function pointers: extended.cu.
//
// Recursion depths come from the inputs, bounded (fib <= 19, fact <= 20, even/odd <= 63) so the
// call stack stays small. Every result is a plain function of the inputs: pinned bit for bit.
// See int_arith.cu for the kernel ABI.

typedef unsigned char u8;
typedef signed char s8;
typedef unsigned short u16;
typedef short s16;
typedef unsigned int u32;
typedef unsigned long long u64;

struct Triple {
    int a;
    float b;
    double c;
};

__device__ __noinline__ int add3(int x, int y, int z) { return x + y * 3 + z * 7; }
__device__ __noinline__ double mixed(float f, double d, int k) { return (double)f * d + k; }
__device__ __noinline__ s16 narrow(s8 c, u16 s, u64 w) { return (s16)(c * 3 + s - (s16)(w >> 40)); }
__device__ __noinline__ bool is_odd_bits(u32 x) { return __popc(x) & 1; }
__device__ __noinline__ Triple make_triple(int x, float y) { return Triple{x * 2, y * 0.5f, (double)x * y}; }
__device__ __noinline__ double use_triple(Triple t) { return t.a + t.b + t.c; }
__device__ __noinline__ void out_param(u32* dst, u32 x) { *dst = x * 2654435761u; }
__device__ __noinline__ u64 many(u32 a, u32 b, u32 c, u32 d, u32 e, u32 f, u32 g, u32 h, u32 i, u32 j,
                                 u64 k, float l, double m) {
    return (u64)a + b * 2ull + c * 3ull + d * 5ull + e * 7ull + f * 11ull + g * 13ull + h * 17ull +
           i * 19ull + j * 23ull + k + (u64)(long long)(l * 4.0f) + (u64)(long long)(m * 8.0);
}
__device__ __noinline__ u32 fib(u32 n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__device__ __noinline__ u64 fact(u32 n) { return n <= 1 ? 1ull : n * fact(n - 1); }
__device__ __noinline__ bool is_odd(u32 n);
__device__ __noinline__ bool is_even(u32 n) { return n == 0 ? true : is_odd(n - 1); }
__device__ __noinline__ bool is_odd(u32 n) { return n == 0 ? false : is_even(n - 1); }
// A recursion with a local array in each frame (its frames must not overlap).
__device__ __noinline__ u32 frames(u32 depth, u32 seed) {
    u32 local[8];
    for (int j = 0; j < 8; ++j) local[j] = seed + j * depth;
    const u32 below = depth == 0 ? 0 : frames(depth - 1, seed * 3 + 1);
    return local[seed & 7] ^ (below << 1);
}

//! kernel calls in=u32,u32,f32,f64 random=256
//! out u32 call:add3
//! out f64:nan call:mixed(f32,f64,s32)
//! out u32 call:narrow(s8,u16,u64)->s16 call:bool
//! out f64:nan call:struct-by-value
//! out u32 call:out-param
//! out u64 call:13-params
//! out u32 recursion:fib(a%20)
//! out u64 recursion:fact(b%21)
//! out u32 recursion:is_even(a%64) recursion:frames(b%6)
#define K 11
extern "C" __global__ void calls(const u64* in, u64* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const u32 a = (u32)in[4 * i], b = (u32)in[4 * i + 1];
    const float x = __uint_as_float((u32)in[4 * i + 2]);
    const double y = __longlong_as_double((long long)in[4 * i + 3]);
    u64* o = out + (u64)i * K;
    int k = 0;
    o[k++] = (u32)add3((int)a, (int)b, (int)(a >> 7));
    o[k++] = __double_as_longlong(mixed(x, y, (int)b));
    o[k++] = (u16)narrow((s8)a, (u16)b, in[4 * i + 3]);
    o[k++] = is_odd_bits(a ^ b);
    o[k++] = __double_as_longlong(use_triple(make_triple((int)(a & 0xffff), x)));
    u32 result;
    out_param(&result, a + b);
    o[k++] = result;
    o[k++] = many(a, b, a >> 1, b >> 1, a >> 2, b >> 2, a >> 3, b >> 3, a >> 4, b >> 4, in[4 * i + 3], x, y);
    o[k++] = fib(a % 20);
    o[k++] = fact(b % 21);
    o[k++] = is_even(a % 64);
    o[k++] = frames(b % 6, a);
}
