// The star3d kernel versions: each row's names, words, tiles and colour, and the facts that follow
// from its shape. CLI, tests, model, checker, viewer and both backends read it. A version is its
// kernel file, its shape (kernels/version_shapes.h: what the compilers need) and its run-time row
// (kernels/version_rows.cpp). Everything else about it (threads per block, OUT_TILE_DIM, shared
// memory, valid tiles, launch geometry, the tile rules in words) follows from those by the
// functions below, defined in kernels/versions.cpp so that a row's edit recompiles one file.
#pragma once
#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/version_shapes.h"

namespace stencil {

enum class Precision { f32, f64 };

constexpr int bytes_of(Precision p) { return p == Precision::f32 ? 4 : 8; }
std::string_view to_string(Precision p);
std::optional<Precision> parse_precision(std::string_view s);  // "f32" | "f64"

struct Dim3 {
    int x = 1, y = 1, z = 1;
    long long count() const { return (long long)x * y * z; }
    bool operator==(const Dim3&) const = default;
};

// Grid sizes in cells; x varies fastest in memory, then y, then z.
struct GridDims {
    int nx = 0, ny = 0, nz = 0;
    long long cells() const { return (long long)nx * ny * nz; }
    bool operator==(const GridDims&) const = default;
};

// How a version is launched for a given tile T and radius r.
struct LaunchGeometry {
    Dim3 grid;                 // blocks per axis
    Dim3 block;                // threads per block
    int out_tile = 0;          // OUT_TILE_DIM (output cells per block along y, and x but below)
    int out_width = 0;         // output cells per block along x (out_tile but for warp_rows)
    int out_planes = 0;        // output planes per block along z
    long long smem_bytes = 0;  // shared memory per block (static, or dynamic: smem_is_dynamic)
};
// The bytes a launch of version k with geometry g asks for as dynamic shared memory: its shared
// memory where that is dynamic (smem_is_dynamic), else 0.
long long dynamic_smem_bytes(KernelId k, const LaunchGeometry& g);

// The problems the lab teaches: the chapter's 3D star stencil (this table), text 002's 2D cardiac
// simulation and text 004's derivative pencils (tables of their own, kernels/cardiac2d/ and
// kernels/derivative/: their kernels have other shapes). kernels/catalog.h lists all of them.
enum class Problem { star3d, cardiac2d, derivative };
inline constexpr Problem kProblems[] = {Problem::star3d, Problem::cardiac2d, Problem::derivative};
std::string_view to_string(Problem p);
std::optional<Problem> parse_problem(std::string_view s);
std::string problem_names();  // "star3d, cardiac2d, derivative"

// How a version is drawn: the OP/B chart, the roofline and every legend use the same colour and
// marker for it (viewer/core/version_style.cpp turns them into the viewer's types).
struct VersionLook {
    float r, g, b;            // sRGB, 0..1
    const char* colour_name;  // for legends and the tests' messages
    const char* marker;       // a marker's name: ring, plus, circle, square, square_filled, hexagon,
                              // triangle_down (the chart keeps diamond, triangle and cross for its levels)
};

// One row of the star3d table (the chapter's kernels): its shape (kernels/version_shapes.h) and
// what the run time needs of it.
struct KernelVersion : VersionShape {
    Problem problem;
    const char* name;           // CLI spelling: naive, tiled, coarsened, register-tiled
    const char* title;          // for people: "Shared-memory tiled"
    const char* idea;           // the idea in one line
    const char* textbook_file;  // the listing as printed (bench/textbook/), shown beside it
    int default_tile;           // the exercises' and the reports' T
    int small_tile;             // a small T that still shows the idea (tests, the stepper)
    std::array<int, 8> sweep;   // tiles a sweep tries by default (0: unused slot); those that
                                // cannot run for (r, precision) are dropped
    int z_chunk = 0;            // planes a z-marching block covers; 0: OUT_TILE_DIM (the
                                // textbook's kernels). The kernel reads it back from gridDim.z.
    bool takes_block = false;   // its kernel reads blockDim and nothing else of T, so any block
                                // shape runs it: `run --block BXxBYxBZ` (the textbook's 32x4x2)
    // Time steps a launch of `run --steps S` fuses when no `--fuse` is given (temporal blocking);
    // `--fuse` takes 1..max_fused_steps. The rows of one step per launch have 1.
    int fused_steps = 1;
    VersionLook look;
};

std::span<const KernelVersion> kernel_versions();
const KernelVersion& version(KernelId id);
const KernelVersion* find_version(std::string_view name);
std::string version_names();  // "naive, tiled, coarsened, register-tiled, ..."

// ---- facts that follow from a row --------------------------------------------------------------

// The tile sizes the backends instantiate for the templated kernels (T of every other row is only a
// block edge, any size).
std::span<const int> built_tiles();

bool marches_in_z(KernelId k);

// Points each output multiplies, and the FLOPs that costs: the star's 6r + 1 (12r + 1 FLOPs), or
// the dense cube's (2r+1)^3 (2 (2r+1)^3 - 1). The useful work is always the star's.
int executed_points(KernelId k, int radius);
int executed_flops_per_point(KernelId k, int radius);

// Time steps a launch of version k applies when asked to fuse `fused` (1 for the rows of one step).
int steps_per_launch(KernelId k, int fused);

// Output cells per block edge: OUT_TILE_DIM = T - 2r when the tile holds its halo (T - 2rK for a
// launch that fuses K steps), else T. A warp_rows or warp_strips block has out_tile rows of
// out_width cells (below).
int out_tile(KernelId k, int T, int radius, int fused = 1);

// Cells a thread owns along x: a warp_rows thread's vector, a warp_strips lane's V cells, else 1.
int cells_per_thread(KernelId k, int bytes);

// Output cells per block along x: 32 V for a warp_rows block, 32 V - 2rK for a warp_strips tile (a
// warp wide, its halo inside), else out_tile.
int out_width(KernelId k, int T, int radius, int bytes, int fused = 1);

// Threads a block has along x and y (z: 1 unless cube).
int block_side_x(KernelId k, int T);
int block_side_y(KernelId k, int T);
// The rows of its column one thread owns: a warp_strips thread's strip, else 1.
int rows_per_thread(KernelId k);

long long threads_per_block(KernelId k, int T);

// Values in shared memory per block (a launch fusing `fused` steps) of `bytes` each; dynamic shared
// memory, sized at launch, for the versions of smem_is_dynamic.
long long shared_cells(KernelId k, int T, int radius, int bytes, int fused = 1);
long long smem_bytes(KernelId k, int T, int radius, int bytes, int fused = 1);
bool smem_is_dynamic(KernelId k);
// The most shared memory a block of version k may have: the dynamic or the static limit.
long long smem_limit(KernelId k, DeviceLimits lim = {});

// Planes a z-marching block covers on a grid of nz planes launched as `blocks_z` blocks along z:
// ceil(nz / blocks_z) (the kernels with no z-chunk: OUT_TILE_DIM, and blocks_z follows from it).
constexpr int z_planes_per_block(int nz, int blocks_z) { return (nz + blocks_z - 1) / blocks_z; }

// The same rules as words, for explanations: "T^3" / "T^2" threads; "T^3", "(2r+1) T^2" = "3 T^2"...
std::string threads_formula(KernelId k);
std::string smem_formula(KernelId k, int radius);  // "" when the version uses no shared memory

// True when (k, T, r, precision) obeys every hardware rule (with the default limits), for a launch
// of one step. A launch fusing K steps needs more: fuse_error.
bool tile_fits(KernelId k, int T, int radius, int bytes, DeviceLimits lim = {});
// True when T is compiled into this build (always, for a row whose T is not a template parameter).
bool tile_is_built(KernelId k, int T);

// Why (k, T, r, precision) cannot run, in one sentence; nullopt when it can.
std::optional<std::string> tile_error(KernelId k, int T, int radius, Precision p,
                                      DeviceLimits lim = {});
// True when version k with tile T can fuse `fused` steps per launch at radius r: fusing is
// temporal's alone (1..max_fused_steps), and the tile must exceed the K halos, T > 2rK (and the
// fp64 tile's 32 cells too, for warp_strips: one rule for both precisions). Shared memory never
// limits it: the edge rows stop at 2rK <= 24 rows x T / 4 strips x 256 B, 96 KiB at T = 64 (the
// largest built tile), the dynamic shared memory of any GPU since Volta.
bool fuse_fits(KernelId k, int T, int radius, int fused);
// Why fuse_fits is false, in one sentence; nullopt when it is true.
std::optional<std::string> fuse_error(KernelId k, int T, int radius, int fused);

// The T that can run for (k, r, precision): valid and built.
std::vector<int> runnable_tiles(KernelId k, int radius, Precision p, DeviceLimits lim = {});
// The row's sweep tiles that can run for (r, precision): what `sweep` and the viewer try.
std::vector<int> sweep_tiles(KernelId k, int radius, Precision p, DeviceLimits lim = {});

// `block`: a shape of the user's instead of the row's T^3 (only a row that takes_block; see
// block_error). One block per block-sized box of outputs; out_tile is then block.x and
// out_planes block.z.
// `fused`: the time steps this launch applies (temporal's K; see out_tile).
// `z_chunk`: planes a block marches, for a row with a z-chunk (0: the row's; z_chunk_error).
LaunchGeometry launch_geometry(KernelId k, int T, int radius, Precision p, GridDims g,
                               std::optional<Dim3> block = std::nullopt, int fused = 1, int z_chunk = 0);

// Why version k cannot march z-chunks of `z_chunk` planes, in one sentence; nullopt when it can:
// only the rows with a z-chunk take one (the kernel reads it back from gridDim.z), 1..4096 planes.
std::optional<std::string> z_chunk_error(KernelId k, int z_chunk);

// "32x4x2" -> {32, 4, 2}; nullopt unless three positive integers joined by 'x'.
std::optional<Dim3> parse_block(std::string_view s);
// Why version k cannot run on blocks of this shape, in one sentence; nullopt when it can: the row
// must take a block, every side at least 1, x and y at most 1024 and z at most 64 (CUDA's block
// dimensions), and no more threads than a block may have.
std::optional<std::string> block_error(KernelId k, Dim3 block, DeviceLimits lim = {});

// Why a grid cannot be used with radius r (every side must be at least 2r + 1); nullopt if fine.
std::optional<std::string> grid_error(GridDims g, int radius);

}  // namespace stencil
