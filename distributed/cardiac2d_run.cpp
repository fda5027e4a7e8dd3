#include "distributed/seconds_since.h"
#include "distributed/cardiac2d_run.h"

#include <chrono>
#include <limits>
#include <utility>
#include <vector>

#include "core/cardiac2d.h"
#include "core/error.h"
#include "distributed/exchange_timing.h"
#include "distributed/halo_exchange.h"
#include "distributed/scatter_gather.h"

namespace stencil::distributed {

namespace {


double max_over_ranks(const MpiWorld& world, double mine) {
    double out = 0;
    mpi_check(MPI_Reduce(&mine, &out, 1, MPI_DOUBLE, MPI_MAX, 0, world.comm()), "MPI_Reduce of the times");
    return out;
}

// One rank's piece in the kernel's precision.
template <class real>
struct PieceArrays {
    std::vector<real> E_prev, E, R;
};

// Long because it is one rank's run from its piece to its result: the arrays, the exchange, the
// steps and the check share its locals.
template <class real>
Cardiac2dRunResult run_typed(const MpiWorld& world, cardiac2d::CpuStepper& stepper, const Cardiac2dRunOptions& o) {
    const int n = o.n;
    const Precision p = o.precision;
    const int value_bytes = static_cast<int>(sizeof(real));
    const analysis::SubBox box = analysis::cardiac_piece(n, o.decomposition, world.rank());
    const cardiac2d::Piece piece = cardiac2d::mesh_piece(box.owned[0].size(), box.owned[1].size());
    const int sides = outer_sides(box);
    const GridDims mesh_dims{cardiac2d::mesh_width(n), cardiac2d::mesh_width(n), 1};
    const BoxOfRank box_of = [&](int rank) { return analysis::cardiac_piece(n, o.decomposition, rank); };
    // The whole mesh's alpha and dt: a piece is part of the same discretisation.
    const cardiac2d::Discretisation d = cardiac2d::discretise(n);

    // The spiral's start, rounded to the kernel's precision on rank 0, as a piece each (ring included).
    cardiac2d::State start;
    std::vector<real> global_E, global_R;
    if (world.root()) {
        start = cardiac2d::spiral_initial_state(n);
        global_E.assign(start.E.begin(), start.E.end());
        global_R.assign(start.R.begin(), start.R.end());
    }
    PieceArrays<real> a;
    a.E_prev.resize(static_cast<std::size_t>(piece.cells()));
    a.R.resize(a.E_prev.size());
    scatter_local_arrays(world, mesh_dims, box_of, value_bytes, world.root() ? global_E.data() : nullptr,
                         a.E_prev.data());
    scatter_local_arrays(world, mesh_dims, box_of, value_bytes, world.root() ? global_R.data() : nullptr, a.R.data());
    a.E = a.E_prev;

    // NVRTC builds the program on first use (or loads it from the disk cache): rank 0 first, so the
    // others load what it compiled instead of all compiling at once; none of it is timed.
    {
        PieceArrays<real> scratch = a;
        const auto warm = [&] { stepper.step(o.kernel, p, scratch.E_prev.data(), scratch.E.data(), scratch.R.data(),
                                             piece, d.alpha, d.dt); };
        if (world.root()) warm();
        MPI_Barrier(world.comm());
        if (!world.root()) warm();
    }

    HaloExchange halo(world, box, 1, value_bytes);
    MPI_Barrier(world.comm());
    const auto t0 = Clock::now();
    double exchange_seconds = 0;
    for (int s = 0; s < o.steps; ++s) {
        const auto te = Clock::now();
        halo.exchange(a.E_prev.data());
        exchange_seconds += seconds_since(te);
        stepper.fill_ghosts(p, a.E_prev.data(), piece, sides);
        // Poisoned as the whole mesh's E is (cardiac2d_cpu.cpp): a cell no kernel wrote shows.
        std::fill(a.E.begin(), a.E.end(), std::numeric_limits<real>::quiet_NaN());
        stepper.step(o.kernel, p, a.E_prev.data(), a.E.data(), a.R.data(), piece, d.alpha, d.dt);
        std::swap(a.E_prev, a.E);
    }
    const double loop_seconds = seconds_since(t0);

    Cardiac2dRunResult r;
    r.options = o;
    r.ranks = world.size();
    r.backend = stepper.backend_name();
    r.device = "the PTX engine";
    r.seconds_per_step = max_over_ranks(world, loop_seconds) / o.steps;
    r.exchange_seconds_per_step = max_over_ranks(world, exchange_seconds) / o.steps;
    r.exchange_alone_seconds = time_exchange_alone(world, halo, a.E_prev.data());
    long long sent = halo.bytes_sent_per_exchange();
    r.halo_bytes_per_rank.resize(static_cast<std::size_t>(world.size()));
    mpi_check(MPI_Gather(&sent, 1, MPI_LONG_LONG, r.halo_bytes_per_rank.data(), 1, MPI_LONG_LONG, 0, world.comm()),
              "MPI_Gather of the halo bytes");
    if (world.root()) {
        global_E.assign(global_E.size(), real(0));
        global_R.assign(global_R.size(), real(0));
    }
    gather_owned_boxes(world, mesh_dims, box_of, value_bytes, a.E_prev.data(), world.root() ? global_E.data() : nullptr);
    gather_owned_boxes(world, mesh_dims, box_of, value_bytes, a.R.data(), world.root() ? global_R.data() : nullptr);
    if (!world.root()) return r;

    for (long long bytes : r.halo_bytes_per_rank) r.halo_bytes_total += bytes;

    // The whole mesh alone, through the same stepper (it rounds the fp64 start to `real` itself).
    cardiac2d::State alone = start;
    const auto t1 = Clock::now();
    stepper.advance(o.kernel, p, alone, o.steps);
    r.single_domain_seconds_per_step = seconds_since(t1) / o.steps;
    r.compare(std::vector<double>(global_E.begin(), global_E.end()), std::vector<double>(global_R.begin(), global_R.end()),
              alone.E, alone.R);
    return r;
}

}  // namespace

Cardiac2dRunResult run_cardiac2d(const MpiWorld& world, cardiac2d::CpuStepper& stepper, const Cardiac2dRunOptions& o) {
    if (auto e = cardiac2d_run_error(o, world.size())) throw UserError(*e);
    Cardiac2dRunResult r = o.precision == Precision::f32 ? run_typed<float>(world, stepper, o)
                                                         : run_typed<double>(world, stepper, o);
    int ok = r.ok ? 1 : 0;  // rank 0's verdict, for every rank's exit code
    mpi_check(MPI_Bcast(&ok, 1, MPI_INT, 0, world.comm()), "MPI_Bcast of the verdict");
    r.ok = ok != 0;
    return r;
}

}  // namespace stencil::distributed
