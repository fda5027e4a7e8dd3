// ---------------------------------------------------------------------------------------------
// The tiled kernel (kernels/tiled.cuh) and the coarsened one (kernels/coarsened.cuh) with a
// stopwatch: the same loads, barriers, compute and stores, plus six stamps per warp (per plane of
// the z-march for coarsened) of one chosen block (block_timeline.h). Only the chosen block writes
// stamps, and only the lowest active lane of a warp, so the other blocks run the kernel's own
// instruction stream but for a compare and a branch.
// nvcc compiles this file only: no fmt here (block_timeline.cpp is the host side).
// ---------------------------------------------------------------------------------------------
#include "backends/cuda/block_timeline_launch.h"

#include <type_traits>

#include "backends/cuda/cuda_util.h"
#include "kernels/dispatch.h"
#include "kernels/coarsened.cuh"
#include "kernels/tiled.cuh"
#include "backends/cuda/weights_star.cuh"

namespace stencil::cuda_detail {

namespace {

enum Mark { kStart, kLoaded, kArrived, kReleased, kComputed, kStored };

__device__ __forceinline__ unsigned long long global_ns() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

// The warp's lowest active lane writes the warp's stamp of `mark` (of plane `plane`: a z-marching
// block stamps each plane it computes; the tiled kernel has one). Layout: warp, plane, mark.
struct Stopwatch {
    bool on;
    unsigned long long* cycles;
    unsigned long long* ns;
    int warp;
    int planes = 1;
    __device__ void stamp(int mark, int plane = 0) const {
        if (!on) return;
        const unsigned active = __activemask();
        if ((int)(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) % 32 != __ffs(active) - 1) return;
        const int at = (warp * planes + plane) * 6 + mark;
        cycles[at] = clock64();
        ns[at] = global_ns();
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

// kernels/coarsened.cuh with the stamps: per plane i of the march, `start` before its plane load
// (plane 0's start is the block's, before the 2r planes loaded ahead), `loaded` after it,
// `arrived` / `released` around the first barrier, `computed` and `stored` around the output;
// the second barrier (the plane shift's) lies between a plane's `stored` and the next `start`.
template <typename real, int IN_TILE_DIM, int R>
__global__ void stencil_coarsened_timeline_kernel(const real* in, real* out, int nx, int ny, int nz, int3 chosen,
                                                  unsigned long long* cycles, unsigned long long* ns) {
    constexpr int OUT_TILE_DIM = IN_TILE_DIM - 2 * R;
    __shared__ real plane_s[2 * R + 1][IN_TILE_DIM][IN_TILE_DIM];
    const int ty = threadIdx.y, tx = threadIdx.x;
    const Stopwatch sw{(int)blockIdx.x == chosen.x && (int)blockIdx.y == chosen.y && (int)blockIdx.z == chosen.z,
                       cycles, ns, (int)(ty * blockDim.x + tx) / 32, OUT_TILE_DIM};
    sw.stamp(kStart, 0);
    const int iStart = (int)blockIdx.z * OUT_TILE_DIM;
    const int j = (int)blockIdx.y * OUT_TILE_DIM + ty - R;
    const int k = (int)blockIdx.x * OUT_TILE_DIM + tx - R;
    const bool inside_xy = j >= 0 && j < ny && k >= 0 && k < nx;
    const int sy = nx, sz = nx * ny;
    const int c_xy = j * sy + k;
    for (int p = 0; p < 2 * R; ++p) {
        const int i = iStart - R + p;
        plane_s[p][ty][tx] = (i >= 0 && i < nz && inside_xy) ? (real)in[i * sz + c_xy] : real(0);
    }
    for (int i = iStart; i < iStart + OUT_TILE_DIM; i++) {
        const int plane = i - iStart;
        if (plane > 0) sw.stamp(kStart, plane);
        plane_s[2 * R][ty][tx] = (i + R >= 0 && i + R < nz && inside_xy) ? (real)in[(i + R) * sz + c_xy] : real(0);
        sw.stamp(kLoaded, plane);
        sw.stamp(kArrived, plane);
        __syncthreads();
        sw.stamp(kReleased, plane);
        if (i >= R && i < nz - R && j >= R && j < ny - R && k >= R && k < nx - R) {
            if (ty >= R && ty < IN_TILE_DIM - R && tx >= R && tx < IN_TILE_DIM - R) {
                real sum = coefficient<real>(0) * plane_s[R][ty][tx];
#pragma unroll
                for (int d = 1; d <= R; ++d) {
                    sum += coefficient<real>(coefficient_index(d, XM)) * plane_s[R][ty][tx - d];
                    sum += coefficient<real>(coefficient_index(d, XP)) * plane_s[R][ty][tx + d];
                    sum += coefficient<real>(coefficient_index(d, YM)) * plane_s[R][ty - d][tx];
                    sum += coefficient<real>(coefficient_index(d, YP)) * plane_s[R][ty + d][tx];
                    sum += coefficient<real>(coefficient_index(d, ZM)) * plane_s[R - d][ty][tx];
                    sum += coefficient<real>(coefficient_index(d, ZP)) * plane_s[R + d][ty][tx];
                }
                sw.stamp(kComputed, plane);
                out[i * sz + c_xy] = sum;
            }
        }
        __syncwarp();  // the warp reconverged: its store is done
        sw.stamp(kStored, plane);
        __syncthreads();
#pragma unroll
        for (int p = 0; p < 2 * R; ++p) plane_s[p][ty][tx] = plane_s[p + 1][ty][tx];
    }
}

}  // namespace

bool launch_coarsened_timeline(const TimelineLaunch& l) {
    upload_weights_here(*l.weights, l.precision);
    bool launched = false;
    dispatch<KernelId::coarsened>(l.precision, l.tile, l.radius, [&]<class real, int TT, int RR>() {
        stencil_coarsened_timeline_kernel<real, TT, RR><<<dim3(l.grid.x, l.grid.y, l.grid.z),
                                                          dim3(l.block.x, l.block.y, l.block.z)>>>(
            static_cast<const real*>(l.in), static_cast<real*>(l.out), l.dims.nx, l.dims.ny, l.dims.nz,
            int3{l.chosen[0], l.chosen[1], l.chosen[2]}, l.cycles, l.ns);
        launched = true;
    });
    if (launched) check_launch("the instrumented coarsened kernel", true);
    return launched;
}

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
