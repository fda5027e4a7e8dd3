#include "distributed/nccl_support.h"

#include <fmt/format.h>

#include <cstdlib>
#include <thread>
#include <vector>
#include <optional>
#include <string>

#include "backends/cuda/cuda_util.h"
#include "core/error.h"
#include "distributed/nccl_library.h"
#include "distributed/nccl_link_probe.h"
#include "distributed/seconds_since.h"

namespace stencil::distributed {

using cuda_detail::check;

void nccl_check(ncclResult_t rc, const char* what) {
    if (rc != ncclSuccess) throw UserError(fmt::format("{} failed: {}", what, nccl().get_error_string(rc)));
}

// NCCL reads its environment once, when it first initialises: set before that.
void nvlink_multicast_off() { setenv("NCCL_NVLS_ENABLE", "0", 1); }

// A box of a device array (dims, x fastest) to or from a packed device buffer, on `stream`.
void copy_box_async(void* array, GridDims dims, int value_bytes, const Box& box, void* packed, bool to_packed,
                    cudaStream_t stream) {
    const std::size_t w = std::size_t(box.hi[0] - box.lo[0]) * value_bytes;
    const std::size_t h = std::size_t(box.hi[1] - box.lo[1]), d = std::size_t(box.hi[2] - box.lo[2]);
    cudaMemcpy3DParms p{};
    const cudaPitchedPtr whole = make_cudaPitchedPtr(array, std::size_t(dims.nx) * value_bytes,
                                                     std::size_t(dims.nx) * value_bytes, std::size_t(dims.ny));
    const cudaPos corner = make_cudaPos(std::size_t(box.lo[0]) * value_bytes, box.lo[1], box.lo[2]);
    const cudaPitchedPtr flat = make_cudaPitchedPtr(packed, w, w, h);
    if (to_packed) {
        p.srcPtr = whole, p.srcPos = corner, p.dstPtr = flat;
    } else {
        p.srcPtr = flat, p.dstPtr = whole, p.dstPos = corner;
    }
    p.extent = make_cudaExtent(w, h, d);
    p.kind = cudaMemcpyDeviceToDevice;
    check(cudaMemcpy3DAsync(&p, stream), "cudaMemcpy3DAsync of a halo face");
}

cudaStream_t create_exchange_stream() {
    int least = 0, greatest = 0;
    cuda_detail::check(cudaDeviceGetStreamPriorityRange(&least, &greatest), "cudaDeviceGetStreamPriorityRange");
    cudaStream_t stream{};
    cuda_detail::check(cudaStreamCreateWithPriority(&stream, cudaStreamNonBlocking, greatest), "cudaStreamCreate");
    return stream;
}

int gpu_count() {
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) return 0;
    return n;
}

const char* first_gpu_name() {
    static cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) return "";
    return prop.name;
}

void on_each_gpu(int gpus, const std::function<void(int g, ncclComm_t comm, std::barrier<>& together)>& drive) {
    nvlink_multicast_off();
    std::vector<ncclComm_t> comms(static_cast<std::size_t>(gpus));
    std::vector<int> devices(static_cast<std::size_t>(gpus));
    for (int g = 0; g < gpus; ++g) devices[g] = g;
    nccl_check(nccl().comm_init_all(comms.data(), gpus, devices.data()), "ncclCommInitAll");
    std::barrier together(gpus);
    std::vector<std::thread> threads;
    for (int g = 0; g < gpus; ++g)
        threads.emplace_back([&, g] {
            try {
                check(cudaSetDevice(g), "cudaSetDevice");
                drive(g, comms[g], together);
            } catch (const std::exception& e) {
                fmt::print(stderr, "stencil-lab: GPU {}: {}\n", g, e.what());
                std::_Exit(1);
            }
        });
    for (std::thread& t : threads) t.join();
    for (ncclComm_t c : comms) nccl().comm_destroy(c);
    check(cudaSetDevice(0), "cudaSetDevice");
}

#if STENCIL_LAB_HAVE_MPI
RankTimes time_on_every_rank(const MpiWorld& world, int steps, const std::function<void()>& exchange_and_wait,
                             const std::function<void()>& step, const std::function<void()>& synchronize) {
    MPI_Barrier(world.comm());
    const double exchange_alone = median_exchange_seconds(exchange_and_wait);
    RankTimes slowest;
    mpi_check(MPI_Reduce(&exchange_alone, &slowest.exchange_alone, 1, MPI_DOUBLE, MPI_MAX, 0, world.comm()),
              "MPI_Reduce of the exchange times");
    MPI_Barrier(world.comm());
    const auto t0 = Clock::now();
    for (int s = 0; s < steps; ++s) step();
    synchronize();
    const double loop = seconds_since(t0);
    mpi_check(MPI_Reduce(&loop, &slowest.steps, 1, MPI_DOUBLE, MPI_MAX, 0, world.comm()), "MPI_Reduce of the times");
    return slowest;
}

int select_gpu_of_rank(const MpiWorld& world) {
    MPI_Comm host;
    mpi_check(MPI_Comm_split_type(world.comm(), MPI_COMM_TYPE_SHARED, world.rank(), MPI_INFO_NULL, &host),
              "MPI_Comm_split_type");
    int host_rank = 0, host_ranks = 1;
    MPI_Comm_rank(host, &host_rank);
    MPI_Comm_size(host, &host_ranks);
    MPI_Comm_free(&host);
    std::optional<std::string> no_nccl;
    try {
        nccl();
    } catch (const UserError& e) {
        no_nccl = e.what();
    }
    agree(world, no_nccl);
    const int available = gpu_count();
    agree(world, host_ranks > available ? std::optional<std::string>(fmt::format(
                                              "{} ranks on this host but {} usable GPU{} (one rank per GPU)",
                                              host_ranks, available, available == 1 ? "" : "s"))
                                        : std::nullopt);
    check(cudaSetDevice(host_rank), "cudaSetDevice");
    return host_rank;
}
#endif

}  // namespace stencil::distributed
