// Memory access forms: global loads of every width and sign (ld.global.u8/s8/u16/s16/u32/f32/
// u64), vector loads (v2/v4), read-only loads (ld.global.nc through __ldg), volatile loads,
// sub-word and vector stores (st.global.u8/u16/v2/v4 into the output, whose other bytes keep the
// runner's poison pattern), shared memory (st/ld.shared of several widths, a neighbour's value
// after a barrier), generic loads through a pointer that is global, shared or local depending on
// the input (ld without a state space, cvta), a module-scope __device__ table (ld.global of a
// .global variable) and a __constant__ table (ld.const with a run-time index).
//
// Loads read only this thread's own input words (16 bytes: in[2i], in[2i+1]) at byte offsets
// from idx. The output poison: the runner fills `out` with the byte 0xa5 before the launch
// (both the GPU tool and the CPU test), so partial stores are pinned together with the bytes they
// leave alone. See int_arith.cu for the kernel ABI.

typedef unsigned char u8;
typedef signed char s8;
typedef unsigned short u16;
typedef short s16;
typedef unsigned int u32;
typedef unsigned long long u64;

__device__ u32 g_table[16] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53};
__constant__ float c_table[8] = {0.5f, -1.25f, 3.0f, 1e-3f, -0.0f, 1e30f, 7.75f, -2.5e-20f};

//! kernel mem_forms in=u64,u64 block=128 random=256
//! out u32 ld.global.u8 ld.global.s8 ld.global.u16 ld.global.s16 ld.global.u32 ld.global.f32*2
//! out u64 ld.global.u64 ld.global.v2.u32 ld.global.v4.u32:xor ld.global.v2.u64:xor
//! out u32 ld.global.nc.u32 ld.global.nc.v2.f32:sum-bits ld.global.nc.v4.u32:xor ld.volatile.global.u32
//! out u64 st.global.u8(into-poison) st.global.u16(into-poison) st.global.v4.u32:lo st.global.v4.u32:hi st.global.v2.u32
//! out u32 ld.shared.u32(neighbour) ld.shared.u8 ld.shared.v2.u32:xor ld.shared.u16(after-st.shared.u16)
//! out u32 ld(generic:global|shared|local)
//! out u32 ld.global(__device__-table) ld.const.f32*0.5(__constant__-table)
#define K 26
extern "C" __global__ void mem_forms(const u64* in, u64* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const u64* mine = in + 2 * i;
    const u32 idx = (u32)mine[1] ^ (u32)(mine[1] >> 32);
    const u8* bytes = (const u8*)mine;
    u64* o = out + (u64)i * K;
    int k = 0;
    const int b = idx & 15, h = idx & 7, w = idx & 3;
    o[k++] = bytes[b];
    o[k++] = (u32)(int)((const s8*)bytes)[b];
    o[k++] = ((const u16*)mine)[h];
    o[k++] = (u32)(int)((const s16*)mine)[h];
    o[k++] = ((const u32*)mine)[w];
    o[k++] = __float_as_uint(((const float*)mine)[w ^ 1] * 2.0f);
    o[k++] = mine[idx & 1];
    { const uint2 v = ((const uint2*)mine)[idx & 1]; o[k++] = (u64)v.y << 32 | v.x; }
    { const uint4 v = *(const uint4*)mine; o[k++] = v.x ^ (v.y << 1) ^ (v.z << 2) ^ (v.w << 3); }
    { const ulonglong2 v = *(const ulonglong2*)mine; o[k++] = v.x ^ (v.y >> 3); }
    o[k++] = __ldg((const u32*)mine + w);
    { const float2 v = __ldg((const float2*)mine + (idx & 1)); o[k++] = __float_as_uint(v.x) + __float_as_uint(v.y); }
    { const uint4 v = __ldg((const uint4*)mine); o[k++] = v.x ^ v.y ^ v.z ^ v.w; }
    o[k++] = ((const volatile u32*)mine)[w];
    // stores into this thread's own output words (K is even, so o[16] is 16-byte aligned)
    ((u8*)&o[k])[b & 7] = (u8)idx; ++k;
    ((u16*)&o[k])[h & 3] = (u16)idx; ++k;
    *(uint4*)&o[k] = make_uint4(idx, idx * 3, idx >> 3, 0xdeadbeefu); k += 2;
    *(uint2*)&o[k] = make_uint2(idx, ~idx); ++k;
    // shared memory
    __shared__ u32 sh[128];
    __shared__ u16 sh16[128];
    sh[threadIdx.x] = idx;
    sh16[threadIdx.x] = (u16)(idx >> 3);
    __syncthreads();
    o[k++] = sh[(threadIdx.x + 1) & 127];
    o[k++] = ((const u8*)sh)[(threadIdx.x * 4 + b) & 511];
    { const uint2 v = ((const uint2*)sh)[(threadIdx.x >> 1) & 63]; o[k++] = v.x ^ (v.y << 7); }
    o[k++] = sh16[(threadIdx.x + 7) & 127];
    // a generic pointer: global, shared or local, chosen at run time
    u32 loc[4] = {idx, idx + 1, idx + 2, idx + 3};
    const u32* p = (idx % 3 == 0) ? (const u32*)mine : (idx % 3 == 1) ? &sh[threadIdx.x] : loc;
    o[k++] = p[(idx >> 4) & 1];
    o[k++] = g_table[idx & 15];
    o[k++] = __float_as_uint(c_table[(idx >> 2) & 7] * 0.5f);
}
