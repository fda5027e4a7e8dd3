#include "distributed/nccl_run.h"

#include <fmt/format.h>

#include <algorithm>
#include <barrier>
#include <vector>

#include "core/error.h"
#include "distributed/link_model.h"
#include "distributed/nccl_library.h"
#include "distributed/nccl_link_probe.h"
#include "distributed/nccl_support.h"
#include "distributed/seconds_since.h"
#if STENCIL_LAB_HAVE_MPI
#include "distributed/mpi_run.h"
#endif

namespace stencil::distributed {

namespace {

void run_pass(DevicePiece& piece, GpuPieceSteps& launches, ncclComm_t comm, int k) {
    piece.begin_pass(comm);
    launches.pass(k, piece);
    piece.end_pass();
}

DecomposedRunResult nccl_result(int ranks) {
    DecomposedRunResult r;
    r.ranks = ranks;
    r.backend = "cuda";
    r.halo_exchange = "nccl";
    r.device = first_gpu_name();
    return r;
}

// Rank 0's half of the check: the halo bytes, the single domain on its GPU, the verdict.
void check_on_root(DecomposedRunResult& r, const DecomposedProblem& problem, const GpuSteps& steps,
                   const std::vector<long long>& sent, const Fields& start, const Fields& gathered) {
    r.set_halo_bytes(sent, problem.passes(), problem.steps());
    r.model_halo_bytes_total = per_step(problem.model().total_halo_bytes, problem.passes(), problem.steps());
    const Fields alone = steps.single_domain(start, &r.single_domain_seconds_per_step);
    r.set_verdict(problem.compare(gathered, alone));
}

}  // namespace

// Long because it is the whole run of one process: the checks, then one thread per GPU from its
// piece to its share of the result, then the check, sharing the locals the threads fill.
DecomposedRunResult run_on_gpus(int gpus, const DecomposedProblem& problem, const GpuSteps& steps) {
    if (auto e = problem.run_error(gpus)) throw UserError(*e);
    if (auto e = steps.unavailable()) throw UserError(*e);
    nccl();  // loaded now: a machine without it is told so before any GPU work
    const int available = gpu_count();
    if (available < gpus)
        throw UserError(fmt::format("--gpus {}: this machine has {} usable GPU{}", gpus, available,
                                    available == 1 ? "" : "s"));
    const int value_bytes = problem.value_bytes();
    const GridDims whole = problem.whole_dims();
    const Fields start = problem.start();
    const analysis::DecompositionModel model = problem.model();

    DecomposedRunResult r = nccl_result(gpus);
    std::vector<long long> sent_per_gpu(static_cast<std::size_t>(gpus), 0);
    std::vector<double> loop_seconds(static_cast<std::size_t>(gpus), 0), exchange_alone(loop_seconds);
    PingPong link;
    Fields gathered(start.size(), std::vector<unsigned char>(start.at(0).size()));
    // One host thread per GPU: each drives its own device, stream and communicator.
    on_each_gpu(gpus, [&](int g, ncclComm_t comm, std::barrier<>& together) {
        steps.on_device();
        const analysis::SubBox box = problem.box_of(g);
        DevicePiece piece(g, box, problem.halo(), value_bytes, problem.fields());
        const std::unique_ptr<GpuPieceSteps> launches = steps.on_piece(box);
        Fields local(start.size(), std::vector<unsigned char>(std::size_t(box.local_dims().cells()) * value_bytes));
        for (std::size_t f = 0; f < start.size(); ++f)
            pack_box(start[f].data(), whole, value_bytes, local_in_global(box), local[f].data());
        piece.upload(local);
        piece.connect(comm);
        piece.synchronize();
        const PingPong probe = nccl_ping_pong(comm, g, gpus, probe_message_bytes(model));
        if (g == 0) link = probe;
        together.arrive_and_wait();
        exchange_alone[g] = median_exchange_seconds([&] { piece.exchange_and_wait(comm); });
        together.arrive_and_wait();
        const auto t0 = Clock::now();
        for (int k = 0; k < problem.passes(); ++k) run_pass(piece, *launches, comm, k);
        piece.synchronize();
        loop_seconds[g] = seconds_since(t0);
        sent_per_gpu[g] = piece.bytes_sent();
        local = piece.download();
        std::vector<unsigned char> owned(std::size_t(owned_in_local(box).cells()) * value_bytes);
        for (std::size_t f = 0; f < local.size(); ++f) {
            pack_box(local[f].data(), box.local_dims(), value_bytes, owned_in_local(box), owned.data());
            unpack_box(owned.data(), owned_in_global(box), gathered[f].data(), whole, value_bytes);  // disjoint boxes
        }
    });

    for (int g = 0; g < gpus; ++g) {
        r.seconds_per_step = std::max(r.seconds_per_step, loop_seconds[g] / problem.steps());
        r.exchange_alone_seconds = std::max(r.exchange_alone_seconds, exchange_alone[g]);
    }
    r.link = estimate_exchange(link, model);
    check_on_root(r, problem, steps, sent_per_gpu, start, gathered);
    return r;
}

#if STENCIL_LAB_HAVE_MPI
DecomposedRunResult run_nccl(const MpiWorld& world, const DecomposedProblem& problem, const GpuSteps& steps) {
    if (auto e = problem.run_error(world.size())) throw UserError(*e);
    if (auto e = steps.unavailable()) throw UserError(*e);
    const int device = select_gpu_of_rank(world);
    steps.on_device();

    nvlink_multicast_off();
    ncclUniqueId id{};
    if (world.root()) nccl_check(nccl().get_unique_id(&id), "ncclGetUniqueId");
    mpi_check(MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, world.comm()), "MPI_Bcast of NCCL's id");
    ncclComm_t comm{};
    nccl_check(nccl().comm_init_rank(&comm, world.size(), id, world.rank()), "ncclCommInitRank");

    const analysis::SubBox box = problem.box_of(world.rank());
    DevicePiece piece(device, box, problem.halo(), problem.value_bytes(), problem.fields());
    const std::unique_ptr<GpuPieceSteps> launches = steps.on_piece(box);
    const Fields start = world.root() ? problem.start() : Fields{};
    piece.upload(scatter_fields(world, problem, start));
    piece.connect(comm);
    piece.synchronize();
    const analysis::DecompositionModel model = problem.model();
    const PingPong link = nccl_ping_pong(comm, world.rank(), world.size(), probe_message_bytes(model));
    const RankTimes t = time_on_every_rank(
        world, problem.passes(), [&] { piece.exchange_and_wait(comm); },
        [&, k = 0]() mutable { run_pass(piece, *launches, comm, k++); }, [&] { piece.synchronize(); });
    nccl().comm_destroy(comm);

    DecomposedRunResult r = nccl_result(world.size());
    r.seconds_per_step = t.steps / problem.steps();
    r.exchange_alone_seconds = t.exchange_alone;
    if (world.root()) r.link = estimate_exchange(link, model);
    const std::vector<long long> sent = gather_from_ranks(world, piece.bytes_sent());
    const Fields gathered = gather_fields(world, problem, piece.download());
    if (world.root()) check_on_root(r, problem, steps, sent, start, gathered);
    broadcast_verdict(world, r);
    return r;
}
#endif

}  // namespace stencil::distributed
