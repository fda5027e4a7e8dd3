// ---------------------------------------------------------------------------------------------
// The tiled kernel (kernels/tiled.cuh) with a stopwatch: the same loads, barrier, compute and
// store, plus six stamps per warp of one chosen block (block_timeline.h). Only the chosen block
// writes stamps, and only the lowest active lane of a warp, so the other blocks run the kernel's
// own instruction stream but for a compare and a branch.
// nvcc compiles this file only: no fmt here (block_timeline.cpp is the host side).
// ---------------------------------------------------------------------------------------------
#include "backends/cuda/block_timeline_launch.h"

#include <type_traits>

#include "backends/cuda/cuda_util.h"
#include "kernels/dispatch.h"
#include "kernels/tiled.cuh"
#include "backends/cuda/kernel_table.cuh"

namespace stencil::cuda_detail {

namespace {

enum Mark { kStart, kLoaded, kArrived, kReleased, kComputed, kStored };

__device__ __forceinline__ unsigned long long global_ns() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

// Lane `leader` of the warp (its lowest active lane) writes the warp's stamp of `mark`.
struct Stopwatch {
    bool on;
    unsigned long long* cycles;
    unsigned long long* ns;
    int warp;
    __device__ void stamp(int mark) const {
        if (!on) return;
        const unsigned active = __activemask();
        if ((int)(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) % 32 != __ffs(active) - 1) return;
        cycles[warp * 6 + mark] = clock64();
        ns[warp * 6 + mark] = global_ns();
    }
};

template <typename real, int IN_TILE_DIM, int R>
__global__ void stencil_tiled_timeline_kernel(const real* in, real* out, int nx, int ny, int nz, int3 chosen,
                                              unsigned long long* cycles, unsigned long long* ns) {
    constexpr int OUT_TILE_DIM = IN_TILE_DIM - 2 * R;
    __shared__ real in_s[IN_TILE_DIM][IN_TILE_DIM][IN_TILE_DIM];
    const int tz = threadIdx.z, ty = threadIdx.y, tx = threadIdx.x;
    const Stopwatch sw{(int)blockIdx.x == chosen.x && (int)blockIdx.y == chosen.y && (int)blockIdx.z == chosen.z,
                       cycles, ns, (int)((tz * blockDim.y + ty) * blockDim.x + tx) / 32};
    sw.stamp(kStart);
    const int i = (int)blockIdx.z * OUT_TILE_DIM + tz - R;
    const int j = (int)blockIdx.y * OUT_TILE_DIM + ty - R;
    const int k = (int)blockIdx.x * OUT_TILE_DIM + tx - R;
    const int sy = nx, sz = nx * ny;
    const int c = i * sz + j * sy + k;
    if (i >= 0 && i < nz && j >= 0 && j < ny && k >= 0 && k < nx) in_s[tz][ty][tx] = in[c];
    sw.stamp(kLoaded);
    sw.stamp(kArrived);
    __syncthreads();
    sw.stamp(kReleased);
    if (i >= R && i < nz - R && j >= R && j < ny - R && k >= R && k < nx - R) {
        if (tz >= R && tz < IN_TILE_DIM - R && ty >= R && ty < IN_TILE_DIM - R && tx >= R && tx < IN_TILE_DIM - R) {
            real sum = coefficient<real>(0) * in_s[tz][ty][tx];
#pragma unroll
            for (int d = 1; d <= R; ++d) {
                sum += coefficient<real>(coefficient_index(d, XM)) * in_s[tz][ty][tx - d];
                sum += coefficient<real>(coefficient_index(d, XP)) * in_s[tz][ty][tx + d];
                sum += coefficient<real>(coefficient_index(d, YM)) * in_s[tz][ty - d][tx];
                sum += coefficient<real>(coefficient_index(d, YP)) * in_s[tz][ty + d][tx];
                sum += coefficient<real>(coefficient_index(d, ZM)) * in_s[tz - d][ty][tx];
                sum += coefficient<real>(coefficient_index(d, ZP)) * in_s[tz + d][ty][tx];
            }
            sw.stamp(kComputed);
            out[c] = sum;
        }
    }
    __syncwarp();  // the warp reconverged: its store is done
    sw.stamp(kStored);
}

}  // namespace

bool launch_tiled_timeline(const TimelineLaunch& l) {
    upload_weights_here(*l.weights, l.precision);
    bool launched = false;
    dispatch<KernelId::tiled>(l.precision, l.tile, l.radius, [&]<class real, int TT, int RR>() {
        stencil_tiled_timeline_kernel<real, TT, RR><<<dim3(l.grid.x, l.grid.y, l.grid.z),
                                                      dim3(l.block.x, l.block.y, l.block.z)>>>(
            static_cast<const real*>(l.in), static_cast<real*>(l.out), l.dims.nx, l.dims.ny, l.dims.nz,
            int3{l.chosen[0], l.chosen[1], l.chosen[2]}, l.cycles, l.ns);
        launched = true;
    });
    if (launched) check_launch("the instrumented tiled kernel", true);
    return launched;
}

}  // namespace stencil::cuda_detail
