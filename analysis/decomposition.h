// Domain decomposition of the 3D grid over ranks, as geometry and as a model (plain C++, no MPI):
// which sub-box each rank owns for `--decompose PXxPYxPZ`, where its halos are, the rules a
// decomposition must meet, and the halo bytes per step with the communication time they predict.
// distributed/ runs on exactly these sub-boxes, so the model's bytes are the bytes it sends.
//
// The split: every axis of n cells is cut into p near-equal ranges, the first n % p ranges one
// cell longer. Every cell of the grid, the fixed boundary included, has one owner. A rank's local
// array is its owned box plus r cells on each side that has a neighbour (the halo); on a side at
// the grid's edge the owned box already starts with the r boundary cells, which no kernel writes.
// A star stencil reads along the axes only, so halos are exchanged on faces, never edges or corners.
#pragma once
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/versions.h"

namespace stencil::analysis {

struct Decomposition {
    std::array<int, 3> parts{1, 1, 1};  // ranks along x, y, z
    int ranks() const { return parts[0] * parts[1] * parts[2]; }
    std::string text() const;  // "2x1x1"
};

// "PXxPYxPZ" (each 1..4096), or "PXxPY" when `axes` is 2 (then parts[2] = 1). Throws UserError
// naming the expected form.
Decomposition parse_decomposition(std::string_view text, int axes = 3);

// [lo, hi) in global cells along one axis.
struct CellRange {
    int lo = 0, hi = 0;
    int size() const { return hi - lo; }
};
// Range `index` of `parts` near-equal ranges of n cells (the first n % parts one longer).
CellRange split_range(int n, int parts, int index);

inline constexpr int kNoNeighbour = -1;

struct SubBox {
    int rank = 0;
    std::array<int, 3> coord{};              // position in the process grid
    std::array<CellRange, 3> owned{};        // global cells this rank owns, per axis
    std::array<std::array<int, 2>, 3> neighbour{};  // [axis][0: low side, 1: high side]: a rank or kNoNeighbour
    std::array<std::array<int, 2>, 3> halo{};       // cells of halo on that side: r with a neighbour, else 0
    GridDims owned_dims() const { return {owned[0].size(), owned[1].size(), owned[2].size()}; }
    GridDims local_dims() const;  // owned plus halos: the array the kernel runs on
    int faces() const;            // sides with a neighbour (messages sent per step)
};

// Ranks are numbered x fastest: rank = (cz * py + cy) * px + cx.
int rank_of(const Decomposition& d, std::array<int, 3> coord);
SubBox sub_box(GridDims g, const Decomposition& d, int radius, int rank);

// Why the decomposition cannot run on grid g with radius r, in one sentence; nullopt when it can.
// Rules: every axis has at most as many parts as cells; a sub-box side with a neighbour is at least
// r cells (a neighbour's halo comes from one rank, never from beyond it); and every rank's local
// array is a grid the kernels accept (each side at least 2r + 1).
std::optional<std::string> decomposition_error(GridDims g, const Decomposition& d, int radius);

// Values one rank sends per step: r x (face area) for every face with a neighbour.
long long halo_values_sent(const SubBox& b, int radius);

// The model of one decomposition: per rank the owned cells, the halo bytes it sends per step and
// their ratio (halo cells per owned cell: the surface to volume that decides whether a rank
// computes more than it talks), and the time the exchange takes over a link of given bandwidth.
struct RankTraffic {
    int rank = 0;
    GridDims owned;
    int messages = 0;          // faces with a neighbour: one send (and one receive) each
    long long halo_bytes = 0;  // sent per step
    double halo_per_owned = 0; // halo values sent / owned cells
};
struct DecompositionModel {
    GridDims grid;
    Decomposition decomposition;
    int radius = 1;
    Precision precision = Precision::f32;
    std::vector<RankTraffic> ranks;
    long long total_halo_bytes = 0;     // all ranks, per step
    long long max_rank_halo_bytes = 0;  // the busiest rank
    int max_rank_messages = 0;
    // Each rank sends its faces one after another over one link of `gbps` (10^9 bytes per second)
    // and pays `latency_us` per message; receives overlap sends (full duplex). The step's exchange
    // waits for the busiest rank.
    double predicted_seconds(double gbps, double latency_us) const;
};
DecompositionModel decomposition_model(GridDims g, const Decomposition& d, int radius, Precision p);

// The split of `ranks` ranks that sends the fewest halo bytes per step in all, among those
// decomposition_error accepts; on a tie the one with fewer cuts across x (z planes and y rows are
// contiguous, x rows are not). `weak`: the grid grows with the split, `g` being one rank's
// sub-box (the whole grid is g times the parts), as in a weak-scaling sweep; otherwise g is the
// whole grid. `one_axis`: only splits that cut one axis (passes of fused steps need them; `radius`
// is then their halo width). nullopt when no split of that many ranks fits.
std::optional<Decomposition> balanced_decomposition(GridDims g, int ranks, int radius, bool weak,
                                                    bool one_axis = false);
// g times the parts, axis by axis: the whole grid of a weak-scaling row.
GridDims grown_grid(GridDims sub, const Decomposition& d);

// ---- the cardiac2d mesh (text 002's P1..P15 picture) ----------------------------------------
// The n x n interior of the cardiac mesh is split as above (parts[2] = 1), in mesh coordinates:
// interior cells are 1..n, row and column 0 and n + 1 the whole mesh's ghost ring. Unlike the 3D
// grid, every piece has a ghost ring on all four sides: a neighbour's edge column or row where it
// has one, the no-flux mirror (filled by the rank itself) on the mesh's outer sides. So halo[][]
// is 1 on every x and y side, and neighbour[][] says which sides are exchanged; local_dims() is
// (nx + 2) x (ny + 2) x 1. Only E_prev's ring is exchanged: R is read at the cell alone.
SubBox cardiac_piece(int n, const Decomposition& d, int rank);
// "PXxPY" or "PXxPYx1"; throws UserError for anything else, PZ other than 1 included.
Decomposition parse_cardiac_decomposition(std::string_view text);
// Why n x n cannot be split so: at most one part per interior cell along each axis (a piece
// needs at least one interior cell; the ghost ring is always one cell).
std::optional<std::string> cardiac_decomposition_error(int n, const Decomposition& d);
// The model for the cardiac mesh: E_prev's edge cells sent per step, in precision p.
DecompositionModel cardiac_decomposition_model(int n, const Decomposition& d, Precision p);
// The same choice as balanced_decomposition for the n x n cardiac mesh (PZ = 1).
std::optional<Decomposition> balanced_cardiac_decomposition(int n, int ranks);

}  // namespace stencil::analysis
