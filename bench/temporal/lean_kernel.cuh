// The lean strip (a variant for bench/temporal/): strip_kernel.cuh's shape, march and edge tile,
// without two kinds of instructions that are not the stencil's.
//   - Boundary selects. A block whose whole tile lies at least R cells inside the grid in x and y
//     (most blocks of a large grid) marches a copy of the loop with no per-cell test: its only
//     boundary is in z, the same plane for the whole block, so one uniform branch a level replaces
//     a test and a select a cell. Blocks on an x or y face run the checked copy (strip_kernel's).
//   - Queue moves (ROTATE). Pushing a plane into a queue of 2R + 1 registers moves 2R of them, for
//     every cell and level, every step. Unrolling the march over 2R + 1 steps lets each step name
//     the queue's slots in rotation instead, so a push writes the oldest slot and moves nothing.
// Results equal strip_kernel's bit for bit: the same terms in the same order.
#pragma once
#include "kernels/stencil_coefficients.cuh"
#include "bench/temporal/strip_kernel.cuh"  // strip_masks
#include "kernels/temporal.cuh"                // temporal_planes

namespace bench {

template <typename real, int BY, int C, int X, int R, int K, bool ROTATE>
struct LeanStrip {
    static constexpr int P = 2 * R + 1, HALO = R * K, W = 32 * X, H = BY * C;
    static constexpr int OUT_W = W - 2 * HALO, OUT_H = H - 2 * HALO;
    static constexpr int EDGE_CELLS = K * BY * 2 * R * X * 32;  // one buffer of the edge tile
    static_assert(R <= C && OUT_W >= 1 && OUT_H >= 1 && C * X <= 32, "strip shape");

    // Physical slot of logical queue slot s (0: oldest plane, 2R: newest) when the oldest is `rot`.
    static constexpr int slot(int rot, int s) { return ROTATE ? (rot + s) % P : s; }

    real q[K][P][C][X];  // level t around the plane level t + 1 computes, in rotation
    real next[C][X];     // the input plane the next step pushes
    const real* __restrict__ in;
    real* __restrict__ out;
    real* edges;  // [2][K][BY][2R][X][32]
    int nz, sy, sz, c_xy, lane, ty, up, down, iBegin, iEnd, pEnd;
    unsigned inside, interior, writes;  // bit c X + e

    __device__ __forceinline__ real& edge(int buf, int t, int strip, int row, int e) {
        return edges[buf * EDGE_CELLS + (((t * BY + strip) * 2 * R + row) * X + e) * 32 + lane];
    }

    __device__ __forceinline__ void load_next(int plane, bool more) {
#pragma unroll
        for (int c = 0; c < C; ++c)
#pragma unroll
            for (int e = 0; e < X; ++e)
                next[c][e] = more && ((inside >> (c * X + e)) & 1u) ? in[plane * sz + c_xy + c * sy + e] : real(0);
    }

    // One step of the march: plane p enters level 0, level t computes plane p - t R. ROT: the
    // queues' oldest slot when the step begins (always 0 without ROTATE). CHECK: the block touches
    // an x or y face.
    template <int ROT, bool CHECK>
    __device__ __forceinline__ void step(int p, int buf) {
        using stencil::coefficient;
        using stencil::coefficient_index;
        constexpr int NEW = ROTATE ? (ROT + 1) % P : 0;  // the oldest slot after this step's pushes
#pragma unroll
        for (int t = 0; t < K; ++t)
#pragma unroll
            for (int s = 0; s < R; ++s)
#pragma unroll
                for (int e = 0; e < X; ++e) {
                    edge(buf, t, ty, s, e) = q[t][slot(ROT, R + 1)][s][e];
                    edge(buf, t, ty, R + s, e) = q[t][slot(ROT, R + 1)][C - R + s][e];
                }
        __syncthreads();

        push_at<ROT>(q[0], next);
        load_next(p + 1, p + 1 < nz && p + 1 < pEnd);

#pragma unroll
        for (int t = 1; t <= K; ++t) {
            const int i = p - t * R;
            const bool plane_interior = i >= R && i < nz - R;
            const real(&src)[P][C][X] = q[t - 1];
            real v[C][X];
            if (CHECK || plane_interior) {
#pragma unroll
                for (int c = 0; c < C; ++c)
#pragma unroll
                    for (int e = 0; e < X; ++e) {
                        const real centre = src[slot(NEW, R)][c][e];
                        real sum = coefficient<real>(0) * centre;
#pragma unroll
                        for (int d = 1; d <= R; ++d) {
                            const int pm = e - d, pp = e + d;
                            const int lm = pm >= 0 ? pm / X : -((-pm + X - 1) / X), lp = pp / X;
                            real xm = src[slot(NEW, R)][c][pm - lm * X], xp = src[slot(NEW, R)][c][pp - lp * X];
                            if (lm != 0) xm = __shfl_up_sync(0xffffffffu, xm, -lm);
                            if (lp != 0) xp = __shfl_down_sync(0xffffffffu, xp, lp);
                            const real ym = c - d >= 0 ? src[slot(NEW, R)][c - d >= 0 ? c - d : 0][e]
                                                       : edge(buf, t - 1, up, 2 * R + c - d, e);
                            const real yp = c + d < C ? src[slot(NEW, R)][c + d < C ? c + d : 0][e]
                                                      : edge(buf, t - 1, down, c + d - C, e);
                            sum += coefficient<real>(coefficient_index(d, stencil::XM)) * xm;
                            sum += coefficient<real>(coefficient_index(d, stencil::XP)) * xp;
                            sum += coefficient<real>(coefficient_index(d, stencil::YM)) * ym;
                            sum += coefficient<real>(coefficient_index(d, stencil::YP)) * yp;
                            sum += coefficient<real>(coefficient_index(d, stencil::ZM)) * src[slot(NEW, R - d)][c][e];
                            sum += coefficient<real>(coefficient_index(d, stencil::ZP)) * src[slot(NEW, R + d)][c][e];
                        }
                        if (CHECK) v[c][e] = plane_interior && ((interior >> (c * X + e)) & 1u) ? sum : centre;
                        else v[c][e] = sum;
                    }
            } else {
#pragma unroll
                for (int c = 0; c < C; ++c)
#pragma unroll
                    for (int e = 0; e < X; ++e) v[c][e] = src[slot(NEW, R)][c][e];
            }
            if (t < K) {
                push_at<ROT>(q[t], v);
            } else if (i >= iBegin && i < iEnd) {
#pragma unroll
                for (int c = 0; c < C; ++c)
#pragma unroll
                    for (int e = 0; e < X; ++e)
                        if ((writes >> (c * X + e)) & 1u) out[i * sz + c_xy + c * sy + e] = v[c][e];
            }
        }
    }

    // The newest plane joins a queue: into the oldest slot (ROTATE), or every plane moves up one.
    template <int ROT>
    __device__ __forceinline__ void push_at(real (&queue)[P][C][X], const real (&newest)[C][X]) {
        constexpr int to = ROTATE ? ROT : 2 * R;
        if constexpr (!ROTATE) {
#pragma unroll
            for (int s = 0; s < 2 * R; ++s)
#pragma unroll
                for (int c = 0; c < C; ++c)
#pragma unroll
                    for (int e = 0; e < X; ++e) queue[s][c][e] = queue[s + 1][c][e];
        }
#pragma unroll
        for (int c = 0; c < C; ++c)
#pragma unroll
            for (int e = 0; e < X; ++e) queue[to][c][e] = newest[c][e];
    }

    // The march from `first` to pEnd, steps unrolled in rotation; `tail` runs the last < P steps.
    template <bool CHECK>
    __device__ __forceinline__ void march(int first) {
        int p = first, buf = 0;
        if constexpr (ROTATE) {
            for (; p + P <= pEnd; p += P) rotation<0, CHECK>(p, buf);
            tail<0, CHECK>(p, buf);
        } else {
            for (; p < pEnd; ++p, buf ^= 1) step<0, CHECK>(p, buf);
        }
    }
    template <int ROT, bool CHECK>
    __device__ __forceinline__ void rotation(int p, int& buf) {
        step<ROT, CHECK>(p + ROT, buf);
        buf ^= 1;
        if constexpr (ROT + 1 < P) rotation<ROT + 1, CHECK>(p, buf);
    }
    template <int ROT, bool CHECK>
    __device__ __forceinline__ void tail(int p, int buf) {
        if constexpr (ROT + 1 < P) {
            if (p < pEnd) {
                step<ROT, CHECK>(p, buf);
                tail<ROT + 1, CHECK>(p + 1, buf ^ 1);
            }
        }
    }
};

template <typename real, int BY, int C, int X, int R, int K, bool ROTATE>
constexpr int lean_edge_bytes() {
    return 2 * LeanStrip<real, BY, C, X, R, K, ROTATE>::EDGE_CELLS * (int)sizeof(real);
}

// MIN_BLOCKS: __launch_bounds__' blocks an SM must hold (a register cap of 64 K / (32 BY MIN_BLOCKS)).
template <typename real, int BY, int C, int X, int R, int K, bool ROTATE, int MIN_BLOCKS = 1>
__global__ void __launch_bounds__(32 * BY, MIN_BLOCKS)
lean_kernel(const real* __restrict__ in, real* __restrict__ out, int nx, int ny, int nz) {
    using S = LeanStrip<real, BY, C, X, R, K, ROTATE>;
    extern __shared__ __align__(16) unsigned char lean_smem[];
    S s;
    s.in = in;
    s.out = out;
    s.edges = reinterpret_cast<real*>(lean_smem);
    s.nz = nz;
    s.sy = nx;
    s.sz = nx * ny;
    s.lane = threadIdx.x;
    s.ty = threadIdx.y;
    s.up = s.ty > 0 ? s.ty - 1 : 0;
    s.down = s.ty < BY - 1 ? s.ty + 1 : BY - 1;
    const int tile_x = (int)blockIdx.x * S::OUT_W - S::HALO, tile_y = (int)blockIdx.y * S::OUT_H - S::HALO;
    const int x0 = tile_x + s.lane * X, y0 = tile_y + s.ty * C;
    s.c_xy = y0 * s.sy + x0;
    const StripMasks masks = strip_masks<C, X, R, S::W, S::H, S::HALO>(x0, y0, s.lane, s.ty, nx, ny);
    s.inside = masks.inside;
    s.interior = masks.interior;
    s.writes = masks.writes;
#pragma unroll
    for (int t = 0; t < K; ++t)
#pragma unroll
        for (int q = 0; q < S::P; ++q)
#pragma unroll
            for (int c = 0; c < C; ++c)
#pragma unroll
                for (int e = 0; e < X; ++e) s.q[t][q][c][e] = real(0);

    const stencil::TemporalPlanes planes = stencil::temporal_planes(nz, R, S::HALO);
    s.iBegin = planes.iBegin;
    s.iEnd = planes.iEnd;
    s.pEnd = planes.pEnd;
    if (planes.iBegin >= planes.iEnd) return;
    s.load_next(planes.pBegin, planes.pBegin < nz);
    // The whole tile at least R inside the grid in x and y: the same for every thread of the block.
    const bool interior_block =
        tile_x >= R && tile_x + S::W <= nx - R && tile_y >= R && tile_y + S::H <= ny - R;
    if (interior_block) s.template march<false>(planes.pBegin);
    else s.template march<true>(planes.pBegin);
}

}  // namespace bench
