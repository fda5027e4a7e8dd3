// ---------------------------------------------------------------------------------------------
// cardiac2d on the GPU (cardiac2d.h): the kernels of kernels/cardiac2d/ compiled by nvcc, and one
// launcher per version, each instantiated for float and double. The block shapes and grids come
// from the versions table (launch_geometry), the shared kernels' tile from its row, so nothing
// here restates a shape.
// ---------------------------------------------------------------------------------------------
#include "backends/cuda/cardiac2d.h"

#include <utility>

#include "backends/cuda/cuda_util.h"
#include "kernels/cardiac2d/fused.cuh"
#include "kernels/cardiac2d/ghosts.cuh"
#include "kernels/cardiac2d/naive.cuh"
#include "kernels/cardiac2d/shared.cuh"
#include "kernels/cardiac2d/shared_all.cuh"
#include "kernels/cardiac2d/shuffle.cuh"
#include "kernels/cardiac2d/sliding_rows.cuh"
#include "kernels/cardiac2d/versions.h"

namespace stencil::cardiac2d {

namespace {

using cuda_detail::check;
using cuda_detail::DeviceBuffer;

dim3 to_dim3(Dim3 d) { return dim3(unsigned(d.x), unsigned(d.y), unsigned(d.z)); }

constexpr const Version& kShared = version(KernelId::shared);
constexpr const Version& kSharedAll = version(KernelId::shared_all);
constexpr const Version& kSliding = version(KernelId::sliding_rows);

// ---- the launchers: one per row ----------------------------------------------------------------
// Each on a piece of the mesh (nx x ny interior cells, rows `pitch` apart): the whole mesh alone,
// or a rank's piece of a decomposed one.

template <class real>
void launch_cardiac_naive(const Launch& l, const real* E_prev, real* E, real* R, Piece m, real alpha, real dt,
                  cudaStream_t s) {
    cardiac_pde_naive_kernel<real><<<to_dim3(l.grid), to_dim3(l.block), 0, s>>>(E_prev, E, m.nx, m.ny, m.pitch, alpha);
    cardiac_ode_naive_kernel<real><<<to_dim3(l.grid), to_dim3(l.block), 0, s>>>(E, R, m.nx, m.ny, m.pitch, dt);
}
template <class real>
void launch_cardiac_fused(const Launch& l, const real* E_prev, real* E, real* R, Piece m, real alpha, real dt,
                  cudaStream_t s) {
    cardiac_fused_kernel<real>
        <<<to_dim3(l.grid), to_dim3(l.block), 0, s>>>(E_prev, E, R, m.nx, m.ny, m.pitch, alpha, dt);
}
template <class real>
void launch_cardiac_shared(const Launch& l, const real* E_prev, real* E, real* R, Piece m, real alpha, real dt,
                  cudaStream_t s) {
    cardiac_shared_kernel<real, kShared.tile_x, kShared.tile_y>
        <<<to_dim3(l.grid), to_dim3(l.block), 0, s>>>(E_prev, E, R, m.nx, m.ny, m.pitch, alpha, dt);
}
template <class real>
void launch_cardiac_shared_all(const Launch& l, const real* E_prev, real* E, real* R, Piece m, real alpha, real dt,
                  cudaStream_t s) {
    cardiac_shared_all_kernel<real, kSharedAll.tile_x, kSharedAll.tile_y>
        <<<to_dim3(l.grid), to_dim3(l.block), 0, s>>>(E_prev, E, R, m.nx, m.ny, m.pitch, alpha, dt);
}
template <class real>
void launch_cardiac_sliding_rows(const Launch& l, const real* E_prev, real* E, real* R, Piece m, real alpha, real dt,
                  cudaStream_t s) {
    cardiac_sliding_rows_kernel<real, kSliding.tile_x>
        <<<to_dim3(l.grid), to_dim3(l.block), 0, s>>>(E_prev, E, R, m.nx, m.ny, m.pitch, alpha, dt);
}
template <class real>
void launch_cardiac_shuffle(const Launch& l, const real* E_prev, real* E, real* R, Piece m, real alpha, real dt,
                  cudaStream_t s) {
    cardiac_shuffle_kernel<real>
        <<<to_dim3(l.grid), to_dim3(l.block), 0, s>>>(E_prev, E, R, m.nx, m.ny, m.pitch, alpha, dt);
}

// The version's kernel(s) on a piece whose ghost ring is already filled. Errors: the caller's.
template <class real>
void launch_update(KernelId k, const Launch& l, const real* E_prev, real* E, real* R, Piece m, real alpha, real dt,
                  cudaStream_t s) {
    switch (k) {
        case KernelId::naive: return launch_cardiac_naive<real>(l, E_prev, E, R, m, alpha, dt, s);
        case KernelId::fused: return launch_cardiac_fused<real>(l, E_prev, E, R, m, alpha, dt, s);
        case KernelId::shared: return launch_cardiac_shared<real>(l, E_prev, E, R, m, alpha, dt, s);
        case KernelId::shared_all: return launch_cardiac_shared_all<real>(l, E_prev, E, R, m, alpha, dt, s);
        case KernelId::sliding_rows: return launch_cardiac_sliding_rows<real>(l, E_prev, E, R, m, alpha, dt, s);
        case KernelId::shuffle: return launch_cardiac_shuffle<real>(l, E_prev, E, R, m, alpha, dt, s);
    }
}

template <class real>
void launch_ghosts(real* E_prev, Piece m, int outer_sides) {
    const Launch g = ghost_launch(m.nx, m.ny);
    cardiac_fill_ghosts_kernel<real><<<to_dim3(g.grid), to_dim3(g.block)>>>(E_prev, m.nx, m.ny, m.pitch, outer_sides);
}

// The mesh on the device: E_prev, E and R, each (n + 2)^2 values of `real`.
template <class real>
struct DeviceMesh {
    int n;
    std::size_t bytes;
    DeviceBuffer E_prev, E, R;
    explicit DeviceMesh(int n_)
        : n(n_), bytes(std::size_t(mesh_cells(n_)) * sizeof(real)), E_prev(bytes, "cardiac2d E_prev"),
          E(bytes, "cardiac2d E"), R(bytes, "cardiac2d R") {}

    void upload(const State& s) {
        const std::vector<real> e(s.E.begin(), s.E.end()), r(s.R.begin(), s.R.end());
        check(cudaMemcpy(E_prev.get(), e.data(), bytes, cudaMemcpyHostToDevice), "cudaMemcpy (E to the device)");
        check(cudaMemcpy(E.get(), e.data(), bytes, cudaMemcpyHostToDevice), "cudaMemcpy (E to the device)");
        check(cudaMemcpy(R.get(), r.data(), bytes, cudaMemcpyHostToDevice), "cudaMemcpy (R to the device)");
    }
    void download(State& s) const {
        std::vector<real> e(s.E.size()), r(s.R.size());
        check(cudaMemcpy(e.data(), E_prev.get(), bytes, cudaMemcpyDeviceToHost), "cudaMemcpy (E from the device)");
        check(cudaMemcpy(r.data(), R.get(), bytes, cudaMemcpyDeviceToHost), "cudaMemcpy (R from the device)");
        s.E.assign(e.begin(), e.end());
        s.R.assign(r.begin(), r.end());
    }
    // `steps` steps, E and E_prev swapped after each (only the pointers: the buffers stay put).
    // `poison`: E is set to NaN (all bytes 0xFF) before each step, so that a cell a kernel forgets
    // cannot pass for the previous step's value (the checks; the timed runs leave it out).
    void run(KernelId k, int steps, bool poison) {
        const Discretisation d = discretise(n);
        const Launch l = launch_geometry(k, n, sizeof(real) == 4 ? Precision::f32 : Precision::f64);
        const Piece m = mesh_piece(n, n);
        real* prev = static_cast<real*>(E_prev.get());
        real* next = static_cast<real*>(E.get());
        for (int i = 0; i < steps; ++i) {
            if (poison) check(cudaMemsetAsync(next, 0xFF, bytes), "cudaMemsetAsync (poisoning E)");
            launch_ghosts<real>(prev, m, kAllSides);
            launch_update<real>(k, l, prev, next, static_cast<real*>(R.get()), m, real(d.alpha), real(d.dt), nullptr);
            std::swap(prev, next);
        }
        cuda_detail::check_launch("cardiac2d step", false);
        if (steps % 2) std::swap(E_prev, E);  // the latest E is E_prev again, as the state expects
    }
};

template <class real>
void update_on_device(KernelId k, const void* E_prev, void* E, void* R, Piece m, double alpha, double dt,
                      cudaStream_t s) {
    const Launch l = launch_geometry(k, m.nx, m.ny, sizeof(real) == 4 ? Precision::f32 : Precision::f64);
    launch_update<real>(k, l, static_cast<const real*>(E_prev), static_cast<real*>(E), static_cast<real*>(R), m,
                        real(alpha), real(dt), s);
    cuda_detail::check_launch("cardiac2d update", false);
}

template <class real>
void advance_as(KernelId k, State& s, int steps) {
    DeviceMesh<real> mesh(s.n);
    mesh.upload(s);
    mesh.run(k, steps, true);
    cuda_detail::check_launch("cardiac2d step", true);
    mesh.download(s);
}

template <class real>
std::vector<double> time_as(KernelId k, int n, int steps, int reps) {
    DeviceMesh<real> mesh(n);
    mesh.upload(spiral_initial_state(n));
    mesh.run(k, steps, false);  // untimed: clocks up, code loaded
    cuda_detail::check_launch("cardiac2d step", true);
    std::vector<double> ms;
    for (int r = 0; r < reps; ++r) {
        cuda_detail::EventPair ev;
        ev.start();
        mesh.run(k, steps, false);
        ev.stop();
        cuda_detail::check_launch("cardiac2d step", true);
        ms.push_back(ev.ms() / steps);
    }
    return ms;
}

}  // namespace

void CudaStepper::advance(KernelId k, Precision p, State& s, int steps) {
    if (auto e = size_error(s.n)) throw UserError(*e);
    if (p == Precision::f32)
        advance_as<float>(k, s, steps);
    else
        advance_as<double>(k, s, steps);
}

std::vector<double> CudaStepper::time_step_ms(KernelId k, Precision p, int n, int steps, int reps) {
    if (auto e = size_error(n)) throw UserError(*e);
    return p == Precision::f32 ? time_as<float>(k, n, steps, reps) : time_as<double>(k, n, steps, reps);
}

void launch_update_on_device(KernelId k, Precision p, const void* E_prev, void* E, void* R, int n, double alpha,
                             double dt) {
    launch_step_on_device(k, p, E_prev, E, R, mesh_piece(n, n), alpha, dt);
}

void launch_step_on_device(KernelId k, Precision p, const void* E_prev, void* E, void* R, const Piece& piece,
                           double alpha, double dt, cudaStream_t stream) {
    if (p == Precision::f64) update_on_device<double>(k, E_prev, E, R, piece, alpha, dt, stream);
    else update_on_device<float>(k, E_prev, E, R, piece, alpha, dt, stream);
}

void launch_ghosts_on_device(Precision p, void* E_prev, const Piece& piece, int outer_sides) {
    if (p == Precision::f64) launch_ghosts<double>(static_cast<double*>(E_prev), piece, outer_sides);
    else launch_ghosts<float>(static_cast<float*>(E_prev), piece, outer_sides);
    cuda_detail::check_launch("cardiac2d ghost cells", false);
}

}  // namespace stencil::cardiac2d
