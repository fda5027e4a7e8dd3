// The strip design of temporal blocking (a variant for bench/temporal/): the lab's kernel with a
// thread owning a C x X strip of cells (C rows in y, X cells in x) instead of one column, a warp
// owning whole rows of the tile.
//   - x-neighbours come from the neighbouring lanes (warp shuffles) or the thread's own registers;
//   - y-neighbours from the thread's own registers, except the R rows beyond each end of its
//     strip, which the strips above and below publish in shared memory;
//   - every level's edge rows of a plane are published at once, double-buffered: one barrier a
//     plane, amortised over C X cells and K levels.
// The tile is 32 X wide and BY C tall; level K is valid on (32 X - 2RK) x (BY C - 2RK).
#pragma once
#include "kernels/stencil_coefficients.cuh"
#include "kernels/temporal.cuh"  // temporal_planes

namespace bench {

// The edge tile's bytes: the launch's dynamic shared memory.
template <typename real, int BY, int X, int R, int K>
constexpr int strip_edge_bytes() {
    return 2 * K * BY * 2 * R * X * 32 * (int)sizeof(real);
}

// Which of a thread's C x X cells (bit c X + e) lie in the grid, in its interior (they compute),
// and in level K's band inside the interior (they are written). (x0, y0): the thread's first cell;
// (lane X, ty C): its place in the W x H tile, whose halo is HALO wide.
struct StripMasks {
    unsigned inside = 0, interior = 0, writes = 0;
};
template <int C, int X, int R, int W, int H, int HALO>
__device__ inline StripMasks strip_masks(int x0, int y0, int lane, int ty, int nx, int ny) {
    StripMasks m;
#pragma unroll
    for (int c = 0; c < C; ++c)
#pragma unroll
        for (int e = 0; e < X; ++e) {
            const int x = x0 + e, y = y0 + c, bit = c * X + e;
            const bool in_grid = x >= 0 && x < nx && y >= 0 && y < ny;
            const bool in_interior = x >= R && x < nx - R && y >= R && y < ny - R;
            const bool in_out = lane * X + e >= HALO && lane * X + e < W - HALO && ty * C + c >= HALO &&
                                ty * C + c < H - HALO;
            m.inside |= unsigned(in_grid) << bit;
            m.interior |= unsigned(in_interior) << bit;
            m.writes |= unsigned(in_interior && in_out) << bit;
        }
    return m;
}

// One function because it is one kernel: its shared edges and register queues live across the whole
// march.
// AHEAD: how many planes ahead of the march the input is loaded (1 or 2: more bytes in flight for
// the same warps). UNROLL: the march unrolled over 2 (2R + 1) planes, so that the register queues'
// shifts and the double buffer's index become renamings instead of moves.
template <typename real, int BY, int C, int X, int R, int K, int MIN_BLOCKS = 1, int AHEAD = 1, bool UNROLL = false>
__global__ void __launch_bounds__(32 * BY, MIN_BLOCKS)
strip_kernel(const real* __restrict__ in, real* __restrict__ out, int nx, int ny, int nz) {
    using stencil::coefficient;
    using stencil::coefficient_index;
    constexpr int HALO = R * K;
    constexpr int W = 32 * X, H = BY * C;
    constexpr int OUT_W = W - 2 * HALO, OUT_H = H - 2 * HALO;
    static_assert(R <= C && OUT_W >= 1 && OUT_H >= 1 && C * X <= 32, "strip shape");
    static_assert(AHEAD == 1 || AHEAD == 2, "one or two planes ahead");
    // edge_s[buf][t][strip][slot][e][lane]: level t's rows 0..R-1 (slots 0..R-1) and C-R..C-1
    // (slots R..2R-1) of each strip, at the plane level t + 1 computes in this step.
    // Dynamic shared memory (strip_edge_bytes), so that a tile may pass the 48 KiB of a static array.
    extern __shared__ __align__(16) unsigned char strip_smem[];
    auto& edge_s = *reinterpret_cast<real(*)[2][K][BY][2 * R][X][32]>(strip_smem);
    real q[K][2 * R + 1][C][X];
#pragma unroll
    for (int t = 0; t < K; ++t)
#pragma unroll
        for (int s = 0; s <= 2 * R; ++s)
#pragma unroll
            for (int c = 0; c < C; ++c)
#pragma unroll
                for (int e = 0; e < X; ++e) q[t][s][c][e] = real(0);

    const int lane = threadIdx.x, ty = threadIdx.y;
    const int up = ty > 0 ? ty - 1 : 0, down = ty < BY - 1 ? ty + 1 : BY - 1;
    const int x0 = (int)blockIdx.x * OUT_W - HALO + lane * X;
    const int y0 = (int)blockIdx.y * OUT_H - HALO + ty * C;
    const int sy = nx, sz = nx * ny;
    const StripMasks masks = strip_masks<C, X, R, W, H, HALO>(x0, y0, lane, ty, nx, ny);
    const unsigned inside = masks.inside, interior = masks.interior, writes = masks.writes;  // bit c X + e
    const int c_xy = y0 * sy + x0;

    const stencil::TemporalPlanes planes = stencil::temporal_planes(nz, R, HALO);  // as the lab's kernel
    const int iBegin = planes.iBegin, iEnd = planes.iEnd, pBegin = planes.pBegin, pEnd = planes.pEnd;
    if (iBegin >= iEnd) return;

    // next[a]: plane p + a at the start of step p (loaded AHEAD steps before it is pushed).
    real next[AHEAD][C][X];
#pragma unroll
    for (int a = 0; a < AHEAD; ++a)
#pragma unroll
        for (int c = 0; c < C; ++c)
#pragma unroll
            for (int e = 0; e < X; ++e)
                next[a][c][e] = pBegin + a < pEnd && pBegin + a < nz && ((inside >> (c * X + e)) & 1u)
                                    ? in[(pBegin + a) * sz + c_xy + c * sy + e]
                                    : real(0);

    constexpr int MARCH_UNROLL = UNROLL ? 2 * (2 * R + 1) : 1;
#pragma unroll MARCH_UNROLL
    for (int p = pBegin; p < pEnd; ++p) {
        const int buf = (p - pBegin) & 1;
        // Every level's edge rows of the plane the next level computes: queue slot R + 1 before
        // this step's pushes.
#pragma unroll
        for (int t = 0; t < K; ++t)
#pragma unroll
            for (int s = 0; s < R; ++s)
#pragma unroll
                for (int e = 0; e < X; ++e) {
                    edge_s[buf][t][ty][s][e][lane] = q[t][R + 1][s][e];
                    edge_s[buf][t][ty][R + s][e][lane] = q[t][R + 1][C - R + s][e];
                }
        __syncthreads();

#pragma unroll
        for (int s = 0; s < 2 * R; ++s)
#pragma unroll
            for (int c = 0; c < C; ++c)
#pragma unroll
                for (int e = 0; e < X; ++e) q[0][s][c][e] = q[0][s + 1][c][e];
        const bool more = p + AHEAD < nz && p + AHEAD < pEnd;
#pragma unroll
        for (int c = 0; c < C; ++c)
#pragma unroll
            for (int e = 0; e < X; ++e) {
                q[0][2 * R][c][e] = next[0][c][e];
#pragma unroll
                for (int a = 0; a + 1 < AHEAD; ++a) next[a][c][e] = next[a + 1][c][e];
                next[AHEAD - 1][c][e] =
                    more && ((inside >> (c * X + e)) & 1u) ? in[(p + AHEAD) * sz + c_xy + c * sy + e] : real(0);
            }

#pragma unroll
        for (int t = 1; t <= K; ++t) {
            const int i = p - t * R;
            const bool plane_interior = i >= R && i < nz - R;
            const auto& src = q[t - 1];
            real v[C][X];
#pragma unroll
            for (int c = 0; c < C; ++c)
#pragma unroll
                for (int e = 0; e < X; ++e) {
                    real sum = coefficient<real>(0) * src[R][c][e];
#pragma unroll
                    for (int d = 1; d <= R; ++d) {
                        // x: lane offset and element of cell e -+ d (compile-time after unrolling)
                        const int pm = e - d, pp = e + d;
                        const int lm = pm >= 0 ? pm / X : -((-pm + X - 1) / X), lp = pp / X;
                        real xm = src[R][c][pm - lm * X], xp = src[R][c][pp - lp * X];
                        if (lm != 0) xm = __shfl_up_sync(0xffffffffu, xm, -lm);  // lm, lp: constants
                        if (lp != 0) xp = __shfl_down_sync(0xffffffffu, xp, lp);
                        const real ym = c - d >= 0 ? src[R][c - d >= 0 ? c - d : 0][e]
                                                   : edge_s[buf][t - 1][up][2 * R + c - d][e][lane];
                        const real yp = c + d < C ? src[R][c + d < C ? c + d : 0][e]
                                                  : edge_s[buf][t - 1][down][c + d - C][e][lane];
                        sum += coefficient<real>(coefficient_index(d, stencil::XM)) * xm;
                        sum += coefficient<real>(coefficient_index(d, stencil::XP)) * xp;
                        sum += coefficient<real>(coefficient_index(d, stencil::YM)) * ym;
                        sum += coefficient<real>(coefficient_index(d, stencil::YP)) * yp;
                        sum += coefficient<real>(coefficient_index(d, stencil::ZM)) * src[R - d][c][e];
                        sum += coefficient<real>(coefficient_index(d, stencil::ZP)) * src[R + d][c][e];
                    }
                    v[c][e] = plane_interior && ((interior >> (c * X + e)) & 1u) ? sum : src[R][c][e];
                }
            if (t < K) {
#pragma unroll
                for (int s = 0; s < 2 * R; ++s)
#pragma unroll
                    for (int c = 0; c < C; ++c)
#pragma unroll
                        for (int e = 0; e < X; ++e) q[t][s][c][e] = q[t][s + 1][c][e];
#pragma unroll
                for (int c = 0; c < C; ++c)
#pragma unroll
                    for (int e = 0; e < X; ++e) q[t][2 * R][c][e] = v[c][e];
            } else if (i >= iBegin && i < iEnd) {
#pragma unroll
                for (int c = 0; c < C; ++c)
#pragma unroll
                    for (int e = 0; e < X; ++e)
                        if ((writes >> (c * X + e)) & 1u) out[i * sz + c_xy + c * sy + e] = v[c][e];
            }
        }
    }
}

}  // namespace bench
