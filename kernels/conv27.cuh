// ---------------------------------------------------------------------------------------------
// The 7-point stencil as a dense 3x3x3 convolution: one thread per output, every offset of the
// (2r+1)^3 cube multiplied by its weight, the 20 off-axis weights (at r = 1) being zero.
//
// Text 000 asks what a stencil costs when it is written as a convolution (as a cuDNN call would
// compute it). This kernel answers by running it: the same launch, the same cells loaded from
// DRAM and the same output as naive (kernels/naive.cuh), but every output does 27 multiplies and
// 26 adds (53 FLOP) where the star needs 7 and 6 (13), and issues 27 global loads instead of 7
// (the extra 20 are neighbours other threads also load: caches serve them, DRAM does not see
// them). At radius r the cube is (2r+1)^3 points, 2 (2r+1)^3 - 1 FLOP; the name stays conv27.
//
// The weights are one __constant__ array of the cube (x fastest, like the grid), filled by the
// host from the star's c0..c{6r}: the centre takes c0, each axis cell its star weight, every
// other cell 0 (kernels/dense_weights.h). The kernel cannot tell which weights are zero, so it
// multiplies them all: that is the point.
//
// Why the zero terms do not change the result: each step is sum + w * x (or fma(w, x, sum));
// with w = 0 and x finite, w * x is an exact zero and sum + 0 is sum, exactly, in any rounding
// mode. Only an infinite or NaN x would turn 0 * x into NaN, and the inputs are finite. So the
// output is the sum of the 6r + 1 star terms, one at a time in the cube's order (z, then y, then
// x), which the checker's bound gamma_{6r+1} sum |w_i x_i| covers in any order, with or without
// FMA (core/compare.h). It is not bit for bit naive's sum: the terms come in another order.
//
// Launch: blocks of (T, T, T) threads (naive's contract), ceil(n / T) blocks per axis.
// Boundary: cells within r of a face are never written; they keep the input's values.
// ---------------------------------------------------------------------------------------------
#pragma once
// Plain CUDA C++: nvcc (the GPU backend) and NVRTC (the PTX engine) compile this file unchanged.
#include "kernels/stencil_shape.h"

namespace stencil {

// The cube's weights, sized for the largest radius; a kernel of radius R reads the first
// (2R+1)^3. Static: each translation unit that launches has its own copy and fills it.
static __constant__ float c_dense_weights_f32[dense_point_count(kMaxRadius)];
static __constant__ double c_dense_weights_f64[dense_point_count(kMaxRadius)];

template <class real>
__device__ inline real dense_weight(int n);
template <>
__device__ inline float dense_weight<float>(int n) { return c_dense_weights_f32[n]; }
template <>
__device__ inline double dense_weight<double>(int n) { return c_dense_weights_f64[n]; }

// __launch_bounds__(1024): T is chosen at run time, up to a 10^3 = 1000-thread block, so the
// compiler must keep within the 64 registers a thread of such a block may have. Unrolled, the
// cube's (2r+1)^3 loads would otherwise invite it to hold far more in flight.
template <typename real, int R>
__global__ void __launch_bounds__(1024) stencil_conv27_kernel(const real* in, real* out, int nx, int ny, int nz) {
    // naive's names: i walks z (slowest), j walks y, k walks x (fastest, contiguous).
    const int i = blockIdx.z * blockDim.z + threadIdx.z;
    const int j = blockIdx.y * blockDim.y + threadIdx.y;
    const int k = blockIdx.x * blockDim.x + threadIdx.x;

    // Only interior cells are updated: the r cells next to each face are fixed boundary values.
    if (i >= R && i < nz - R && j >= R && j < ny - R && k >= R && k < nx - R) {
        const int sy = nx, sz = nx * ny;  // 32-bit offsets, as naive (grid_error caps the grid)
        const int c = i * sz + j * sy + k;

        // The convolution as a textbook writes it: a running sum over the filter window.
        real sum = real(0);
#pragma unroll
        for (int dz = -R; dz <= R; ++dz)
#pragma unroll
            for (int dy = -R; dy <= R; ++dy)
#pragma unroll
                for (int dx = -R; dx <= R; ++dx)
                    sum += dense_weight<real>(dense_index(dx, dy, dz, R)) * in[c + dz * sz + dy * sy + dx];
        out[c] = sum;
    }
}

}  // namespace stencil
