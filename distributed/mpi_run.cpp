#include "distributed/mpi_run.h"

#include <utility>

#include "core/error.h"
#include "distributed/exchange_timing.h"
#include "distributed/halo_exchange.h"
#include "distributed/scatter_gather.h"
#include "distributed/seconds_since.h"

namespace stencil::distributed {

namespace {

double max_over_ranks(const MpiWorld& world, double mine) {
    double out = 0;
    mpi_check(MPI_Reduce(&mine, &out, 1, MPI_DOUBLE, MPI_MAX, 0, world.comm()), "MPI_Reduce of the times");
    return out;
}

BoxOfRank boxes_of(const DecomposedProblem& problem) {
    return [&problem](int rank) { return problem.box_of(rank); };
}

}  // namespace

Fields scatter_fields(const MpiWorld& world, const DecomposedProblem& problem, const Fields& whole) {
    const std::size_t bytes = std::size_t(problem.box_of(world.rank()).local_dims().cells()) * problem.value_bytes();
    const std::size_t fields = world.root() ? whole.size() : static_cast<std::size_t>(problem.fields());
    Fields piece(fields, std::vector<unsigned char>(bytes));
    for (std::size_t f = 0; f < fields; ++f)
        scatter_local_arrays(world, problem.whole_dims(), boxes_of(problem), problem.value_bytes(),
                             world.root() ? whole[f].data() : nullptr, piece[f].data());
    return piece;
}

Fields gather_fields(const MpiWorld& world, const DecomposedProblem& problem, const Fields& piece) {
    const std::size_t bytes = std::size_t(problem.whole_dims().cells()) * problem.value_bytes();
    Fields whole(world.root() ? piece.size() : 0, std::vector<unsigned char>(bytes));
    for (std::size_t f = 0; f < piece.size(); ++f)
        gather_owned_boxes(world, problem.whole_dims(), boxes_of(problem), problem.value_bytes(), piece[f].data(),
                           world.root() ? whole[f].data() : nullptr);
    return whole;
}

std::vector<long long> gather_from_ranks(const MpiWorld& world, long long mine) {
    std::vector<long long> all(world.root() ? static_cast<std::size_t>(world.size()) : 0);
    mpi_check(MPI_Gather(&mine, 1, MPI_LONG_LONG, all.data(), 1, MPI_LONG_LONG, 0, world.comm()),
              "MPI_Gather of the halo bytes");
    return all;
}

void broadcast_verdict(const MpiWorld& world, DecomposedRunResult& r) {
    int ok = r.ok ? 1 : 0;
    mpi_check(MPI_Bcast(&ok, 1, MPI_INT, 0, world.comm()), "MPI_Bcast of the verdict");
    r.ok = ok != 0;
}

// Long because it is one rank's run from its piece to its result: the arrays, the exchange, the
// timed passes and the check share its locals.
DecomposedRunResult run_on_ranks(const MpiWorld& world, const DecomposedProblem& problem, HostSteps& steps) {
    if (auto e = problem.run_error(world.size())) throw UserError(*e);
    const analysis::SubBox box = problem.box_of(world.rank());
    agree(world, steps.cannot_run(box));
    const Fields start = world.root() ? problem.start() : Fields{};
    Fields piece = scatter_fields(world, problem, start);
    std::vector<unsigned char> in = std::move(piece[0]), out = in;
    Fields others(std::make_move_iterator(piece.begin() + 1), std::make_move_iterator(piece.end()));
    const std::unique_ptr<HostPieceSteps> launches = steps.on_piece(box);

    // The engine builds its program on first use (NVRTC, or the disk cache): rank 0 first, so the
    // others load what it compiled instead of all compiling at once; none of it is timed.
    {
        std::vector<unsigned char> scratch_in = in, scratch_out = out;
        Fields scratch_others = others;
        const auto warm = [&] { launches->pass(0, scratch_in, scratch_out, scratch_others); };
        if (world.root()) warm();
        MPI_Barrier(world.comm());
        if (!world.root()) warm();
    }

    HaloExchange exchange(world, box, problem.halo(), problem.value_bytes());
    MPI_Barrier(world.comm());
    const auto t0 = Clock::now();
    double exchange_seconds = 0;
    for (int k = 0; k < problem.passes(); ++k) {
        const auto te = Clock::now();
        exchange.exchange(in.data());
        exchange_seconds += seconds_since(te);
        launches->pass(k, in, out, others);
        std::swap(in, out);
    }
    const double loop_seconds = seconds_since(t0);

    DecomposedRunResult r;
    r.ranks = world.size();
    r.backend = steps.backend();
    r.device = steps.device();
    r.seconds_per_step = max_over_ranks(world, loop_seconds) / problem.steps();
    r.exchange_seconds_per_step = max_over_ranks(world, exchange_seconds) / problem.steps();
    r.exchange_alone_seconds = time_exchange_alone(world, exchange, in.data());
    const std::vector<long long> sent = gather_from_ranks(world, exchange.bytes_sent_per_exchange());
    others.insert(others.begin(), std::move(in));
    const Fields gathered = gather_fields(world, problem, others);
    if (world.root()) {
        r.set_halo_bytes(sent, problem.passes(), problem.steps());
        r.model_halo_bytes_total = per_step(problem.model().total_halo_bytes, problem.passes(), problem.steps());
        const Fields alone = steps.single_domain(start, &r.single_domain_seconds_per_step);
        r.set_verdict(problem.compare(gathered, alone));
    }
    broadcast_verdict(world, r);
    return r;
}

}  // namespace stencil::distributed
