// The star3d versions' run-time rows: names, words, tiles, defaults and colours. Each row starts
// from its shape (kernels/version_shapes.h); nothing here is compiled into a kernel, so editing a
// row recompiles this file alone.
#include "kernels/versions.h"

namespace stencil {

namespace {

// Colours: Okabe-Ito's hues where they stay apart on a dark background (its blue sat next to its
// sky blue: naive and conv27 looked alike), and a lavender for the seventh. Markers: none of the
// chart's levels' (diamond, triangle, cross); coarsened and register-tiled share a curve, so
// register-tiled's hollow square goes round coarsened's filled dot.
const KernelVersion kRows[] = {
    {shape_of(KernelId::naive), Problem::star3d, "naive", "Naive",
     "one thread per output; all 6r+1 neighbours straight from global memory", "bench/textbook/naive.cuh", 8, 4,
     {8}, 0, true, 1, {0.34f, 0.71f, 0.91f, "sky blue", "ring"}},
    {shape_of(KernelId::tiled), Problem::star3d, "tiled", "Shared-memory tiled",
     "a block loads a T^3 input tile into shared memory; (T-2r)^3 inner threads compute",
     "bench/textbook/tiled.cuh", 8, 6, {3, 4, 5, 6, 7, 8, 9, 10}, 0, false, 1,
     {0.90f, 0.62f, 0.00f, "orange", "plus"}},
    {shape_of(KernelId::coarsened), Problem::star3d, "coarsened", "Thread-coarsened",
     "a T^2 block marches along z, keeping 2r+1 planes in shared memory", "bench/textbook/coarsened.cuh", 32, 8,
     {8, 16, 32}, 0, false, 1, {0.00f, 0.62f, 0.45f, "bluish green", "circle"}},
    {shape_of(KernelId::register_tiled), Problem::star3d, "register-tiled", "Register-tiled",
     "as coarsened, but only the current plane is shared; z-neighbours stay in registers",
     "bench/textbook/register_tiled.cuh", 32, 8, {8, 16, 32}, 0, false, 1,
     {0.80f, 0.47f, 0.65f, "reddish purple", "square"}},
    // T = 4 rows and a z-chunk of 8 planes: what `tune` picks on the H100 (a block of 32 x 4 = 128
    // threads owns a 128 x 4 (fp32) or 64 x 4 (fp64) patch of outputs; short chunks give many
    // blocks, and the planes below a chunk are L2 hits). No printed listing: shown beside the one
    // it departs from (register tiling).
    {shape_of(KernelId::streaming), Problem::star3d, "streaming", "Streaming (2.5D)",
     "a warp per row marches a short z-chunk, a 16-byte vector per thread: z-values in registers, "
     "x from the neighbouring lanes, y from a shared tile of rows",
     "bench/textbook/register_tiled.cuh", 4, 4, {4, 8, 16}, 8, false, 1,
     {0.94f, 0.89f, 0.26f, "yellow", "triangle_down"}},
    // Text 000's "stencils as convolutions": naive's shape and bytes, every offset of the cube
    // multiplied (the off-axis weights are zero), so only the arithmetic differs from naive. No
    // printed listing: shown beside the one it computes the same values as (naive).
    {shape_of(KernelId::conv27), Problem::star3d, "conv27", "Dense 3x3x3 convolution",
     "the 7-point stencil computed as a 27-point convolution with zeros: same bytes, 27 vs 7 "
     "multiply-adds",
     "bench/textbook/naive.cuh", 8, 4, {8}, 0, false, 1, {0.84f, 0.37f, 0.00f, "vermillion", "hexagon"}},
    // Temporal blocking: a tile of T = 64 rows (64 cells wide in fp32, 32 in fp64), K = 3 and a
    // z-chunk of 64 planes by default: the one pair of T and K near the best of both precisions
    // (fp32 is fastest at T = 48, K = 4, fp64 at T = 64, K = 4; docs/results/h100-issue31-s10/).
    // Every radius runs at T = 64 with K = 3: r = 4 leaves 32 - 24 = 8 outputs across the fp64 warp
    // (K = 4 needs 2rK < 32: r <= 3); `tune` searches T, K and the z-chunk. No printed listing:
    // shown beside the one its levels each resemble (register tiling).
    {shape_of(KernelId::temporal), Problem::star3d, "temporal", "Temporal blocking (2.5D)",
     "K time steps per pass: a warp-wide tile of T rows marches z, each thread a strip of 4 rows of "
     "8 bytes (2 floats or 1 double) with a register queue per level, x-neighbours by shuffles, the "
     "strips' edge rows shared, the halo r wider per level; one read + one write of the grid per K updates",
     "bench/textbook/register_tiled.cuh", 64, 16, {16, 32, 48, 64}, 64, false, 3,
     {0.62f, 0.55f, 0.98f, "lavender", "square_filled"}},
};
static_assert(std::size(kRows) == kVersionShapes.size(), "one run-time row per shape");

}  // namespace

std::span<const KernelVersion> kernel_versions() { return kRows; }

const KernelVersion& version(KernelId id) { return kRows[static_cast<int>(id)]; }

}  // namespace stencil
