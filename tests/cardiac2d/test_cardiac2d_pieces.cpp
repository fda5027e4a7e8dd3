// The step entry on pieces of the mesh (CpuStepper::fill_ghosts with a side mask, CpuStepper::step
// on nx x ny with a pitch): the mesh cut into pieces here, in one process, each piece's ghost ring
// filled from its neighbours' edge cells by hand (what distributed/ does through MPI), must give
// the whole mesh's E and R bit for bit after several steps. Pieces one cell thin (whose mirror
// reaches into the neighbour's cells), uneven cuts and a pitch wider than nx + 2 included.
#include <catch2/catch.hpp>

#include <cstring>
#include <limits>
#include <vector>

#include "backends/cpu/cardiac2d_cpu.h"

using stencil::Precision;
using namespace stencil::cardiac2d;

namespace {

// One piece in fp64: interior cells [x0, x0 + nx) x [y0, y0 + ny) of the mesh (1-based).
struct PieceOfMesh {
    int x0, y0;
    Piece piece;
    int sides;
    std::vector<double> E_prev, E, R;
    double& at(std::vector<double>& a, int x, int y) const { return a[std::size_t(y) * piece.pitch + x]; }
};

std::vector<int> cuts(int n, std::vector<int> widths) {
    std::vector<int> starts{1};
    for (std::size_t i = 0; i + 1 < widths.size(); ++i) starts.push_back(starts.back() + widths[i]);
    REQUIRE(starts.back() + widths.back() == n + 1);
    return starts;
}

}  // namespace

TEST_CASE("cardiac2d pieces: one mesh cut by hand equals the whole mesh bit for bit", "[kernel][cpu]") {
    const KernelId k = GENERATE(KernelId::naive, KernelId::fused, KernelId::shared, KernelId::shared_all,
                                KernelId::sliding_rows, KernelId::shuffle);
    const int extra_pitch = GENERATE(0, 3);
    const int n = 19;
    // Columns 1 | 10 | 8 and rows 12 | 1 | 6: one-cell pieces on both axes, against an outer side.
    const std::vector<int> widths{1, 10, 8}, heights{12, 1, 6};
    const std::vector<int> xs = cuts(n, widths), ys = cuts(n, heights);
    const int steps = 4;
    CAPTURE(version(k).name, extra_pitch);
    const Precision p = Precision::f64;
    const Discretisation d = discretise(n);
    const State start = spiral_initial_state(n);

    std::vector<PieceOfMesh> pieces;
    for (std::size_t j = 0; j < ys.size(); ++j)
        for (std::size_t i = 0; i < xs.size(); ++i) {
            PieceOfMesh q{xs[i], ys[j], {widths[i], heights[j], widths[i] + 2 + extra_pitch}, 0, {}, {}, {}};
            q.sides = (i == 0 ? kWestSide : 0) | (i + 1 == xs.size() ? kEastSide : 0) | (j == 0 ? kNorthSide : 0) |
                      (j + 1 == ys.size() ? kSouthSide : 0);
            q.E_prev.assign(std::size_t(q.piece.cells()), 0.0);
            q.R = q.E_prev;
            for (int y = 1; y <= q.piece.ny; ++y)
                for (int x = 1; x <= q.piece.nx; ++x) {
                    q.at(q.E_prev, x, y) = start.E[start.index(q.x0 + x - 1, q.y0 + y - 1)];
                    q.at(q.R, x, y) = start.R[start.index(q.x0 + x - 1, q.y0 + y - 1)];
                }
            pieces.push_back(q);
        }
    // The mesh cell (gx, gy) from whichever piece owns it.
    const auto owned = [&](int gx, int gy) -> double {
        for (PieceOfMesh& q : pieces)
            if (gx >= q.x0 && gx < q.x0 + q.piece.nx && gy >= q.y0 && gy < q.y0 + q.piece.ny)
                return q.at(q.E_prev, gx - q.x0 + 1, gy - q.y0 + 1);
        return 0.0;  // beyond the mesh: an outer side, mirrored below
    };

    CpuStepper cpu;
    for (int s = 0; s < steps; ++s) {
        for (PieceOfMesh& q : pieces) {  // the exchange: edges only, no corners
            for (int y = 1; y <= q.piece.ny; ++y) {
                if (!(q.sides & kWestSide)) q.at(q.E_prev, 0, y) = owned(q.x0 - 1, q.y0 + y - 1);
                if (!(q.sides & kEastSide)) q.at(q.E_prev, q.piece.nx + 1, y) = owned(q.x0 + q.piece.nx, q.y0 + y - 1);
            }
            for (int x = 1; x <= q.piece.nx; ++x) {
                if (!(q.sides & kNorthSide)) q.at(q.E_prev, x, 0) = owned(q.x0 + x - 1, q.y0 - 1);
                if (!(q.sides & kSouthSide)) q.at(q.E_prev, x, q.piece.ny + 1) = owned(q.x0 + x - 1, q.y0 + q.piece.ny);
            }
        }
        for (PieceOfMesh& q : pieces) {
            cpu.fill_ghosts(p, q.E_prev.data(), q.piece, q.sides);
            q.E.assign(q.E_prev.size(), std::numeric_limits<double>::quiet_NaN());
            cpu.step(k, p, q.E_prev.data(), q.E.data(), q.R.data(), q.piece, d.alpha, d.dt);
        }
        for (PieceOfMesh& q : pieces) std::swap(q.E_prev, q.E);
    }

    State alone = start;
    cpu.advance(k, p, alone, steps);
    long long differing = 0;
    for (PieceOfMesh& q : pieces)
        for (int y = 1; y <= q.piece.ny; ++y)
            for (int x = 1; x <= q.piece.nx; ++x) {
                const long long g = alone.index(q.x0 + x - 1, q.y0 + y - 1);
                differing += std::memcmp(&q.at(q.E_prev, x, y), &alone.E[g], sizeof(double)) != 0;
                differing += std::memcmp(&q.at(q.R, x, y), &alone.R[g], sizeof(double)) != 0;
            }
    REQUIRE(differing == 0);
}

TEST_CASE("cardiac2d pieces: the ghost filler mirrors only the sides it is given", "[kernel][cpu]") {
    const Piece piece = mesh_piece(5, 4);
    const int sides = kWestSide | kSouthSide;
    std::vector<double> E(std::size_t(piece.cells()));
    for (std::size_t i = 0; i < E.size(); ++i) E[i] = double(i) + 0.5;  // every cell its own value
    const std::vector<double> before = E;
    CpuStepper cpu;
    cpu.fill_ghosts(Precision::f64, E.data(), piece, sides);
    const auto at = [&](const std::vector<double>& a, int x, int y) { return a[std::size_t(y) * piece.pitch + x]; };
    long long wrong = 0;
    for (int y = 0; y < piece.ny + 2; ++y)
        for (int x = 0; x < piece.nx + 2; ++x) {
            double want = at(before, x, y);
            const bool row_inside = y >= 1 && y <= piece.ny, column_inside = x >= 1 && x <= piece.nx;
            if (x == 0 && row_inside) want = at(before, 2, y);                          // west: mirrored
            if (y == piece.ny + 1 && column_inside) want = at(before, x, piece.ny - 1);  // south: mirrored
            wrong += at(E, x, y) != want;  // east, north, corners and the interior: untouched
        }
    REQUIRE(wrong == 0);
}
