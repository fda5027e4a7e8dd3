#include "distributed/seconds_since.h"
#include "distributed/nccl_cardiac2d.h"

#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <barrier>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <utility>
#include <vector>

#include "backends/cuda/cardiac2d.h"
#include "backends/cuda/cuda_util.h"
#include "core/cardiac2d.h"
#include "core/error.h"
#include "distributed/box_copy.h"
#include "distributed/link_model.h"
#include "distributed/nccl_library.h"
#include "distributed/nccl_link_probe.h"
#include "distributed/nccl_support.h"
#if STENCIL_LAB_HAVE_MPI
#include "distributed/scatter_gather.h"
#endif

namespace stencil::distributed {

namespace {

using cuda_detail::check;
using cuda_detail::DeviceBuffer;

// fp64 host values as the kernel's precision, and back (widening keeps the bits apart).
std::vector<unsigned char> to_bytes(const std::vector<double>& v, Precision p) {
    std::vector<unsigned char> out(v.size() * bytes_of(p));
    if (p == Precision::f64) {
        std::memcpy(out.data(), v.data(), out.size());
    } else {
        const std::vector<float> f(v.begin(), v.end());
        std::memcpy(out.data(), f.data(), out.size());
    }
    return out;
}
std::vector<double> from_bytes(const std::vector<unsigned char>& b, Precision p) {
    if (p == Precision::f64) {
        std::vector<double> v(b.size() / sizeof(double));
        std::memcpy(v.data(), b.data(), b.size());
        return v;
    }
    std::vector<float> f(b.size() / sizeof(float));
    std::memcpy(f.data(), b.data(), b.size());
    return {f.begin(), f.end()};
}

// One GPU's piece: E_prev, E and R on the device, its faces, the stream they travel on.
class GpuPiece {
public:
    GpuPiece(int device, const analysis::SubBox& box, const Cardiac2dRunOptions& o)
        : device_(device), o_(o), piece_(cardiac2d::mesh_piece(box.owned[0].size(), box.owned[1].size())),
          sides_(outer_sides(box)), value_bytes_(bytes_of(o.precision)), dims_(box.local_dims()) {
        check(cudaSetDevice(device_), "cudaSetDevice");
        const std::size_t bytes = std::size_t(piece_.cells()) * value_bytes_;
        a_ = DeviceBuffer(bytes, "a piece's E_prev");
        b_ = DeviceBuffer(bytes, "a piece's E");
        R_ = DeviceBuffer(bytes, "a piece's R");
        prev_ = a_.get(), next_ = b_.get();
        for (int axis = 0; axis < 2; ++axis)
            for (int side = 0; side < 2; ++side) {
                if (box.neighbour[axis][side] == analysis::kNoNeighbour) continue;
                Face f;
                f.peer = box.neighbour[axis][side];
                f.send = send_face(box, axis, side, 1);
                f.receive = receive_face(box, axis, side, 1);
                f.bytes = std::size_t(f.send.cells()) * value_bytes_;
                f.send_buffer = DeviceBuffer(f.bytes, "a ghost face (send)");
                f.receive_buffer = DeviceBuffer(f.bytes, "a ghost face (receive)");
                bytes_sent_ += static_cast<long long>(f.bytes);
                faces_.push_back(std::move(f));
            }
        comm_stream_ = create_exchange_stream();
        for (cudaEvent_t* e : {&computed_, &arrived_}) check(cudaEventCreateWithFlags(e, cudaEventDisableTiming), "cudaEventCreate");
    }
    ~GpuPiece() {
        cudaSetDevice(device_);
        for (cudaEvent_t e : {computed_, arrived_}) cudaEventDestroy(e);
        cudaStreamDestroy(comm_stream_);
    }
    GpuPiece(const GpuPiece&) = delete;
    GpuPiece& operator=(const GpuPiece&) = delete;

    void upload(const void* E, const void* R) {
        const std::size_t bytes = a_.bytes();
        check(cudaMemcpy(a_.get(), E, bytes, cudaMemcpyHostToDevice), "cudaMemcpy of E");
        check(cudaMemcpy(b_.get(), E, bytes, cudaMemcpyHostToDevice), "cudaMemcpy of E");
        check(cudaMemcpy(R_.get(), R, bytes, cudaMemcpyHostToDevice), "cudaMemcpy of R");
        check(cudaEventRecord(computed_, nullptr), "cudaEventRecord");
    }

    void step(ncclComm_t comm, double alpha, double dt) {
        if (!faces_.empty()) {
            // The edges are read from E_prev only after the last step wrote it.
            check(cudaStreamWaitEvent(comm_stream_, computed_, 0), "cudaStreamWaitEvent");
            exchange(comm);
            check(cudaEventRecord(arrived_, comm_stream_), "cudaEventRecord");
            check(cudaStreamWaitEvent(nullptr, arrived_, 0), "cudaStreamWaitEvent");
        }
        // After the exchange: on a piece one cell thin, a mirror reads the neighbour's cells.
        cardiac2d::launch_ghosts_on_device(o_.precision, prev_, piece_, sides_);
        cardiac2d::launch_step_on_device(o_.kernel, o_.precision, prev_, next_, R_.get(), piece_, alpha, dt);
        check(cudaEventRecord(computed_, nullptr), "cudaEventRecord");
        std::swap(prev_, next_);
    }

    // NCCL connects two peers at their first send: one untimed exchange before the timed steps
    // keeps that out of the time per step (as nccl_star3d.cpp; the ghosts it fills, the first
    // step fills again with the same values).
    void connect(ncclComm_t comm) { exchange_and_wait(comm); }

    // E_prev's edges exchanged and waited for on the host, no kernel beside: the link model's
    // comparison (nccl_link_probe.h). Like `connect`, it refills ghosts the next step fills again.
    void exchange_and_wait(ncclComm_t comm) {
        if (faces_.empty()) return;
        exchange(comm);
        check(cudaStreamSynchronize(comm_stream_), "an exchange (cudaStreamSynchronize)");
    }

    void synchronize() const {
        check(cudaSetDevice(device_), "cudaSetDevice");
        check(cudaDeviceSynchronize(), "the steps (cudaDeviceSynchronize)");
    }
    void download(void* E, void* R) const {
        check(cudaMemcpy(E, prev_, a_.bytes(), cudaMemcpyDeviceToHost), "cudaMemcpy of E");
        check(cudaMemcpy(R, R_.get(), a_.bytes(), cudaMemcpyDeviceToHost), "cudaMemcpy of R");
    }
    long long bytes_sent() const { return bytes_sent_; }
    std::size_t bytes() const { return a_.bytes(); }
    GridDims local_dims() const { return dims_; }

private:
    // E_prev's edges to the neighbours and their edges into E_prev's ghost ring, on comm_stream_.
    void exchange(ncclComm_t comm) {
        for (Face& f : faces_) copy_box_async(prev_, dims_, value_bytes_, f.send, f.send_buffer.get(), true, comm_stream_);
        nccl_check(nccl().group_start(), "ncclGroupStart");
        for (Face& f : faces_) {
            nccl_check(nccl().recv(f.receive_buffer.get(), f.bytes, ncclUint8, f.peer, comm, comm_stream_), "ncclRecv");
            nccl_check(nccl().send(f.send_buffer.get(), f.bytes, ncclUint8, f.peer, comm, comm_stream_), "ncclSend");
        }
        nccl_check(nccl().group_end(), "ncclGroupEnd");
        for (Face& f : faces_)
            copy_box_async(prev_, dims_, value_bytes_, f.receive, f.receive_buffer.get(), false, comm_stream_);
    }

    struct Face {
        int peer = 0;
        Box send, receive;
        std::size_t bytes = 0;
        DeviceBuffer send_buffer, receive_buffer;
    };
    int device_;
    Cardiac2dRunOptions o_;
    cardiac2d::Piece piece_;
    int sides_, value_bytes_;
    GridDims dims_;
    DeviceBuffer a_, b_, R_;
    void* prev_ = nullptr;
    void* next_ = nullptr;
    std::vector<Face> faces_;
    long long bytes_sent_ = 0;
    cudaStream_t comm_stream_{};
    cudaEvent_t computed_{}, arrived_{};
};

GridDims mesh_dims(int n) { return {cardiac2d::mesh_width(n), cardiac2d::mesh_width(n), 1}; }

// The whole mesh alone on the current GPU, through the same launchers (CudaStepper), and its time
// per step from the spiral's start (CUDA events, a run of its own).
void single_domain(const Cardiac2dRunOptions& o, cardiac2d::State& alone, double* seconds_per_step) {
    cardiac2d::CudaStepper stepper;
    stepper.advance(o.kernel, o.precision, alone, o.steps);
    *seconds_per_step = stepper.time_step_ms(o.kernel, o.precision, o.n, o.steps, 1).at(0) * 1e-3;
}

void fill_common(Cardiac2dRunResult& r, const Cardiac2dRunOptions& o, int ranks) {
    r.options = o;
    r.ranks = ranks;
    r.backend = "cuda";
    r.halo_exchange = "nccl";
    r.device = first_gpu_name();
}

}  // namespace

Cardiac2dRunResult run_cardiac2d_gpus(int gpus, const Cardiac2dRunOptions& o) {
    if (auto e = cardiac2d_run_error(o, gpus)) throw UserError(*e);
    nccl();  // loaded now: a machine without it is told so before any GPU work
    const int available = gpu_count();
    if (available < gpus)
        throw UserError(fmt::format("--gpus {}: this machine has {} usable GPU{}", gpus, available,
                                    available == 1 ? "" : "s"));
    const int value_bytes = bytes_of(o.precision);
    const GridDims whole = mesh_dims(o.n);
    const cardiac2d::State start = cardiac2d::spiral_initial_state(o.n);
    const std::vector<unsigned char> E0 = to_bytes(start.E, o.precision), R0 = to_bytes(start.R, o.precision);
    const cardiac2d::Discretisation d = cardiac2d::discretise(o.n);

    Cardiac2dRunResult r;
    fill_common(r, o, gpus);
    r.halo_bytes_per_rank.assign(static_cast<std::size_t>(gpus), 0);
    std::vector<double> loop_seconds(static_cast<std::size_t>(gpus), 0), exchange_alone(loop_seconds);
    const analysis::DecompositionModel model = analysis::cardiac_decomposition_model(o.n, o.decomposition, o.precision);
    PingPong link;
    std::vector<unsigned char> gathered_E(E0.size()), gathered_R(R0.size());
    on_each_gpu(gpus, [&](int g, ncclComm_t comm, std::barrier<>& together) {
        const analysis::SubBox box = analysis::cardiac_piece(o.n, o.decomposition, g);
        GpuPiece piece(g, box, o);
        std::vector<unsigned char> E(piece.bytes()), R(piece.bytes());
        pack_box(E0.data(), whole, value_bytes, local_in_global(box), E.data());
        pack_box(R0.data(), whole, value_bytes, local_in_global(box), R.data());
        piece.upload(E.data(), R.data());
        piece.connect(comm);
        piece.synchronize();
        const PingPong probe = nccl_ping_pong(comm, g, gpus, probe_message_bytes(model));
        if (g == 0) link = probe;
        together.arrive_and_wait();
        exchange_alone[g] = median_exchange_seconds([&] { piece.exchange_and_wait(comm); });
        together.arrive_and_wait();
        const auto t0 = Clock::now();
        for (int s = 0; s < o.steps; ++s) piece.step(comm, d.alpha, d.dt);
        piece.synchronize();
        loop_seconds[g] = seconds_since(t0);
        r.halo_bytes_per_rank[g] = piece.bytes_sent();
        piece.download(E.data(), R.data());
        std::vector<unsigned char> owned(std::size_t(owned_in_local(box).cells()) * value_bytes);
        for (auto [local, global] : {std::pair{&E, &gathered_E}, std::pair{&R, &gathered_R}}) {
            pack_box(local->data(), piece.local_dims(), value_bytes, owned_in_local(box), owned.data());
            unpack_box(owned.data(), owned_in_global(box), global->data(), whole, value_bytes);  // disjoint
        }
    });

    for (int g = 0; g < gpus; ++g) {
        r.seconds_per_step = std::max(r.seconds_per_step, loop_seconds[g] / o.steps);
        r.exchange_alone_seconds = std::max(r.exchange_alone_seconds, exchange_alone[g]);
        r.halo_bytes_total += r.halo_bytes_per_rank[g];
    }
    r.link = estimate_exchange(link, model);
    cardiac2d::State alone = start;
    single_domain(o, alone, &r.single_domain_seconds_per_step);
    r.compare(from_bytes(gathered_E, o.precision), from_bytes(gathered_R, o.precision), alone.E, alone.R);
    return r;
}

#if STENCIL_LAB_HAVE_MPI
Cardiac2dRunResult run_cardiac2d_nccl(const MpiWorld& world, const Cardiac2dRunOptions& o) {
    if (auto e = cardiac2d_run_error(o, world.size())) throw UserError(*e);
    const int device = select_gpu_of_rank(world);
    const int value_bytes = bytes_of(o.precision);
    const GridDims whole = mesh_dims(o.n);
    const cardiac2d::Discretisation d = cardiac2d::discretise(o.n);

    nvlink_multicast_off();
    ncclUniqueId id{};
    if (world.root()) nccl_check(nccl().get_unique_id(&id), "ncclGetUniqueId");
    mpi_check(MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, world.comm()), "MPI_Bcast of NCCL's id");
    ncclComm_t comm{};
    nccl_check(nccl().comm_init_rank(&comm, world.size(), id, world.rank()), "ncclCommInitRank");

    const BoxOfRank box_of = [&](int rank) { return analysis::cardiac_piece(o.n, o.decomposition, rank); };
    const analysis::SubBox box = box_of(world.rank());
    GpuPiece piece(device, box, o);
    cardiac2d::State start;
    std::vector<unsigned char> E0, R0;
    if (world.root()) {
        start = cardiac2d::spiral_initial_state(o.n);
        E0 = to_bytes(start.E, o.precision);
        R0 = to_bytes(start.R, o.precision);
    }
    std::vector<unsigned char> E(piece.bytes()), R(piece.bytes());
    scatter_local_arrays(world, whole, box_of, value_bytes, world.root() ? E0.data() : nullptr, E.data());
    scatter_local_arrays(world, whole, box_of, value_bytes, world.root() ? R0.data() : nullptr, R.data());
    piece.upload(E.data(), R.data());
    piece.connect(comm);
    piece.synchronize();
    const analysis::DecompositionModel model = analysis::cardiac_decomposition_model(o.n, o.decomposition, o.precision);
    const PingPong link = nccl_ping_pong(comm, world.rank(), world.size(), probe_message_bytes(model));
    const RankTimes t = time_on_every_rank(
        world, o.steps, [&] { piece.exchange_and_wait(comm); }, [&] { piece.step(comm, d.alpha, d.dt); },
        [&] { piece.synchronize(); });
    nccl().comm_destroy(comm);

    Cardiac2dRunResult r;
    fill_common(r, o, world.size());
    r.seconds_per_step = t.steps / o.steps;
    r.exchange_alone_seconds = t.exchange_alone;
    if (world.root()) r.link = estimate_exchange(link, model);
    long long sent = piece.bytes_sent();
    r.halo_bytes_per_rank.resize(static_cast<std::size_t>(world.size()));
    mpi_check(MPI_Gather(&sent, 1, MPI_LONG_LONG, r.halo_bytes_per_rank.data(), 1, MPI_LONG_LONG, 0, world.comm()),
              "MPI_Gather of the halo bytes");
    piece.download(E.data(), R.data());
    std::vector<unsigned char> gathered_E(E0.size()), gathered_R(R0.size());
    gather_owned_boxes(world, whole, box_of, value_bytes, E.data(), world.root() ? gathered_E.data() : nullptr);
    gather_owned_boxes(world, whole, box_of, value_bytes, R.data(), world.root() ? gathered_R.data() : nullptr);
    if (world.root()) {
        for (long long b : r.halo_bytes_per_rank) r.halo_bytes_total += b;
        cardiac2d::State alone = start;
        single_domain(o, alone, &r.single_domain_seconds_per_step);
        r.compare(from_bytes(gathered_E, o.precision), from_bytes(gathered_R, o.precision), alone.E, alone.R);
    }
    int ok = r.ok ? 1 : 0;
    mpi_check(MPI_Bcast(&ok, 1, MPI_INT, 0, world.comm()), "MPI_Bcast of the verdict");
    r.ok = ok != 0;
    return r;
}
#endif

}  // namespace stencil::distributed
