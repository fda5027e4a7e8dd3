#include "distributed/seconds_since.h"
#include "distributed/star3d_run.h"

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <utility>

#include "core/error.h"
#include "core/field.h"
#include "core/weights.h"
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

// One launch as `run` makes it (one step, or a pass of fused steps): the output starts as a copy of
// the input, so the cells no kernel writes (the r outermost layers: the grid's fixed boundary, or a
// halo refreshed before the next pass) hold the input's values; then the backend's launch.
template <class real>
void step(Backend& backend, const LaunchRequest& req, const StencilWeights& w, std::vector<real>& in,
          std::vector<real>& out) {
    out = in;
    backend.execute(req, w, in.data(), out.data());
    std::swap(in, out);
}

template <class real>
Star3dRunResult run_typed(const MpiWorld& world, Backend& backend, const Star3dRunOptions& o) {
    const LaunchRequest& global = o.request;
    const int halo = pass_halo(o);
    const int value_bytes = static_cast<int>(sizeof(real));
    const analysis::SubBox box = analysis::sub_box(global.dims, o.decomposition, halo, world.rank());
    const std::vector<LaunchRequest> passes = pass_launches(o, box.local_dims());
    agree(world, backend.cannot_run(passes.front()));
    const StencilWeights weights = random_weights(global.radius, o.seed);

    Field<real> input;
    if (world.root()) input = random_field<real>(global.dims, o.seed);
    std::vector<real> a(static_cast<std::size_t>(box.local_dims().cells())), b(a.size());
    scatter_local_arrays(world, global.dims, o.decomposition, halo, value_bytes,
                         world.root() ? input.data.data() : nullptr, a.data());

    // The backend builds its program on first use (NVRTC, or the disk cache): rank 0 first, so the
    // others load what it compiled instead of all compiling at once; none of it is timed.
    {
        std::vector<real> scratch_in = a, scratch_out;
        if (world.root()) step(backend, passes.front(), weights, scratch_in, scratch_out);
        MPI_Barrier(world.comm());
        if (!world.root()) step(backend, passes.front(), weights, scratch_in, scratch_out);
    }

    HaloExchange exchange(world, box, halo, value_bytes);
    MPI_Barrier(world.comm());
    const auto t0 = Clock::now();
    double exchange_seconds = 0;
    for (const LaunchRequest& pass : passes) {
        const auto te = Clock::now();
        exchange.exchange(a.data());
        exchange_seconds += seconds_since(te);
        step(backend, pass, weights, a, b);
    }
    const double loop_seconds = seconds_since(t0);

    Star3dRunResult r;
    r.options = o;
    r.ranks = world.size();
    r.backend = std::string(to_string(backend.kind()));
    r.device = backend.device().name;
    r.seconds_per_step = max_over_ranks(world, loop_seconds) / o.steps;
    r.exchange_seconds_per_step = max_over_ranks(world, exchange_seconds) / o.steps;
    r.exchange_alone_seconds = time_exchange_alone(world, exchange, a.data());
    long long sent = exchange.bytes_sent_per_exchange();
    std::vector<long long> sent_per_rank(static_cast<std::size_t>(world.size()));
    mpi_check(MPI_Gather(&sent, 1, MPI_LONG_LONG, sent_per_rank.data(), 1, MPI_LONG_LONG, 0, world.comm()),
              "MPI_Gather of the halo bytes");
    Field<real> gathered;
    if (world.root()) gathered = Field<real>(global.dims);
    gather_owned_boxes(world, global.dims, o.decomposition, halo, value_bytes, a.data(),
                       world.root() ? gathered.data.data() : nullptr);
    if (!world.root()) return r;

    r.set_halo_bytes(sent_per_rank);

    // The single domain: the same steps on the whole grid, through the same backend.
    std::vector<real> alone = input.data, scratch;
    const auto t1 = Clock::now();
    for (const LaunchRequest& pass : pass_launches(o, global.dims)) step(backend, pass, weights, alone, scratch);
    r.single_domain_seconds_per_step = seconds_since(t1) / o.steps;
    r.compare(gathered.data.data(), alone.data(), global.dims.cells());
    return r;
}

}  // namespace

Star3dRunResult run_star3d(const MpiWorld& world, Backend& backend, const Star3dRunOptions& o) {
    if (auto e = star3d_run_error(o, world.size())) throw UserError(*e);
    Star3dRunResult r = o.request.precision == Precision::f32 ? run_typed<float>(world, backend, o)
                                                              : run_typed<double>(world, backend, o);
    int ok = r.ok ? 1 : 0;  // rank 0's verdict, for every rank's exit code
    mpi_check(MPI_Bcast(&ok, 1, MPI_INT, 0, world.comm()), "MPI_Bcast of the verdict");
    r.ok = ok != 0;
    return r;
}

}  // namespace stencil::distributed
