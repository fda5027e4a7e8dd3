// Warp-level operations: shfl.sync (up/down/bfly/idx, with the clamp and segment fields of c,
// lane operands out of range, the in-range predicate), vote.sync (all/any/uni/ballot),
// match.sync (any/all, 32- and 64-bit), activemask in divergent code, redux.sync,
// bar.warp.sync (elect.sync: extended.cu), and the same through a partial member mask (the even lanes only, in a branch).
//
// What is pinned: the ISA's lane arithmetic (shfl.sync's "Semantics" block: maxLane/minLane from
// c's clamp and segment mask, out-of-range sources copy the own value and clear the predicate),
// the vote/match/redux results over exactly the member lanes, activemask = the lanes that took the
// branch. Every source lane read here is a member of the mask (reading a non-member is undefined).
//
// Launch: the grid is exactly n threads (no partial warps: the kernel has no `i < n` guard, a
// guard before a full-mask shfl.sync would be undefined for the missing lanes). Inputs: v (a value),
// key (0..3, for match and the vote predicates) and src (0..40, a source lane / offset, so values
// above 31 check the 5-bit masking). See int_arith.cu for the rest of the ABI.

typedef unsigned int u32;
typedef unsigned long long u64;

#define FULL 0xffffffffu

//! kernel warp_ops in=u32,key,lane block=64 grid=8
//! out u32 shfl.sync.up.b32:b=1,c=0 shfl.sync.up.b32:b=1,c=0:p shfl.sync.down.b32:b=3,c=0x1f shfl.sync.down.b32:b=3,c=0x1f:p
//! out u32 shfl.sync.bfly.b32:b=5,c=0x1f shfl.sync.idx.b32:b=src,c=0x1f shfl.sync.idx.b32:b=src,c=0x181f
//! out u32 shfl.sync.up.b32:b=src&7,c=0x1800 shfl.sync.up.b32:b=src&7,c=0x1800:p shfl.sync.down.b32:b=2,c=0x101f shfl.sync.down.b32:b=2,c=0x101f:p
//! out u32 shfl.sync.bfly.b32:b=17,c=0x1f shfl.sync.idx.b32:b=src,c=0x0a shfl.sync.idx.b32:b=src,c=0x0a:p
//! out u32 vote.sync.all.pred vote.sync.any.pred vote.sync.uni.pred vote.sync.ballot.b32
//! out u32 match.any.sync.b32 match.all.sync.b32 match.all.sync.b32:p match.any.sync.b64
//! out u32 activemask.b32(branch)
//! out u32 redux.sync.add.u32 redux.sync.min.u32 redux.sync.max.u32 redux.sync.min.s32 redux.sync.max.s32 redux.sync.and.b32 redux.sync.or.b32 redux.sync.xor.b32
//! out u32 partial:shfl.sync partial:vote.sync.ballot.b32 partial:vote.sync.all.pred partial:redux.sync.add.u32 partial:match.any.sync.b32 partial:activemask.b32
//! out u32 bar.warp.sync+laneid
//! out u32 C++:__shfl_xor_sync(v,1) C++:__shfl_sync(v,src,16) C++:__ballot_sync(key==1) C++:__any_sync(v&1) C++:__reduce_max_sync
//! out u64 C++:__shfl_down_sync(u64,1)
#define K 44
extern "C" __global__ void warp_ops(const u64* in, u64* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const u32 v = (u32)in[3 * i], key = (u32)in[3 * i + 1], src = (u32)in[3 * i + 2];
    u64* o = out + (u64)i * K;
    int k = 0;
    u32 r, p;
    // shfl with value and predicate: r = shfl(v), p = in range
#define SHFLP(mode, B, C) { asm volatile("{\n\t.reg .pred q;\n\tshfl.sync." mode ".b32 %0|q, %2, %3, " C ", 0xffffffff;\n\tselp.u32 %1, 1, 0, q;\n\t}" : "=r"(r), "=r"(p) : "r"(v), "r"(B)); }
    SHFLP("up", 1u, "0") o[k++] = r; o[k++] = p;
    SHFLP("down", 3u, "0x1f") o[k++] = r; o[k++] = p;
    SHFLP("bfly", 5u, "0x1f") o[k++] = r;
    SHFLP("idx", src, "0x1f") o[k++] = r;
    SHFLP("idx", src, "0x181f") o[k++] = r;
    SHFLP("up", src & 7, "0x1800") o[k++] = r; o[k++] = p;
    SHFLP("down", 2u, "0x101f") o[k++] = r; o[k++] = p;
    SHFLP("bfly", 17u, "0x1f") o[k++] = r;
    SHFLP("idx", src, "0x0a") o[k++] = r; o[k++] = p;
    // votes: all/any on v's bit 0, uni on key == 0, ballot on v's bit 0
#define VOTE(mode, pred_src) asm volatile("{\n\t.reg .pred a, d;\n\tsetp.ne.u32 a, %1, 0;\n\tvote.sync." mode ".pred d, a, 0xffffffff;\n\tselp.u32 %0, 1, 0, d;\n\t}" : "=r"(r) : "r"(pred_src)); o[k++] = r;
    VOTE("all", v & 1) VOTE("any", v & 1) VOTE("uni", (u32)(key == 0))
    asm volatile("{\n\t.reg .pred a;\n\tsetp.ne.u32 a, %1, 0;\n\tvote.sync.ballot.b32 %0, a, 0xffffffff;\n\t}" : "=r"(r) : "r"(v & 1)); o[k++] = r;
    asm volatile("match.any.sync.b32 %0, %1, 0xffffffff;" : "=r"(r) : "r"(key)); o[k++] = r;
    asm volatile("{\n\t.reg .pred q;\n\tmatch.all.sync.b32 %0|q, %2, 0xffffffff;\n\tselp.u32 %1, 1, 0, q;\n\t}" : "=r"(r), "=r"(p) : "r"(key >> 1)); o[k++] = r; o[k++] = p;
    asm volatile("match.any.sync.b64 %0, %1, 0xffffffff;" : "=r"(r) : "l"((u64)key * 0x100000001ull ^ ((u64)(v & 1) << 40))); o[k++] = r;
    // activemask inside divergent code: the lanes that took the same branch
    if (key & 1) {
        asm volatile("activemask.b32 %0;" : "=r"(r));
    } else {
        asm volatile("activemask.b32 %0;" : "=r"(r));
        r = ~r;
    }
    o[k++] = r;
#define REDUX(insn) asm volatile(insn " %0, %1, 0xffffffff;" : "=r"(r) : "r"(v)); o[k++] = r;
    REDUX("redux.sync.add.u32") REDUX("redux.sync.min.u32") REDUX("redux.sync.max.u32")
    REDUX("redux.sync.min.s32") REDUX("redux.sync.max.s32") REDUX("redux.sync.and.b32")
    REDUX("redux.sync.or.b32") REDUX("redux.sync.xor.b32")
    // A partial member mask: even lanes in one branch, odd lanes in the other, each with its own
    // mask; every source lane is of the same parity (a member).
    u32 lane;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
    u32 s, bal, all, red, mat, act;
    if ((lane & 1) == 0) {
        asm volatile("shfl.sync.idx.b32 %0, %1, %2, 0x1f, 0x55555555;" : "=r"(s) : "r"(v), "r"((lane + 2) & 31));
        asm volatile("{\n\t.reg .pred a;\n\tsetp.ne.u32 a, %1, 0;\n\tvote.sync.ballot.b32 %0, a, 0x55555555;\n\t}" : "=r"(bal) : "r"(v & 1));
        asm volatile("{\n\t.reg .pred a, d;\n\tsetp.ne.u32 a, %1, 0;\n\tvote.sync.all.pred d, a, 0x55555555;\n\tselp.u32 %0, 1, 0, d;\n\t}" : "=r"(all) : "r"(v & 1));
        asm volatile("redux.sync.add.u32 %0, %1, 0x55555555;" : "=r"(red) : "r"(v));
        asm volatile("match.any.sync.b32 %0, %1, 0x55555555;" : "=r"(mat) : "r"(key));
        asm volatile("activemask.b32 %0;" : "=r"(act));
    } else {
        asm volatile("shfl.sync.down.b32 %0, %1, 2, 0x1f, 0xaaaaaaaa;" : "=r"(s) : "r"(v));
        asm volatile("{\n\t.reg .pred a;\n\tsetp.ne.u32 a, %1, 0;\n\tvote.sync.ballot.b32 %0, a, 0xaaaaaaaa;\n\t}" : "=r"(bal) : "r"(v & 1));
        asm volatile("{\n\t.reg .pred a, d;\n\tsetp.ne.u32 a, %1, 0;\n\tvote.sync.all.pred d, a, 0xaaaaaaaa;\n\tselp.u32 %0, 1, 0, d;\n\t}" : "=r"(all) : "r"(v & 1));
        asm volatile("redux.sync.add.u32 %0, %1, 0xaaaaaaaa;" : "=r"(red) : "r"(v));
        asm volatile("match.any.sync.b32 %0, %1, 0xaaaaaaaa;" : "=r"(mat) : "r"(key));
        asm volatile("activemask.b32 %0;" : "=r"(act));
    }
    o[k++] = s; o[k++] = bal; o[k++] = all; o[k++] = red; o[k++] = mat; o[k++] = act;
    asm volatile("bar.warp.sync 0xffffffff;");
    o[k++] = lane;
    // What NVRTC emits for the CUDA warp intrinsics.
    o[k++] = __shfl_xor_sync(FULL, v, 1);
    o[k++] = __shfl_sync(FULL, v, (int)src, 16);
    o[k++] = __ballot_sync(FULL, key == 1);
    o[k++] = __any_sync(FULL, v & 1);
    o[k++] = __reduce_max_sync(FULL, v);
    o[k++] = __shfl_down_sync(FULL, (u64)v * 0x10001ull + key, 1);
}
