// Deliberately broken kernels, each with the diagnosis the CPU backend must give. They are the
// real kernels (kernels/*.cuh) with one line changed, so a student recognises the bug.
//
//   tiled_no_barrier          tiled without the barrier between tile load and compute -> race
//   coarsened_no_shift_barrier coarsened without the barrier before the plane shift   -> race
//   tiled_missing_halo        threadIdx.x == 0 never loads its cell (a halo column)
//                                                          -> uninitialized shared read, no race
//   divergent_barrier         __syncthreads() in both branches of a divergent if  -> divergent_barrier
//   early_return              threads return before a barrier others wait at  -> exit_before_barrier
//   out_of_bounds             naive without the boundary test: reads in[-1]    -> out_of_bounds
//   throws                    kernel code throws                                -> kernel_exception
#pragma once
#include <stdexcept>

#include "kernels/stencil_coefficients.cuh"

namespace broken {

using stencil::coefficient;
using stencil::coefficient_index;
using stencil::XM;
using stencil::XP;
using stencil::YM;
using stencil::YP;
using stencil::ZM;
using stencil::ZP;

// The tiled kernel's compute phase, shared by the tiled variants below.
template <typename real, int IN_TILE_DIM, int R, typename Tile, typename Out>
__device__ inline void tiled_compute(Tile& in_s, Out out, int i, int j, int k, long long c, int nx, int ny, int nz) {
    const int tz = threadIdx.z, ty = threadIdx.y, tx = threadIdx.x;
    if (i >= R && i < nz - R && j >= R && j < ny - R && k >= R && k < nx - R) {
        if (tz >= R && tz < IN_TILE_DIM - R && ty >= R && ty < IN_TILE_DIM - R && tx >= R && tx < IN_TILE_DIM - R) {
            real sum = coefficient<real>(0) * in_s[tz][ty][tx];
            for (int d = 1; d <= R; ++d) {
                sum += coefficient<real>(coefficient_index(d, XM)) * in_s[tz][ty][tx - d];
                sum += coefficient<real>(coefficient_index(d, XP)) * in_s[tz][ty][tx + d];
                sum += coefficient<real>(coefficient_index(d, YM)) * in_s[tz][ty - d][tx];
                sum += coefficient<real>(coefficient_index(d, YP)) * in_s[tz][ty + d][tx];
                sum += coefficient<real>(coefficient_index(d, ZM)) * in_s[tz - d][ty][tx];
                sum += coefficient<real>(coefficient_index(d, ZP)) * in_s[tz + d][ty][tx];
            }
            out[c] = sum;
        }
    }
}

template <typename real, int IN_TILE_DIM, int R, typename In, typename Out>
__global__ void tiled_no_barrier(In in, Out out, int nx, int ny, int nz) {
    constexpr int OUT_TILE_DIM = IN_TILE_DIM - 2 * R;
    __shared__ Shared<real> in_s[IN_TILE_DIM][IN_TILE_DIM][IN_TILE_DIM];
    const int tz = threadIdx.z, ty = threadIdx.y, tx = threadIdx.x;
    const int i = (int)blockIdx.z * OUT_TILE_DIM + tz - R;
    const int j = (int)blockIdx.y * OUT_TILE_DIM + ty - R;
    const int k = (int)blockIdx.x * OUT_TILE_DIM + tx - R;
    const long long c = i * (long long)nx * ny + j * (long long)nx + k;
    if (i >= 0 && i < nz && j >= 0 && j < ny && k >= 0 && k < nx) in_s[tz][ty][tx] = in[c];
    // BUG: no __syncthreads() here.
    tiled_compute<real, IN_TILE_DIM, R>(in_s, out, i, j, k, c, nx, ny, nz);
}

template <typename real, int IN_TILE_DIM, int R, typename In, typename Out>
__global__ void tiled_missing_halo(In in, Out out, int nx, int ny, int nz) {
    constexpr int OUT_TILE_DIM = IN_TILE_DIM - 2 * R;
    __shared__ Shared<real> in_s[IN_TILE_DIM][IN_TILE_DIM][IN_TILE_DIM];
    const int tz = threadIdx.z, ty = threadIdx.y, tx = threadIdx.x;
    const int i = (int)blockIdx.z * OUT_TILE_DIM + tz - R;
    const int j = (int)blockIdx.y * OUT_TILE_DIM + ty - R;
    const int k = (int)blockIdx.x * OUT_TILE_DIM + tx - R;
    const long long c = i * (long long)nx * ny + j * (long long)nx + k;
    // BUG: the threads of column tx == 0 (the x-halo) skip their load.
    if (tx != 0 && i >= 0 && i < nz && j >= 0 && j < ny && k >= 0 && k < nx) in_s[tz][ty][tx] = in[c];
    __syncthreads();
    tiled_compute<real, IN_TILE_DIM, R>(in_s, out, i, j, k, c, nx, ny, nz);
}

template <typename real, int IN_TILE_DIM, int R, typename In, typename Out>
__global__ void coarsened_no_shift_barrier(In in, Out out, int nx, int ny, int nz) {
    constexpr int OUT_TILE_DIM = IN_TILE_DIM - 2 * R;
    __shared__ Shared<real> plane_s[2 * R + 1][IN_TILE_DIM][IN_TILE_DIM];
    const int ty = threadIdx.y, tx = threadIdx.x;
    const int iStart = (int)blockIdx.z * OUT_TILE_DIM;
    const int j = (int)blockIdx.y * OUT_TILE_DIM + ty - R;
    const int k = (int)blockIdx.x * OUT_TILE_DIM + tx - R;
    const bool inside_xy = j >= 0 && j < ny && k >= 0 && k < nx;
    const long long sy = nx, sz = (long long)nx * ny;
    const long long c_xy = j * sy + k;
    for (int p = 0; p < 2 * R; ++p) {
        const int i = iStart - R + p;
        plane_s[p][ty][tx] = (i >= 0 && i < nz && inside_xy) ? (real)in[i * sz + c_xy] : real(0);
    }
    for (int i = iStart; i < iStart + OUT_TILE_DIM; i++) {
        plane_s[2 * R][ty][tx] = (i + R >= 0 && i + R < nz && inside_xy) ? (real)in[(i + R) * sz + c_xy] : real(0);
        __syncthreads();
        if (i >= R && i < nz - R && j >= R && j < ny - R && k >= R && k < nx - R) {
            if (ty >= R && ty < IN_TILE_DIM - R && tx >= R && tx < IN_TILE_DIM - R) {
                real sum = coefficient<real>(0) * plane_s[R][ty][tx];
                for (int d = 1; d <= R; ++d) {
                    sum += coefficient<real>(coefficient_index(d, XM)) * plane_s[R][ty][tx - d];
                    sum += coefficient<real>(coefficient_index(d, XP)) * plane_s[R][ty][tx + d];
                    sum += coefficient<real>(coefficient_index(d, YM)) * plane_s[R][ty - d][tx];
                    sum += coefficient<real>(coefficient_index(d, YP)) * plane_s[R][ty + d][tx];
                    sum += coefficient<real>(coefficient_index(d, ZM)) * plane_s[R - d][ty][tx];
                    sum += coefficient<real>(coefficient_index(d, ZP)) * plane_s[R + d][ty][tx];
                }
                out[i * sz + c_xy] = sum;
            }
        }
        // BUG: no __syncthreads() before the shift.
        for (int p = 0; p < 2 * R; ++p) plane_s[p][ty][tx] = plane_s[p + 1][ty][tx];
    }
}

template <typename real, typename In, typename Out>
__global__ void divergent_barrier(In in, Out out, int nx, int, int) {
    __shared__ Shared<real> s[64];
    const int t = threadIdx.x;
    s[t] = in[t % nx];
    if (t < 4) {
        __syncthreads();  // BUG: half of a divergent pair of barriers
        out[t] = s[(t + 1) % 64];
    } else {
        __syncthreads();
        out[t % nx] = s[t];
    }
}

template <typename real, typename In, typename Out>
__global__ void early_return(In in, Out out, int nx, int, int) {
    __shared__ Shared<real> s[64];
    const int t = threadIdx.x;
    if (t >= nx) return;  // BUG: these threads never reach the barrier below
    s[t] = in[t];
    __syncthreads();
    out[t] = s[(t + 1) % nx];
}

template <typename real, typename In, typename Out>
__global__ void out_of_bounds(In in, Out out, int nx, int, int) {
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < nx) out[t] = in[t - 1];  // BUG: t = 0 reads in[-1]
}

template <typename real, typename In, typename Out>
__global__ void throws(In, Out, int, int, int) {
    if (threadIdx.x == 3) throw std::runtime_error("boom");
}

}  // namespace broken
