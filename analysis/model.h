// The textbook's arithmetic-intensity model of every kernel version, as pure functions.
//
// Everything here is arithmetic on (kernel, T, r, precision) and, for whole-grid figures, the grid
// size: no I/O, no CUDA, no backend. The CLI (`stencil-lab model`), the sweep, the viewer's opb /
// halos / coalescing panels and the tests all read these functions, so each figure of the
// curriculum is computed in exactly one place.
//
// ---- Vocabulary ------------------------------------------------------------------------------
//   T        the tile: IN_TILE_DIM for tiled / coarsened / register-tiled, the block edge for naive
//   r        radius of the 3D star stencil (6r + 1 points; r = 1 is the textbook's 7-point)
//   OUT      OUT_TILE_DIM = T - 2r: output cells per block along x and y (and z-planes per block
//            for the z-marching kernels)
//   OP/B     floating-point operations per byte loaded from global memory (the textbook's ratio:
//            loads only, stores are not counted). FLOP per output = 12r + 1 (13 for r = 1).
//   useful / executed   the FLOPs the star stencil needs (12r + 1) and those a kernel does: the
//            same for every kernel but conv27, which multiplies the whole (2r+1)^3 cube
//            (2 (2r+1)^3 - 1 = 53 at r = 1) to compute the same value. flops and opb are useful
//            work; executed_* beside them.
//   interior block   a block whose every thread is inside the grid and away from its boundary:
//            the textbook's analysis is of such a block. Whole-grid counts (exact_grid_traffic)
//            add the blocks at the faces, which load and compute less.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "kernels/versions.h"

namespace stencil::analysis {

// ---- small formulas --------------------------------------------------------------------------

// flops_per_point (12r + 1) and out_tile (OUT_TILE_DIM) come from kernels/: the stencil's shape
// and the versions table.

// The textbook's "upper bound OP/B ~ points / 2": every grid value loaded once (4 B) and every
// point costing one multiply and one add (2 ops), so 2p / 4 = p / 2. With the exact count of
// 2p - 1 ops (p multiplies, p - 1 adds) the bound is (2p - 1) / 4: 13/4 = 3.25 for 7 points.
constexpr double points_upper_bound_opb(int points) { return points / 2.0; }
// What a tile's OP/B tends to as T grows (every value loaded once per block, the halo's share
// gone): (12r + 1) FLOP per bytes of one value. The limit the OP/B chart draws at every r.
constexpr double opb_limit_at_infinity(int radius, Precision p) {
    return double(flops_per_point(radius)) / bytes_of(p);
}
constexpr double exact_upper_bound_opb(int points, int bytes = 4) {
    return (2.0 * points - 1) / bytes;
}

// A stencil pattern of the text's points/2 table (003), by its shape: a star of order k (the
// centre and k cells each way along each axis) or a dense k x k (x k) convolution window.
enum class PatternShape { star, box };
struct PatternBound {
    std::string name;  // "2D 5-point star (order 1)", "3x3 convolution", ...
    PatternShape shape = PatternShape::star;
    int dims = 2;      // 2 or 3
    int size = 1;      // star: order k; box: edge k
    int points = 0;    // counted from the shape's offsets
    double opb = 0;    // the text's points / 2
    double opb_exact = 0;  // (2 points - 1) / 4: one addition fewer than points
};
// The number of offsets in the shape (enumerated, not a formula).
int pattern_points(PatternShape shape, int dims, int size);
// The rows of the text's table: 2D star 1, 3x3 box, 2D star 2, 5x5 box, 2D star 3, 7x7 box,
// 3D star 3, 7x7x7 box, each with its points derived from its shape.
std::vector<PatternBound> pattern_bounds();

// ---- halos -----------------------------------------------------------------------------------

struct Halo {
    long long tile_cells = 0;    // T^d
    long long output_cells = 0;  // (T - 2r)^d
    long long halo_cells = 0;    // the difference: loaded, never written by this block
    double fraction = 0;         // halo_cells / tile_cells
};
// A square / cubic input tile of edge T with a halo of r on every side.
Halo halo_2d(int T, int radius);  // 32x32, r = 1: 124 of 1024 = 12%
Halo halo_3d(int T, int radius);  // 8^3,   r = 1: 296 of 512  = 58%

// Cells of the ghost ring of a T x T thread block that includes it (the 2D Jacobi lecture, 002):
// 4T - 4 for a one-cell ring (16 x 16: 60), T^2 - (T - 2g)^2 for a ring g cells wide.
long long ghost_ring_cells(int T, int ring = 1);

// The x-derivative tiles of the finite-difference text (004): a tile_x x tile_y tile of outputs,
// a halo of `halo` cells on both x sides, on a grid nx wide in x (periodic).
struct XDerivativeTile {
    int tile_x = 0, tile_y = 0, halo = 0;
    long long outputs = 0;        // tile_x * tile_y
    long long loaded = 0;         // values a block loads from global memory
    long long reloaded = 0;       // of those, values another block also loads (halo columns)
    double reload_share = 0;      // reloaded / outputs: 16x16 with 4-wide halos: 8x16 / 16x16
    int rows_per_warp = 0;        // rows of the tile one warp of 32 threads spans
    int lines_per_request = 0;    // 128-byte lines a warp's load touches (aligned tile)
    bool fully_coalesced = false; // one warp = 32 contiguous values = whole lines
};
XDerivativeTile x_derivative_tile(int tile_x, int tile_y, int halo, int nx, int bytes = 4);

// ---- registers -------------------------------------------------------------------------------

// "How many registers per thread for a 3D 7-point, 9-point and 27-point stencil?" (000), derived
// from the stencil's offsets. A thread of a z-marching kernel owns one (x, y) column and walks it
// in z. The values it needs are:
//   - in the current plane, off its column: other threads' values, read from the shared plane
//     (no registers);
//   - in other planes (dz != 0): only its own column for a star, held in a z-queue of
//     2 zr + 1 registers (zr: the stencil's z reach; the text's inPrev, inCurr, inNext);
//   - if any offset has dz != 0 AND (dx, dy) != 0 (a box), values of other threads' columns in
//     other planes, which no shared current plane provides: kept in registers, the thread holds
//     every column the stencil uses, in each of its 2 zr + 1 planes.
// So registers = (2 zr + 1) x (the number of (dx, dy) columns used by offsets with dz != 0, and
// the own column). The compiler adds addresses, indices and the accumulator on top.
struct Offset {
    int dx = 0, dy = 0, dz = 0;
};
struct RegisterAnswer {
    std::string stencil;  // "3D 7-point star (r = 1)"
    int points = 0;
    int z_reach = 0;          // max |dz|
    int columns = 0;          // (dx, dy) columns needed from planes other than the current one
    int queue_registers = 0;  // (2 z_reach + 1) x columns
    std::string note;
};
RegisterAnswer registers_for(const std::string& name, const std::vector<Offset>& offsets);
std::vector<Offset> star_offsets(int radius);  // 6r + 1
std::vector<Offset> box_offsets(int half);     // (2h + 1)^3
RegisterAnswer registers_star(int radius);
RegisterAnswer registers_box27();
// The question's "3D nine-point": no 3D star has 9 points (6r + 1 = 7, 13, 19, 25). The lab reads
// it as the 7-point star plus z +- 2 (9 points, reaching 2 planes each way); the other reading,
// the 7-point star plus two in-plane points, needs the 7-point star's 3 (said in the note).
RegisterAnswer registers_nine_point();

// ---- warp access pattern ---------------------------------------------------------------------

// One global load instruction of the kernel, as a warp executes it.
struct WarpLoad {
    std::string name;          // "centre", "x-1", ..., "tile", "prologue z-1", "march z+1"
    long long requests = 0;    // warp-level requests (warps with >= 1 active lane)
    double rows = 0;           // distinct (y, z) rows per request
    double sectors = 0;        // 32-byte sectors per request
    double lines = 0;          // 128-byte lines per request
    double efficiency = 0;     // bytes requested / (sectors x 32)
};

// Global loads of every warp of one launch, counted the way ncu counts them
// (l1tex__t_sectors_pipe_lsu_mem_global_op_ld / ..._requests_...): per load instruction, the
// distinct 32-byte sectors the active lanes touch, the buffer base 256-byte aligned.
struct WarpPattern {
    GridDims grid;
    int warp_size = 32;
    int block_x = 0;           // threads along x: a warp spans ceil(32 / block_x) rows
    int rows_per_warp = 0;
    // Full warps only (all 32 lanes active: the interior warps of the textbook's picture).
    std::vector<WarpLoad> interior;
    double interior_sectors_per_request = 0;
    double interior_lines_per_request = 0;
    double interior_efficiency = 0;
    // Every request of the launch (boundary warps with inactive lanes included): ncu's figure.
    std::vector<WarpLoad> all;
    double sectors_per_request = 0;
    double lines_per_request = 0;
    double efficiency = 0;
    long long requests = 0, sectors = 0, bytes_requested = 0;
    long long full_warp_requests = 0;  // 0: no warp has 32 active lanes (interior_* are then 0)
    std::string explanation;
};
// Counts every warp of the launch of (k, T, r, p) on `grid`, exactly: warps are grouped by their
// active lanes (first / interior / last block along each axis) and their first cell's position
// within a 128-byte line, one of each group evaluated and weighted by the group's size, so the cost
// does not grow with N^3 (any valid grid: well under a second).
// `block`: naive on a block of the user's shape (run --block; launch_geometry), T then unused.
// `z_chunk`: planes a block marches (streaming, temporal: `run --z-chunk`; 0 = the row's).
WarpPattern warp_pattern(KernelId k, int T, int radius, Precision p, GridDims grid,
                         std::optional<Dim3> block = std::nullopt, int z_chunk = 0);

// ---- traffic: per interior block and per whole grid ------------------------------------------

struct BlockTraffic {
    long long threads = 0;
    long long outputs = 0;           // output cells of an interior block
    long long loads = 0;             // global load instructions executed (values)
    long long load_bytes = 0;
    long long store_bytes = 0;
    long long flops = 0;             // outputs x (12r + 1): useful work
    long long executed_flops = 0;    // outputs x executed_flops_per_point (conv27: the cube's)
    double opb = 0;                  // flops / load_bytes
    long long shared_loads = 0;      // shared-memory loads (values) of the block, as the kernel
    long long shared_stores = 0;     // source does them (the viewer shows them beside the trace)
};
// `fused`: the time steps one launch applies (temporal's K; 1 for the others). A temporal block
// marches the row's z-chunk Z with a tile of T^2 columns for (T - 2rK)^2 outputs: T^2 (Z + 2rK)
// loads, (T - 2rK)^2 Z stores of level K; flops count the K useful updates of each output,
// executed_flops every cell each level computes (the halo's redundant work included).
BlockTraffic interior_block_traffic(KernelId k, int T, int radius, Precision p, int fused = 1);

// The streaming kernel's interior block marches the row's z-chunk Z: T^2 (Z + 2r) queue loads and
// 4rTZ ring loads (the current plane's halo) for T^2 Z outputs.
//
// Exact global traffic of one launch on a whole grid: what the CPU backend's trace counts. Blocks
// at the faces load only the in-grid part of their tile, and cells within r of a face are not
// computed. Closed forms:
//   naive:   loads = (nx - 2r)(ny - 2r)(nz - 2r)(6r + 1); conv27 the same with (2r+1)^3
//   others:  loads = Sx Sy Sz, S(n) = sum over blocks b of |[b OUT - r, b OUT - r + T) n [0, n)|
//            (the z-marching kernels load the T planes iStart - r .. iStart + OUT - 1 + r, the
//            same interval as the tiled kernel's z extent)
//   streaming: nx ny sum_b (L_b + 2r) + (nz - 2r)(Rx ny + nx Ry), L_b the interior planes of
//            z-block b (sum over blocks with L_b > 0), Rx = sum over x-blocks of their in-grid
//            ring cells along x (r each side, clipped), Ry the same along y
//   temporal (K steps per launch): Sx Sy sum_b (min(nz, e_b + rK) - max(0, b_b - rK)) over the
//            z-blocks with planes [b_b, e_b), S(n) = sum over blocks of |[b OUT - rK, b OUT - rK + T)
//            n [0, n)|, OUT = T - 2rK: each thread loads its own column over the march
//   stores:  (nx - 2r)(ny - 2r)(nz - 2r), one per interior cell
struct GridTraffic {
    long long blocks = 0;
    long long load_values = 0, store_values = 0;
    long long load_bytes = 0, store_bytes = 0;
    long long flops = 0;           // useful: interior cells x (12r + 1)
    long long executed_flops = 0;  // interior cells x executed_flops_per_point (conv27: the cube's)
    double opb = 0;  // flops / load_bytes
};
GridTraffic exact_grid_traffic(KernelId k, int T, int radius, Precision p, GridDims grid, int fused = 1,
                               int z_chunk = 0);

// ---- bytes per cell update: the z-marching kernels at three levels (issue 13) ------------------
//
// For one launch of an interior block, per cell update (a temporal launch makes K updates of each
// output; every other launch one):
//   requested  the bytes its load and store instructions ask for (global loads + stores)
//   L2         what reaches L2 from L1: each z-marching thread loads distinct cells (its column, and
//              for streaming the ring; no cell twice per block), so no load hits in L1 and L2 sees
//              the requested bytes
//   DRAM       what reaches DRAM, if the x/y halo (the neighbouring blocks' columns, read at about
//              the same time) is served by L2 and the z-chunks' overlap (read by blocks that run at
//              other times) is not: (Z + 2rK) / Z reads and one write per output, over K updates
// The copy's figure for all three is 2B (one read and one write of each cell).
struct UpdateTraffic {
    KernelId kernel = KernelId::streaming;
    int tile = 0, radius = 1, fused = 1, z_chunk = 0;
    int bytes = 4;
    double requested_bytes = 0, l2_bytes = 0, dram_bytes = 0;  // per cell update
    double copy_bytes = 0;            // 2B: a copy's per cell
    double halo_reread_share = 0;     // of the block's loads, those another block loads too
    double redundant_work_share = 0;  // of the cells it computes, those another block owns
                                      // (temporal's shrinking halo levels; 0 for streaming)
    int queue_registers = 0;          // the z-queues' 32-bit registers a thread: streaming 2r + 1
                                      // 16-byte vectors (4 each); temporal K (2r + 1) planes x 8 rows
                                      // (one a value, two in fp64)
    int register_budget = 0;          // streaming: the registers its launch bounds allow a thread
                                      // (streaming_register_budget); 0: no cap (temporal)
    int min_warps_per_sm = 0;         // streaming: the warps an SM holds at least under that budget
    double copy_ratio_bound = 0;      // copy_bytes / dram_bytes: the most updates per second a
                                      // DRAM-bound launch can reach, as a multiple of the copy's
};
// For streaming and temporal (`fused` 1..4; streaming: 1); UserError for another kernel.
UpdateTraffic update_traffic(KernelId k, int T, int radius, Precision p, int fused = 1);

// ---- valid tiles -----------------------------------------------------------------------------

struct TileStatus {
    int tile = 0;
    bool fits = false;      // obeys every hardware rule (tile_fits)
    bool runnable = false;  // fits and is compiled into this build
    std::string reason;     // tile_error's sentence when not runnable
};
// T = 1 .. max_tile with the reason for each (from tile_error in kernels/versions.h).
std::vector<TileStatus> tile_table(KernelId k, int radius, Precision p, int max_tile = 40,
                                   DeviceLimits lim = {});
// The largest T that fits the hardware rules (built or not); 0 when none.
int largest_fitting_tile(KernelId k, int radius, Precision p, DeviceLimits lim = {});

// ---- the model of one configuration ----------------------------------------------------------

struct Model {
    KernelId kernel = KernelId::naive;
    int tile = 8, radius = 1;
    Precision precision = Precision::f32;
    int bytes = 4;             // per value
    int points = 7;            // 6r + 1
    int flops_per_point = 13;  // 12r + 1: the useful work
    // What the kernel multiplies and executes per output: the star's 6r + 1 and 12r + 1, or for
    // conv27 the dense cube's (2r+1)^3 and 2 (2r+1)^3 - 1 (27 and 53 at r = 1).
    int executed_points = 7;
    int executed_flops_per_point = 13;
    int out_tile = 6;          // OUT_TILE_DIM (x, y); naive: T
    int out_planes = 6;        // output planes per block along z (streaming: its z-chunk)

    long long threads_per_block = 0;
    long long active_threads = 0;     // threads that compute an output in an interior block
    long long smem_bytes = 0;
    BlockTraffic block;               // an interior block
    long long loads_per_block = 0;    // = block.loads
    long long outputs_per_block = 0;  // = block.outputs
    double opb = 0;                   // flops x outputs / bytes loaded, interior block
    double executed_opb = 0;          // the same with the executed FLOPs (= opb but for conv27)
    // FLOPs per byte of the least DRAM traffic, each cell read once and written once (the copy's
    // bytes and the DRAM level's read + write convention, as measured.h's opb_rw): F / 2B. What
    // conv27 changes at the DRAM level: its bytes are naive's, its executed FLOPs are not.
    double dram_opb = 0;
    double executed_dram_opb = 0;
    // Requested values per output of an interior block (loads / outputs; a copy's is 1) and the
    // share of its loads that re-read a value another block or thread also loads (the halo):
    // 1 - outputs / loads, since every kernel loads each output's own value exactly once.
    double requested_per_output = 0;
    double halo_reread_share = 0;
    double opb_limit = 0;             // as T grows (naive: no T, the same figure)
    std::string opb_formula;          // "13 (T-2)^3 / (4 T^3)"
    // The textbook's figure for this kernel when it differs in form from the exact count (the
    // coarsened kernel's 13 * 30^3 / (4 * 32^3)); equal to opb for the others as built.
    double opb_textbook = 0;
    std::string opb_note;             // where the exact count and the text's figure part ways

    Halo halo;                        // of the block's input tile (3D); naive: none (zeros)
    Halo halo_plane;                  // of one x-y plane of the tile (2D), the z-marching view
    std::optional<std::string> tile_error;  // why this T cannot run (nullopt: it can)
    std::vector<int> valid_tiles;     // runnable_tiles(k, r, p)
    int largest_fitting_tile = 0;
    std::string tile_bounds;          // the reason for each bound of T, in words
    int queue_registers = 0;          // register-tiled, streaming: 2r + 1 (z-queue); temporal
                                      // K (2r + 1) x 8 (a strip's rows); others 0
    int fused_steps = 1;              // temporal: K steps per launch; the others 1
    std::optional<UpdateTraffic> per_update;  // streaming and temporal (update_traffic)
    std::string summary;              // readable text with the formulas (the `model` command)
};

// The model of (k, T, r, p). A T that cannot run still gets its formulas (and tile_error says
// why); T < 1, r outside 1..kMaxRadius or T <= 2r for a tiled kernel throw UserError.
// `fused`: the steps one launch applies, temporal's K (1..4; as every table function, one by
// default); the other kernels take 1 only.
Model model(KernelId k, int T, int radius, Precision p, int fused = 1);

// The tiled kernel's OP/B for r = 1 in the text's form 13 (T-2)^3 / (4 T^3) (T = 8: 1.37).
double tiled_opb_textbook(int T);

}  // namespace stencil::analysis
