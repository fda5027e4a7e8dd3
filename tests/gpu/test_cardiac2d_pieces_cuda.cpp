// The cardiac2d step entry on the GPU on pieces of the mesh (launch_ghosts_on_device with a side
// mask, launch_step_on_device on nx x ny with a pitch): the whole mesh as one piece with a wider
// pitch, and the mesh cut in two along y with the ghost rows copied between the pieces here, must
// both equal CudaStepper::advance bit for bit, for every version.
#include <catch2/catch.hpp>

#include <cuda_runtime_api.h>

#include <cstring>
#include <vector>

#include "backends/cuda/cardiac2d.h"
#include "tests/gpu/gpu_fixture.h"

using stencil::Precision;
using namespace stencil::cardiac2d;

namespace {

// A piece's three arrays on the device, filled from rows [y0, y0 + ny) of the whole mesh `s`.
struct DevicePiece {
    Piece piece;
    int y0 = 1, sides = 0;
    double *E_prev = nullptr, *E = nullptr, *R = nullptr;
    DevicePiece(const State& s, Piece p, int first_row, int outer) : piece(p), y0(first_row), sides(outer) {
        const std::size_t bytes = std::size_t(piece.cells()) * sizeof(double);
        REQUIRE(cudaMalloc(reinterpret_cast<void**>(&E_prev), bytes) == cudaSuccess);
        REQUIRE(cudaMalloc(reinterpret_cast<void**>(&E), bytes) == cudaSuccess);
        REQUIRE(cudaMalloc(reinterpret_cast<void**>(&R), bytes) == cudaSuccess);
        std::vector<double> e(std::size_t(piece.cells()), 0.0), r = e;
        for (int y = 0; y < piece.ny + 2; ++y)
            for (int x = 0; x < piece.nx + 2; ++x) {
                e[std::size_t(y) * piece.pitch + x] = s.E[s.index(x, y0 - 1 + y)];
                r[std::size_t(y) * piece.pitch + x] = s.R[s.index(x, y0 - 1 + y)];
            }
        REQUIRE(cudaMemcpy(E_prev, e.data(), bytes, cudaMemcpyHostToDevice) == cudaSuccess);
        REQUIRE(cudaMemcpy(R, r.data(), bytes, cudaMemcpyHostToDevice) == cudaSuccess);
    }
    ~DevicePiece() {
        cudaFree(E_prev);
        cudaFree(E);
        cudaFree(R);
    }
    double* row(double* a, int y) const { return a + std::size_t(y) * piece.pitch + 1; }  // its interior cells
    void step(KernelId k, const Discretisation& d) {
        launch_ghosts_on_device(Precision::f64, E_prev, piece, sides);
        launch_step_on_device(k, Precision::f64, E_prev, E, R, piece, d.alpha, d.dt);
        std::swap(E_prev, E);
    }
    // Its interior rows' E and R compared with the whole mesh's, bit for bit: values that differ.
    long long differing(const State& want) const {
        std::vector<double> e(std::size_t(piece.cells())), r(e.size());
        REQUIRE(cudaMemcpy(e.data(), E_prev, e.size() * sizeof(double), cudaMemcpyDeviceToHost) == cudaSuccess);
        REQUIRE(cudaMemcpy(r.data(), R, r.size() * sizeof(double), cudaMemcpyDeviceToHost) == cudaSuccess);
        long long bad = 0;
        for (int y = 1; y <= piece.ny; ++y)
            for (int x = 1; x <= piece.nx; ++x) {
                const long long g = want.index(x, y0 - 1 + y);
                bad += std::memcmp(&e[std::size_t(y) * piece.pitch + x], &want.E[g], sizeof(double)) != 0;
                bad += std::memcmp(&r[std::size_t(y) * piece.pitch + x], &want.R[g], sizeof(double)) != 0;
            }
        return bad;
    }
};

}  // namespace

TEST_CASE("cardiac2d pieces on the GPU: one wide-pitch piece and two pieces equal the whole mesh", "[gpu]") {
    stencil::test::gpu();
    const KernelId k = GENERATE(KernelId::naive, KernelId::fused, KernelId::shared, KernelId::shared_all,
                                KernelId::sliding_rows, KernelId::shuffle);
    CAPTURE(version(k).name);
    const int n = 70, steps = 5, cut = 33;  // rows 1..33 and 34..70
    const Discretisation d = discretise(n);
    const State start = spiral_initial_state(n);
    State want = start;
    CudaStepper().advance(k, Precision::f64, want, steps);

    DevicePiece whole(start, {n, n, n + 7}, 1, kAllSides);
    DevicePiece top(start, mesh_piece(n, cut), 1, kWestSide | kEastSide | kNorthSide);
    DevicePiece bottom(start, mesh_piece(n, n - cut), cut + 1, kWestSide | kEastSide | kSouthSide);
    const std::size_t row_bytes = std::size_t(n) * sizeof(double);
    for (int s = 0; s < steps; ++s) {
        whole.step(k, d);
        // The exchange: each piece's edge row into the other's ghost row.
        REQUIRE(cudaMemcpy(top.row(top.E_prev, cut + 1), bottom.row(bottom.E_prev, 1), row_bytes,
                           cudaMemcpyDeviceToDevice) == cudaSuccess);
        REQUIRE(cudaMemcpy(bottom.row(bottom.E_prev, 0), top.row(top.E_prev, cut), row_bytes,
                           cudaMemcpyDeviceToDevice) == cudaSuccess);
        top.step(k, d);
        bottom.step(k, d);
    }
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    REQUIRE(whole.differing(want) == 0);
    REQUIRE(top.differing(want) + bottom.differing(want) == 0);
}
