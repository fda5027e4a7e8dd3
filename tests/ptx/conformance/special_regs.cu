// Special registers: %tid, %ntid, %ctaid, %nctaid (x, y, z) in a 3D launch, %laneid, the lane
// masks %lanemask_eq/lt/le/gt/ge and %dynamic_smem_size (the cluster registers: extended.cu).
//
// %warpid and %nwarpid are implementation-defined (the ISA: %warpid "may change during
// execution"), so their values are not pinned: only %warpid < %nwarpid is. %smid, %clock,
// %globaltimer are not deterministic and are left out. Lanes and warps follow CUDA's rule: the
// threads of a block, numbered x fastest, then y, then z, form warps of 32 consecutive threads.
//
// No inputs. Thread (block b, thread t), numbered linearly, writes to out[(b * threads per block
// + t) * K + k]. See int_arith.cu for the rest of the ABI.

typedef unsigned int u32;
typedef unsigned long long u64;


//! kernel sregs in= block=8,4,2 grid=3,2,2
//! out u32 %tid.x %tid.y %tid.z %ntid.x %ntid.y %ntid.z %ctaid.x %ctaid.y %ctaid.z %nctaid.x %nctaid.y %nctaid.z
//! out u32 %laneid %lanemask_eq %lanemask_lt %lanemask_le %lanemask_gt %lanemask_ge
//! out u32 %warpid<%nwarpid %dynamic_smem_size
//! out u32 C++:threadIdx.x+blockDim.x*blockIdx.x
#define K 21
extern "C" __global__ void sregs(const u64* in, u64* out, int n) {
    u32 v[K];
    int k = 0;
#define S(name) asm volatile("mov.u32 %0, %%" name ";" : "=r"(v[k])); ++k;
    S("tid.x") S("tid.y") S("tid.z") S("ntid.x") S("ntid.y") S("ntid.z")
    S("ctaid.x") S("ctaid.y") S("ctaid.z") S("nctaid.x") S("nctaid.y") S("nctaid.z")
    S("laneid") S("lanemask_eq") S("lanemask_lt") S("lanemask_le") S("lanemask_gt") S("lanemask_ge")
    {
        u32 w, nw;
        asm volatile("mov.u32 %0, %%warpid;" : "=r"(w));
        asm volatile("mov.u32 %0, %%nwarpid;" : "=r"(nw));
        v[k++] = w < nw;
    }
    S("dynamic_smem_size")
    v[k++] = threadIdx.x + blockDim.x * blockIdx.x;
    const u32 block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    const u32 thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    const u64 i = (u64)block * (blockDim.x * blockDim.y * blockDim.z) + thread;
    if (i >= (u64)n) return;
    for (int j = 0; j < K; ++j) out[i * K + j] = v[j];
}
