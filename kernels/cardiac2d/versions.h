// The cardiac2d problem's table of kernel versions (text 002: the CSE 260 Aliev-Panfilov simulator).
// One row per kernel; the CLI, the tests, the model, the viewer and both backends read it, and
// kernels/catalog.cpp lists it beside the other problems. Everything else about a version (threads
// per block, outputs per block, shared memory, the launch geometry) follows from its row by the
// functions below, so a block shape is written here and nowhere else.
//
// The mesh: E, E_prev and R hold (n + 2) x (n + 2) values, row-major (x fastest); cells 1..n in
// each direction are the interior, row and column 0 and n + 1 the ghost cells that the no-flux
// boundary fills before every step (kernels/cardiac2d/ghosts.cuh). The kernels themselves take a
// rectangle, nx x ny interior cells with rows `pitch` values apart, so that a rank of a
// decomposition (distributed/, `run --problem cardiac2d --decompose PXxPY`) runs them on its own
// piece, whose ghost ring holds its neighbours' cells where it has neighbours.
#pragma once
#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "kernels/catalog.h"
#include "kernels/versions.h"  // Precision, Dim3, bytes_of

namespace stencil::cardiac2d {

enum class KernelId { naive, fused, shared, shared_all, sliding_rows, shuffle };

// Where a block finds the neighbours of its cells: the thing each version changes.
enum class Neighbours {
    global_memory,    // every reference is a global load (the caches may still serve it)
    edge_threads,     // a shared tile; its ghost ring is loaded by the threads on the tile's edge
    thread_per_cell,  // a shared tile; one thread per tile cell, ghosts included (they then idle)
    row_registers,    // one shared row; the rows above and below in registers, marching in y
    warp_shuffle,     // x neighbours from the neighbouring lanes' registers; y from global memory
};

struct Version {
    KernelId id;
    const char* name;         // the CLI's spelling
    const char* title;        // for people
    const char* idea;         // the idea in one line
    const char* source_file;  // below the repository root
    const char* kernel;       // the __global__ function (PDE and ODE fused, except naive's PDE)
    const char* ode_kernel;   // naive only: the separate ODE kernel; nullptr when fused
    int tile_x, tile_y;       // interior cells a block updates along x and y (sliding-rows: the
                              // rows it marches through)
    Neighbours neighbours;
};

inline constexpr std::array<Version, 6> kVersions{{
    {KernelId::naive, "naive", "Naive (PDE and ODE kernels)",
     "two kernels per step, PDE then ODE; every reference, the 5 stencil points included, from global memory",
     "kernels/cardiac2d/naive.cuh", "cardiac_pde_naive_kernel", "cardiac_ode_naive_kernel", 32, 8,
     Neighbours::global_memory},
    {KernelId::fused, "fused", "Fused PDE + ODE",
     "one kernel per step: the ODE uses the new E while it is still in a register (E and R read once)",
     "kernels/cardiac2d/fused.cuh", "cardiac_fused_kernel", nullptr, 32, 8, Neighbours::global_memory},
    {KernelId::shared, "shared", "Shared tile, edge threads load the ghosts",
     "a block of interior threads copies its cells and their ghost ring to shared memory; the threads on "
     "the tile's edge load the ghost cells",
     "kernels/cardiac2d/shared.cuh", "cardiac_shared_kernel", nullptr, 16, 16, Neighbours::edge_threads},
    {KernelId::shared_all, "shared-all", "Shared tile, one thread per cell with ghosts",
     "one thread per cell of the tile and its ghost ring loads it to shared memory; the ring's threads "
     "then idle while the interior ones compute",
     "kernels/cardiac2d/shared_all.cuh", "cardiac_shared_all_kernel", nullptr, 16, 16,
     Neighbours::thread_per_cell},
    {KernelId::sliding_rows, "sliding-rows", "Sliding rows",
     "a 1D block marches down a strip of rows: the current row in shared memory, the rows above and "
     "below in registers, one new row loaded per step",
     "kernels/cardiac2d/sliding_rows.cuh", "cardiac_sliding_rows_kernel", nullptr, 128, 32,
     Neighbours::row_registers},
    {KernelId::shuffle, "shuffle", "Warp shuffle",
     "x neighbours come from the next lanes' registers (__shfl_up/down_sync); only the warp's two end "
     "lanes load one more value",
     "kernels/cardiac2d/shuffle.cuh", "cardiac_shuffle_kernel", nullptr, 32, 8, Neighbours::warp_shuffle},
}};

std::span<const Version> versions();
constexpr const Version& version(KernelId k) { return kVersions[static_cast<int>(k)]; }
const Version* find_version(std::string_view name);
std::string version_names();  // "naive, fused, ..."

// The rows as kernels/catalog.h lists them (threads "32x8", tiles: the interior tile "16x16").
std::vector<CatalogEntry> catalog_entries(Precision p);

// ---- facts that follow from a row ------------------------------------------------------------

// The mesh's row length: n interior cells and a ghost cell at each end.
constexpr int mesh_width(int n) { return n + 2; }
constexpr long long mesh_cells(int n) { return (long long)mesh_width(n) * mesh_width(n); }

// A rectangle of the mesh with its ghost ring, as the kernels take it: nx x ny interior cells, rows
// `pitch` values apart (at least nx + 2). The whole mesh alone is mesh_piece(n, n).
struct Piece {
    int nx = 0, ny = 0, pitch = 0;
    long long cells() const { return (long long)pitch * (ny + 2); }  // the array, ghost rows included
};
constexpr Piece mesh_piece(int nx, int ny) { return {nx, ny, nx + 2}; }

// The threads of one block. shared-all adds the ghost ring; sliding-rows is one row of threads.
constexpr Dim3 block_threads(KernelId k) {
    const Version& v = version(k);
    switch (v.neighbours) {
        case Neighbours::thread_per_cell: return {v.tile_x + 2, v.tile_y + 2, 1};
        case Neighbours::row_registers: return {v.tile_x, 1, 1};
        default: return {v.tile_x, v.tile_y, 1};
    }
}

// Values a block keeps in shared memory.
constexpr long long shared_cells(KernelId k) {
    const Version& v = version(k);
    switch (v.neighbours) {
        case Neighbours::edge_threads:
        case Neighbours::thread_per_cell: return (long long)(v.tile_x + 2) * (v.tile_y + 2);
        case Neighbours::row_registers: return v.tile_x + 2;
        default: return 0;
    }
}
constexpr long long smem_bytes(KernelId k, Precision p) { return shared_cells(k) * bytes_of(p); }

// Threads of a block that load but do not compute (shared-all's ghost threads), and their share.
constexpr long long idle_threads(KernelId k) {
    const Version& v = version(k);
    const Dim3 b = block_threads(k);
    return (long long)b.x * b.y * b.z - (v.neighbours == Neighbours::row_registers ? v.tile_x
                                                                                  : (long long)v.tile_x * v.tile_y);
}

// How one step is launched on an nx x ny interior (n x n alone): blocks cover it tile by tile.
struct Launch {
    Dim3 grid, block;
    long long smem_bytes = 0;
};
Launch launch_geometry(KernelId k, int nx, int ny, Precision p);
inline Launch launch_geometry(KernelId k, int n, Precision p) { return launch_geometry(k, n, n, p); }
// The ghost-filling kernel that runs before every step (one thread per interior row/column).
inline constexpr int kGhostBlock = 256;
Launch ghost_launch(int nx, int ny);
inline Launch ghost_launch(int n) { return ghost_launch(n, n); }

// The C++ name of a version's kernel instantiated for precision p, as NVRTC is asked for it:
// "stencil::cardiac2d::cardiac_shared_kernel<float, 16, 16>" (the shared-memory kernels take
// their tile as template arguments, for the static __shared__ arrays). `ode`: naive's ODE kernel.
std::string instantiation(KernelId k, Precision p, bool ode = false);
std::string ghost_instantiation(Precision p);

// The sizes the problem takes: n interior cells per side (the CLI and the tests check it).
inline constexpr int kMinSide = 8;
inline constexpr int kMaxSide = 16384;  // three (n + 2)^2 fp64 arrays: 6.4 GB
std::optional<std::string> size_error(int n);

}  // namespace stencil::cardiac2d
