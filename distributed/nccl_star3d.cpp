#include "distributed/seconds_since.h"
#include "distributed/nccl_star3d.h"

#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <barrier>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "backends/cuda/cuda_util.h"
#include "backends/cuda/lab_kernel.h"
#include "core/error.h"
#include "core/field.h"
#include "core/weights.h"
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

// One GPU's sub-box: its two arrays, its faces, the stream the faces travel on.
class GpuDomain {
public:
    // `box` carries halos `halo` wide (pass_halo: r, or r K for passes of K fused steps); `passes`
    // are the launches of the run on the box's local array.
    GpuDomain(int device, const analysis::SubBox& box, int halo, const std::vector<LaunchRequest>& passes, bool overlap)
        : device_(device), box_(box), local_(passes.front()), halo_(halo),
          value_bytes_(bytes_of(passes.front().precision)), overlap_(overlap) {
        check(cudaSetDevice(device_), "cudaSetDevice");
        const std::size_t bytes = std::size_t(local_.dims.cells()) * value_bytes_;
        a_ = DeviceBuffer(bytes, "a sub-box (in)");
        b_ = DeviceBuffer(bytes, "a sub-box (out)");
        in_ = a_.get(), out_ = b_.get();
        for (int axis = 0; axis < 3; ++axis)
            for (int side = 0; side < 2; ++side) {
                if (box.neighbour[axis][side] == analysis::kNoNeighbour) continue;
                Face f;
                f.peer = box.neighbour[axis][side];
                f.across_z = axis == 2;
                f.send = send_face(box, axis, side, halo_);
                f.receive = receive_face(box, axis, side, halo_);
                f.bytes = std::size_t(f.send.cells()) * value_bytes_;
                f.send_at = contiguous_offset(f.send, local_.dims);
                f.receive_at = contiguous_offset(f.receive, local_.dims);
                if (!f.send_at) f.send_buffer = DeviceBuffer(f.bytes, "a halo face (send)");
                if (!f.receive_at) f.receive_buffer = DeviceBuffer(f.bytes, "a halo face (receive)");
                bytes_sent_ += static_cast<long long>(f.bytes);
                faces_.push_back(std::move(f));
            }
        comm_stream_ = create_exchange_stream();
        for (cudaEvent_t* e : {&computed_, &xy_arrived_, &z_arrived_})
            check(cudaEventCreateWithFlags(e, cudaEventDisableTiming), "cudaEventCreate");
        // CUDA loads a kernel at its first launch: loaded now, so the timed steps do not pay it.
        for (const LaunchRequest& pass : passes) {
            cudaFuncAttributes attributes{};
            check(cudaFuncGetAttributes(&attributes, lab_kernel_function(pass)), "cudaFuncGetAttributes");
        }
    }
    ~GpuDomain() {
        cudaSetDevice(device_);
        for (cudaEvent_t e : {computed_, xy_arrived_, z_arrived_}) cudaEventDestroy(e);
        cudaStreamDestroy(comm_stream_);
    }
    GpuDomain(const GpuDomain&) = delete;
    GpuDomain& operator=(const GpuDomain&) = delete;

    // Both arrays get the whole local input: the grid's fixed boundary and the edge and corner
    // cells (never exchanged, never read by a star) then hold input values in both for good.
    void upload(const void* host_local) {
        const std::size_t bytes = a_.bytes();
        check(cudaMemcpy(a_.get(), host_local, bytes, cudaMemcpyHostToDevice), "cudaMemcpy of the input");
        check(cudaMemcpy(b_.get(), host_local, bytes, cudaMemcpyHostToDevice), "cudaMemcpy of the input");
        check(cudaEventRecord(computed_, nullptr), "cudaEventRecord");
    }

    // One pass: the halos, then `launch` (one step, or K fused steps) on the local array.
    void pass(ncclComm_t comm, const LaunchRequest& launch) {
        const int r = launch.radius, nz = local_.dims.nz;
        bool across_xy = false, across_z = false;
        for (const Face& f : faces_) (f.across_z ? across_z : across_xy) = true;
        // The faces are read from `in` only after the last step wrote it.
        check(cudaStreamWaitEvent(comm_stream_, computed_, 0), "cudaStreamWaitEvent");
        if (across_xy) {
            exchange(comm, false);
            check(cudaEventRecord(xy_arrived_, comm_stream_), "cudaEventRecord");
            check(cudaStreamWaitEvent(nullptr, xy_arrived_, 0), "cudaStreamWaitEvent");
        }
        if (across_z) {
            exchange(comm, true);
            check(cudaEventRecord(z_arrived_, comm_stream_), "cudaEventRecord");
        }
        // The slab [2r, nz - 2r) reads z in [r, nz - r): no z halo when the halo is r wide. Only for
        // runs of one step a pass: a fused launch on a slab writes levels that are wrong within r K
        // of the slab's faces, which lie in the neighbouring slab, and the last, shorter pass of a
        // fused run still has halos r K wide.
        if (overlap_ && across_z && halo_ == r && nz - 2 * r > 2 * r) {
            compute_slab(launch, 2 * r, nz - 2 * r);
            check(cudaStreamWaitEvent(nullptr, z_arrived_, 0), "cudaStreamWaitEvent");
            compute_slab(launch, r, 2 * r);
            compute_slab(launch, nz - 2 * r, nz - r);
        } else {
            if (across_z) check(cudaStreamWaitEvent(nullptr, z_arrived_, 0), "cudaStreamWaitEvent");
            compute_slab(launch, r, nz - r);
        }
        check(cudaEventRecord(computed_, nullptr), "cudaEventRecord");
        std::swap(in_, out_);
    }

    // NCCL connects two peers at their first send (buffers, proxy threads, and across processes
    // IPC handles): milliseconds to tens of them. One untimed exchange of every face before the
    // timed steps keeps that out of the time per step; it fills only halos that the first step
    // fills again with the same values.
    void connect(ncclComm_t comm) { exchange_and_wait(comm); }

    // Every face, both passes, waited for on the host: a step's exchange with no kernel beside
    // it (the link model's comparison, nccl_link_probe.h). Like `connect`, it refills halos that
    // the next step fills again with the same values.
    void exchange_and_wait(ncclComm_t comm) {
        exchange(comm, false);
        exchange(comm, true);
        check(cudaStreamSynchronize(comm_stream_), "an exchange (cudaStreamSynchronize)");
    }

    void synchronize() const {
        check(cudaSetDevice(device_), "cudaSetDevice");
        check(cudaDeviceSynchronize(), "the steps (cudaDeviceSynchronize)");
    }
    // The current state (after the last step), halos included.
    void download(void* host_local) const {
        check(cudaMemcpy(host_local, in_, a_.bytes(), cudaMemcpyDeviceToHost), "cudaMemcpy of the result");
    }
    long long bytes_sent() const { return bytes_sent_; }
    GridDims local_dims() const { return local_.dims; }

private:
    struct Face {
        int peer = 0;
        bool across_z = false;
        Box send, receive;
        std::size_t bytes = 0;
        // A face that is one contiguous run of the array (a z face when x and y are not cut) travels
        // straight from and into it, at this offset in values; the others through packed buffers.
        std::optional<long long> send_at, receive_at;
        DeviceBuffer send_buffer, receive_buffer;
    };

    unsigned char* at(long long offset) const { return static_cast<unsigned char*>(in_) + offset * value_bytes_; }

    void exchange(ncclComm_t comm, bool across_z) {
        for (Face& f : faces_)
            if (f.across_z == across_z && !f.send_at)
                copy_box_async(in_, local_.dims, value_bytes_, f.send, f.send_buffer.get(), true, comm_stream_);
        nccl_check(nccl().group_start(), "ncclGroupStart");
        for (Face& f : faces_) {
            if (f.across_z != across_z) continue;
            void* receive = f.receive_at ? at(*f.receive_at) : f.receive_buffer.get();
            const void* send = f.send_at ? at(*f.send_at) : f.send_buffer.get();
            nccl_check(nccl().recv(receive, f.bytes, ncclUint8, f.peer, comm, comm_stream_), "ncclRecv");
            nccl_check(nccl().send(send, f.bytes, ncclUint8, f.peer, comm, comm_stream_), "ncclSend");
        }
        nccl_check(nccl().group_end(), "ncclGroupEnd");
        for (Face& f : faces_)
            if (f.across_z == across_z && !f.receive_at)
                copy_box_async(in_, local_.dims, value_bytes_, f.receive, f.receive_buffer.get(), false, comm_stream_);
    }

    // Computes the cells with local z in [lo, hi): the kernel sees the planes [lo - r, hi + r) as
    // a grid of its own (planes are contiguous), whose r outer planes it leaves alone.
    void compute_slab(const LaunchRequest& launch, int lo, int hi) {
        if (hi <= lo) return;
        const int r = launch.radius;
        LaunchRequest slab = launch;
        slab.dims.nz = hi - lo + 2 * r;
        const std::size_t offset = std::size_t(lo - r) * local_.dims.nx * local_.dims.ny * value_bytes_;
        launch_lab_kernel(slab, static_cast<const unsigned char*>(in_) + offset, static_cast<unsigned char*>(out_) + offset);
    }

    int device_;
    analysis::SubBox box_;
    LaunchRequest local_;
    int halo_, value_bytes_;
    bool overlap_;
    DeviceBuffer a_, b_;
    void* in_ = nullptr;
    void* out_ = nullptr;
    std::vector<Face> faces_;
    long long bytes_sent_ = 0;
    cudaStream_t comm_stream_{};
    cudaEvent_t computed_{}, xy_arrived_{}, z_arrived_{};
};

// The input as `run` draws it, as bytes of the request's precision.
std::vector<unsigned char> input_bytes(const LaunchRequest& req, std::uint64_t seed) {
    std::vector<unsigned char> bytes(std::size_t(req.dims.cells()) * bytes_of(req.precision));
    if (req.precision == Precision::f32)
        std::memcpy(bytes.data(), random_field<float>(req.dims, seed).data.data(), bytes.size());
    else
        std::memcpy(bytes.data(), random_field<double>(req.dims, seed).data.data(), bytes.size());
    return bytes;
}

// The single domain on the current GPU: the same kernel on the whole grid, the same launches.
std::vector<unsigned char> single_domain(const Star3dRunOptions& o, const std::vector<unsigned char>& input,
                                         double* seconds_per_step) {
    DeviceBuffer a(input.size(), "the single domain (in)"), b(input.size(), "the single domain (out)");
    check(cudaMemcpy(a.get(), input.data(), input.size(), cudaMemcpyHostToDevice), "cudaMemcpy of the input");
    check(cudaMemcpy(b.get(), input.data(), input.size(), cudaMemcpyHostToDevice), "cudaMemcpy of the input");
    void* in = a.get();
    void* out = b.get();
    check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    const auto t0 = Clock::now();
    for (const LaunchRequest& launch : pass_launches(o, o.request.dims)) {
        launch_lab_kernel(launch, in, out);
        std::swap(in, out);
    }
    check(cudaDeviceSynchronize(), "the single domain's steps (cudaDeviceSynchronize)");
    *seconds_per_step = seconds_since(t0) / o.steps;
    std::vector<unsigned char> result(input.size());
    check(cudaMemcpy(result.data(), in, result.size(), cudaMemcpyDeviceToHost), "cudaMemcpy of the single domain");
    return result;
}

void fill_common(Star3dRunResult& r, const Star3dRunOptions& o, int ranks) {
    r.options = o;
    r.ranks = ranks;
    r.backend = "cuda";
    r.halo_exchange = "nccl";
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess) r.device = prop.name;
}

}  // namespace

Star3dRunResult run_star3d_gpus(int gpus, const Star3dRunOptions& o) {
    if (auto e = star3d_run_error(o, gpus)) throw UserError(*e);
    if (auto e = lab_kernel_unavailable(o.request)) throw UserError(*e);
    nccl();  // loaded now: a machine without it is told so before any GPU work
    const int available = gpu_count();
    if (available < gpus)
        throw UserError(fmt::format("--gpus {}: this machine has {} usable GPU{}", gpus, available,
                                    available == 1 ? "" : "s"));
    const LaunchRequest& global = o.request;
    const int value_bytes = bytes_of(global.precision);
    const StencilWeights weights = random_weights(global.radius, o.seed);
    const std::vector<unsigned char> input = input_bytes(global, o.seed);

    Star3dRunResult r;
    fill_common(r, o, gpus);
    std::vector<long long> sent_per_gpu(static_cast<std::size_t>(gpus), 0);
    std::vector<double> loop_seconds(static_cast<std::size_t>(gpus), 0), exchange_alone(loop_seconds);
    const int halo = pass_halo(o);
    const analysis::DecompositionModel model =
        analysis::decomposition_model(global.dims, o.decomposition, halo, global.precision);
    PingPong link;
    std::vector<unsigned char> gathered(input.size());
    // One host thread per GPU: each drives its own device, stream and communicator.
    on_each_gpu(gpus, [&](int g, ncclComm_t comm, std::barrier<>& together) {
        upload_lab_kernel_weights(global, weights);
        const analysis::SubBox box = analysis::sub_box(global.dims, o.decomposition, halo, g);
        const std::vector<LaunchRequest> passes = pass_launches(o, box.local_dims());
        GpuDomain domain(g, box, halo, passes, o.overlap);
        std::vector<unsigned char> local(std::size_t(domain.local_dims().cells()) * value_bytes);
        pack_box(input.data(), global.dims, value_bytes, local_in_global(box), local.data());
        domain.upload(local.data());
        domain.connect(comm);
        domain.synchronize();
        const PingPong probe = nccl_ping_pong(comm, g, gpus, probe_message_bytes(model));
        if (g == 0) link = probe;
        together.arrive_and_wait();
        exchange_alone[g] = median_exchange_seconds([&] { domain.exchange_and_wait(comm); });
        together.arrive_and_wait();
        const auto t0 = Clock::now();
        for (const LaunchRequest& pass : passes) domain.pass(comm, pass);
        domain.synchronize();
        loop_seconds[g] = seconds_since(t0);
        sent_per_gpu[g] = domain.bytes_sent();
        domain.download(local.data());
        std::vector<unsigned char> owned(std::size_t(owned_in_local(box).cells()) * value_bytes);
        pack_box(local.data(), domain.local_dims(), value_bytes, owned_in_local(box), owned.data());
        unpack_box(owned.data(), owned_in_global(box), gathered.data(), global.dims, value_bytes);  // disjoint boxes
    });

    for (int g = 0; g < gpus; ++g) {
        r.seconds_per_step = std::max(r.seconds_per_step, loop_seconds[g] / o.steps);
        r.exchange_alone_seconds = std::max(r.exchange_alone_seconds, exchange_alone[g]);
    }
    r.set_halo_bytes(sent_per_gpu);
    r.link = estimate_exchange(link, model);
    const auto alone = single_domain(o, input, &r.single_domain_seconds_per_step);
    r.compare(gathered.data(), alone.data(), global.dims.cells());
    return r;
}

#if STENCIL_LAB_HAVE_MPI
Star3dRunResult run_star3d_nccl(const MpiWorld& world, const Star3dRunOptions& o) {
    if (auto e = star3d_run_error(o, world.size())) throw UserError(*e);
    if (auto e = lab_kernel_unavailable(o.request)) throw UserError(*e);
    const int device = select_gpu_of_rank(world);

    const LaunchRequest& global = o.request;
    const int value_bytes = bytes_of(global.precision);
    const StencilWeights weights = random_weights(global.radius, o.seed);
    upload_lab_kernel_weights(global, weights);

    nvlink_multicast_off();
    ncclUniqueId id{};
    if (world.root()) nccl_check(nccl().get_unique_id(&id), "ncclGetUniqueId");
    mpi_check(MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, world.comm()), "MPI_Bcast of NCCL's id");
    ncclComm_t comm{};
    nccl_check(nccl().comm_init_rank(&comm, world.size(), id, world.rank()), "ncclCommInitRank");

    const int halo = pass_halo(o);
    const analysis::SubBox box = analysis::sub_box(global.dims, o.decomposition, halo, world.rank());
    const std::vector<LaunchRequest> passes = pass_launches(o, box.local_dims());
    GpuDomain domain(device, box, halo, passes, o.overlap);
    std::vector<unsigned char> input;
    if (world.root()) input = input_bytes(global, o.seed);
    std::vector<unsigned char> local(std::size_t(domain.local_dims().cells()) * value_bytes);
    scatter_local_arrays(world, global.dims, o.decomposition, halo, value_bytes,
                         world.root() ? input.data() : nullptr, local.data());
    domain.upload(local.data());
    domain.connect(comm);
    domain.synchronize();
    const analysis::DecompositionModel model =
        analysis::decomposition_model(global.dims, o.decomposition, halo, global.precision);
    const PingPong link = nccl_ping_pong(comm, world.rank(), world.size(), probe_message_bytes(model));
    const RankTimes t = time_on_every_rank(
        world, static_cast<int>(passes.size()), [&] { domain.exchange_and_wait(comm); },
        [&, next = std::size_t{0}]() mutable { domain.pass(comm, passes[next++]); },
        [&] { domain.synchronize(); });
    nccl().comm_destroy(comm);

    Star3dRunResult r;
    fill_common(r, o, world.size());
    r.seconds_per_step = t.steps / o.steps;
    r.exchange_alone_seconds = t.exchange_alone;
    if (world.root()) r.link = estimate_exchange(link, model);
    long long sent = domain.bytes_sent();
    std::vector<long long> sent_per_rank(static_cast<std::size_t>(world.size()));
    mpi_check(MPI_Gather(&sent, 1, MPI_LONG_LONG, sent_per_rank.data(), 1, MPI_LONG_LONG, 0, world.comm()),
              "MPI_Gather of the halo bytes");
    domain.download(local.data());
    std::vector<unsigned char> gathered(world.root() ? input.size() : 0);
    gather_owned_boxes(world, global.dims, o.decomposition, halo, value_bytes, local.data(),
                       world.root() ? gathered.data() : nullptr);
    if (world.root()) {
        r.set_halo_bytes(sent_per_rank);
        const auto alone = single_domain(o, input, &r.single_domain_seconds_per_step);
        r.compare(gathered.data(), alone.data(), global.dims.cells());
    }
    int ok = r.ok ? 1 : 0;
    mpi_check(MPI_Bcast(&ok, 1, MPI_INT, 0, world.comm()), "MPI_Bcast of the verdict");
    r.ok = ok != 0;
    return r;
}
#endif

}  // namespace stencil::distributed
