// What the bench's z-march kernels share (zmarch_variants.cu, async_ring.cuh): a thread's vector
// of V values, its store of V outputs, the planes of a block's z-chunk.
#pragma once

namespace zmarch {

// V consecutive values, aligned so that one load or store moves all of them.
template <class real, int V>
struct alignas(sizeof(real) * V) Pack {
    real v[V];
};
template <class real, int V>
__device__ Pack<real, V> zero_pack() {
    Pack<real, V> p;
#pragma unroll
    for (int e = 0; e < V; ++e) p.v[e] = real(0);
    return p;
}

// Cache hints a variant may give its global accesses (bits): stores marked evict-first (st.global.cs:
// the output is not read again by the launch, so its lines need not displace the input's halo
// planes and rows in L2), the queue's loads through the non-coherent path (ld.global.nc).
enum Hints { kNoHints = 0, kStoreEvictFirst = 1, kLoadNonCoherent = 2 };

// One vector store, evict-first when asked (16-byte vectors; others plain).
template <class P, int HINTS>
__device__ inline void store_pack(P* at, const P& w) {
    if constexpr ((HINTS & kStoreEvictFirst) && sizeof(P) == 16)
        __stcs(reinterpret_cast<float4*>(at), reinterpret_cast<const float4&>(w));
    else
        *at = w;
}
template <class P, int HINTS>
__device__ inline P load_pack(const P* at) {
    if constexpr ((HINTS & kLoadNonCoherent) && sizeof(P) == 16) {
        const float4 v = __ldg(reinterpret_cast<const float4*>(at));
        return reinterpret_cast<const P&>(v);
    }
    return *at;
}

// The V outputs of a thread from cell o = (x0, row, plane): one vector store when all V cells are
// interior (at least R from both x faces), else the interior ones value by value. Both z-march
// kernels of the bench store so.
template <class P, int HINTS = kNoHints, class real, int V>
__device__ inline void store_outputs(real* out, int o, int x0, int nx, int R, const real (&acc)[V]) {
    if (x0 >= R && x0 + V <= nx - R) {
        P w;
#pragma unroll
        for (int e = 0; e < V; ++e) w.v[e] = acc[e];
        store_pack<P, HINTS>(reinterpret_cast<P*>(out + o), w);
    } else {
        for (int e = 0; e < V; ++e)
            if (x0 + e >= R && x0 + e < nx - R) out[o + e] = acc[e];
    }
}

// The interior planes [begin, end) of this block's z-chunk: the launch gives gridDim.z chunks of
// ceil(nz / gridDim.z) planes, as in kernels/streaming.cuh.
struct ChunkPlanes {
    int begin, end;
};
__device__ inline ChunkPlanes chunk_planes(int nz, int R) {
    const int zChunk = (nz + gridDim.z - 1) / gridDim.z, zFirst = blockIdx.z * zChunk;
    return {max(zFirst, R), min(zFirst + zChunk, nz - R)};
}

}  // namespace zmarch
