// Local memory: arrays indexed with run-time indices (so they live in the thread's local depot and
// are read and written with ld.local/st.local of 8, 16, 32 and 64 bits), an array of structs,
// a local array passed by pointer to a __noinline__ function (a generic pointer into local memory,
// read with generic loads, cvta.local), and values that must survive the call.
//
// Inputs: seed (a value) and idx (run-time indices, taken modulo the array sizes). Every value is
// a plain function of the inputs, so the results are pinned bit for bit. See int_arith.cu for the
// kernel ABI.

typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;

struct Rec {
    u8 c;
    u16 s;
    u32 i;
    double d;
};

// Sums p[0..count-1] through a generic pointer (the caller's local array).
__device__ __noinline__ u32 sum_generic(const u32* p, int count) {
    u32 s = 0;
    for (int j = 0; j < count; ++j) s = s * 31 + p[j];
    return s;
}
// Writes through a generic pointer into the caller's local array.
__device__ __noinline__ void scribble(u32* p, int at, u32 value) { p[at] ^= value; p[(at + 5) & 31] += value; }

//! kernel local_mem in=u32,u32 random=256
//! out u32 local.u32[idx] local.u32[idx2] local.u32:checksum
//! out f64 local.f64[idx]
//! out u32 local.u8[idx] local.u16[idx] local.u8x4-as-u32
//! out u32 local.struct.c local.struct.s local.struct.i
//! out f64 local.struct.d
//! out u32 generic-local:sum generic-local:after-scribble
#define K 13
extern "C" __global__ void local_mem(const u64* in, u64* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const u32 seed = (u32)in[2 * i], idx = (u32)in[2 * i + 1];
    u64* o = out + (u64)i * K;
    int k = 0;
    const int i1 = idx & 31, i2 = (idx >> 5) & 31, i3 = (idx >> 10) & 7, i4 = (idx >> 13) & 15;

    u32 arr[32];
    for (int j = 0; j < 32; ++j) arr[j] = seed * (j + 1) ^ (j << 24);
    arr[i1] += 7;
    o[k++] = arr[i1];
    o[k++] = arr[i2];
    u32 h = 0;
    for (int j = 0; j < 32; ++j) h = h * 33 + arr[(j + i2) & 31];
    o[k++] = h;

    double d[8];
    for (int j = 0; j < 8; ++j) d[j] = j * 0.5 + (double)seed;
    d[i3] *= 3.0;
    o[k++] = __double_as_longlong(d[(i3 + idx) & 7]);

    u8 bytes[16];
    u16 halves[8];
    for (int j = 0; j < 16; ++j) bytes[j] = (u8)(seed >> (j & 7)) + j;
    for (int j = 0; j < 8; ++j) halves[j] = (u16)(seed * j);
    bytes[i4] = 0xab;
    halves[i3] = (u16)idx;
    o[k++] = bytes[(i4 * 7) & 15];
    o[k++] = halves[(i3 + 3) & 7];
    const int w = i4 & 12;  // four bytes assembled from a run-time position
    o[k++] = bytes[w] | bytes[w + 1] << 8 | bytes[w + 2] << 16 | (u32)bytes[w + 3] << 24;

    Rec recs[4];
    for (int j = 0; j < 4; ++j) recs[j] = Rec{(u8)(seed + j), (u16)(seed >> j), seed ^ (u32)j, j * 0.25 - 1.0};
    recs[i1 & 3].s = (u16)idx;
    recs[(i1 + 1) & 3].d = (double)idx;
    const Rec& r = recs[i2 & 3];
    o[k++] = r.c;
    o[k++] = r.s;
    o[k++] = r.i;
    o[k++] = __double_as_longlong(r.d);

    o[k++] = sum_generic(arr, 1 + i2);
    scribble(arr, i1, seed | 1);
    o[k++] = arr[i1] + arr[(i1 + 5) & 31] * 3;
}
