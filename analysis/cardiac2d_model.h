// The cardiac2d problem's model (text 002): what a step costs, and the two ways of assigning the
// ghost cells of a shared-memory tile to threads that the lecture shows (slides 19-22). Plain C++:
// it runs nothing; `stencil-lab model --problem cardiac2d` prints it and the run reports' GFLOP/s
// and GB/s come from it.
#pragma once
#include <string>

#include "kernels/versions.h"

namespace stencil::cardiac2d {

// FLOPs of one cell's step: the PDE 7 (3 additions, 4 x centre, a subtraction, x alpha, + centre),
// E's ODE 9 and R's ODE 12 (the division counted as one).
inline constexpr int kFlopsPerCell = 28;
// The fewest values a step moves per cell: E_prev and R read, E and R written (the fused kernels'
// DRAM traffic when the stencil's neighbours come from the caches).
inline constexpr int kValuesMovedPerCell = 4;

double step_flops(int n);                      // n^2 kFlopsPerCell
double step_min_bytes(int n, Precision p);     // n^2 kValuesMovedPerCell values
// Bytes of the device-to-device copy a run measures beside the steps: two meshes, so that the
// copy's read + write moves as many bytes as a step's minimum.
long long copy_bytes(int n, Precision p);

// The ghost cells of a T x T tile of interior threads (the shared kernel), counted by walking the
// tile's threads through the kernel's own branches (kernels/cardiac2d/shared.cuh), and the
// one-thread-per-cell alternative (shared_all.cuh).
struct GhostAssignment {
    int tile = 0;
    // Interior threads only (the slides' choice and their code):
    long long edge_threads = 0;            // threads on the tile's edge: 4T - 4 (the slides' 60 at T = 16)
    long long ghost_loads = 0;             // ghost cells the code loads: 4T (64 at T = 16)
    long long threads_loading_two = 0;     // the corner threads, which load one above/below and one beside
    long long ghost_ring_with_corners = 0; // 4T + 4: the ring's corners are never read by a 5-point stencil
    std::string difference;                // the 60 vs 64 in one line
    // One thread per cell, ghosts included:
    long long all_threads = 0;             // (T + 2)^2
    long long idle_threads = 0;            // the ring's 4T + 4 threads idle in the compute
    double idle_share = 0;                 // idle_threads / all_threads
};
GhostAssignment ghost_assignment(int T);

}  // namespace stencil::cardiac2d
