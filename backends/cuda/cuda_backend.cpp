// ---------------------------------------------------------------------------------------------
// The CUDA backend: stencil::Backend over the CUDA runtime (linked statically; libcuda is loaded
// by the runtime at the first call, so a machine without a driver gets a sentence, not a crash).
//
//   execute    copy in, copy the poisoned out, upload the weights, launch, synchronise, copy back
//   time_ms    device-filled input, warm-up launches, then per rep: flush L2 (memset of a buffer of
//              2x L2, untimed), event, launch, event
//   copy_gbps  cudaMemcpy device to device of the same size, flushed and timed the same way
//   attributes cudaFuncGetAttributes + the occupancy calculator
//   counters   its Counters (core/counters.h): CUPTI's counters and the FMA peak (counters.h)
//
// Launches go through cudaLaunchKernel with the instantiation handles of the generated launch
// units and the geometry of launch_geometry(), which is the one place the launch shape is written
// down.
// ---------------------------------------------------------------------------------------------
#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <algorithm>
#include <mutex>
#include <vector>

#include "backends/cuda/block_timeline.h"
#include "backends/cuda/counters.h"
#include "backends/cuda/cuda_internal.h"
#include "core/backend.h"
#include "core/block_timelines.h"
#include "core/counters.h"
#include "core/error.h"

#ifndef STENCIL_CUDA_ARCHITECTURES
#define STENCIL_CUDA_ARCHITECTURES "?"
#endif

namespace stencil {

namespace {

using cuda_detail::check;
using cuda_detail::DeviceBuffer;
using cuda_detail::EventPair;
using cuda_detail::request_text;

// The block timelines of the instrumented tiled and coarsened kernels (block_timeline.cu).
class InstrumentedTimelines final : public BlockTimelines {
public:
    RecordedTimeline record(const LaunchRequest& req, int bx, int by, int bz) override {
        return record_block_timeline(req, bx, by, bz);
    }
};

// The backend's counters: the free functions of counters.h behind core's interface.
class CuptiCounters final : public Counters {
public:
    std::optional<CounterValues> measure(const LaunchRequest& req, const StencilWeights& weights,
                                         std::string* why) override {
        return measure_counters(req, weights, why);
    }
    std::optional<double> fma_gflops(Precision p, std::string* why) override { return measure_fma_gflops(p, why); }
};

std::string version_text(int v) { return fmt::format("{}.{}", v / 1000, (v % 1000) / 10); }

// Why the runtime cannot be used here, from the error of the first call, as a sentence.
std::string start_failure(cudaError_t e) {
    int driver = 0, runtime = 0;
    (void)cudaDriverGetVersion(&driver);
    (void)cudaRuntimeGetVersion(&runtime);
    switch (e) {
        case cudaErrorInsufficientDriver:
            if (driver == 0)
                return "no NVIDIA driver is installed on this machine (libcuda.so.1 was not found), so "
                       "there is no GPU to run on";
            return fmt::format("the NVIDIA driver here supports CUDA {} but this build needs CUDA {}: "
                               "update the driver",
                               version_text(driver), version_text(runtime));
        case cudaErrorNoDevice:
            return "no CUDA GPU was found: the NVIDIA driver is installed but reports no device "
                   "(check CUDA_VISIBLE_DEVICES and nvidia-smi)";
        case cudaErrorDevicesUnavailable:
            return "the GPU is busy or unavailable (exclusive compute mode, or in use by another process)";
        default:
            return fmt::format("the CUDA runtime could not start: {} [{}]", cudaGetErrorString(e),
                               cudaGetErrorName(e));
    }
}

// The first call decides, once per process: nullopt when device 0 is usable by this build.
std::optional<std::string> probe() {
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        return start_failure(e);
    }
    if (count == 0) return start_failure(cudaErrorNoDevice);
    if ((e = cudaSetDevice(0)) != cudaSuccess) return start_failure(e);
    // Is there machine code for this GPU in the binary? (It holds sm_XY for the built list only.)
    cudaFuncAttributes a{};
    const void* f = cuda_detail::kernel_table(KernelId::naive).function(Precision::f32, 8, 1, 1);
    e = cudaFuncGetAttributes(&a, f);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        cudaDeviceProp p{};
        (void)cudaGetDeviceProperties(&p, 0);
        if (e == cudaErrorNoKernelImageForDevice || e == cudaErrorInvalidDeviceFunction ||
            e == cudaErrorUnsupportedPtxVersion)
            return fmt::format("the GPU '{}' has compute capability {}.{}, but this build holds kernels "
                               "for CUDA architecture(s) {} only: rebuild with "
                               "-DCMAKE_CUDA_ARCHITECTURES={}{}",
                               p.name, p.major, p.minor, STENCIL_CUDA_ARCHITECTURES, p.major, p.minor);
        return start_failure(e);
    }
    return std::nullopt;
}

const std::optional<std::string>& probe_once() {
    static std::once_flag once;
    static std::optional<std::string> reason;
    std::call_once(once, [] { reason = probe(); });
    return reason;
}

class CudaBackend final : public Backend {
public:
    CudaBackend() {
        check(cudaSetDevice(0), "cudaSetDevice");
        check(cudaGetDeviceProperties(&prop_, 0), "cudaGetDeviceProperties");
    }

    BackendKind kind() const override { return BackendKind::cuda; }

    DeviceInfo device() const override {
        DeviceInfo d;
        d.name = prop_.name;
        d.multiprocessors = prop_.multiProcessorCount;
        d.l2_bytes = prop_.l2CacheSize;
        d.smem_per_block = static_cast<long long>(prop_.sharedMemPerBlock);
        d.smem_per_sm = static_cast<long long>(prop_.sharedMemPerMultiprocessor);
        d.cc_major = prop_.major;
        d.cc_minor = prop_.minor;
        d.global_mem_bytes = static_cast<long long>(prop_.totalGlobalMem);
        d.warp_size = prop_.warpSize;
        return d;
    }

    DeviceLimits limits() const override {
        DeviceLimits lim;
        lim.max_threads_per_block = prop_.maxThreadsPerBlock;
        // A static __shared__ array may not pass 48 KiB, whatever the device offers dynamically.
        lim.max_static_smem_per_block =
            std::min<long long>(lim.max_static_smem_per_block, static_cast<long long>(prop_.sharedMemPerBlock));
        lim.max_dynamic_smem_per_block = static_cast<long long>(prop_.sharedMemPerBlockOptin);
        lim.max_grid_yz = std::min(prop_.maxGridSize[1], prop_.maxGridSize[2]);
        return lim;
    }

    std::optional<std::string> cannot_run(const LaunchRequest& req) const override {
        const DeviceLimits lim = limits();
        if (auto e = request_error(req, lim)) return e;
        if (auto e = grid_error(req.dims, req.radius)) return e;
        const LaunchGeometry g = launch_geometry(req);
        if (g.grid.y > prop_.maxGridSize[1] || g.grid.z > prop_.maxGridSize[2] || g.grid.x > prop_.maxGridSize[0])
            return fmt::format("grid {}x{}x{} with {} needs {}x{}x{} blocks, but a launch on this GPU may "
                               "have at most {} blocks along y and {} along z: use a larger tile or a "
                               "smaller grid",
                               req.dims.nx, req.dims.ny, req.dims.nz, request_text(req), g.grid.x, g.grid.y,
                               g.grid.z, prop_.maxGridSize[1], prop_.maxGridSize[2]);
        std::size_t free_b = 0, total_b = 0;
        if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) {
            (void)cudaGetLastError();
            return std::nullopt;  // the launch itself will say what is wrong
        }
        // S steps in more than one launch need a third array (execute and time_ms alternate).
        const int arrays = launches(req).size() > 1 ? 3 : 2;
        const long long need = arrays * req.dims.cells() * bytes_of(req.precision) + flush_bytes();
        if (need > static_cast<long long>(free_b))
            return fmt::format("grid {}x{}x{} in {} needs {} MiB on the GPU (input, output{} and the L2 "
                               "flush buffer), but only {} MiB of its {} MiB are free",
                               req.dims.nx, req.dims.ny, req.dims.nz, to_string(req.precision), need >> 20,
                               arrays == 3 ? ", a spare for the steps" : "", free_b >> 20, total_b >> 20);
        return std::nullopt;
    }

    // S steps: the request's launches (launches() in core/backend.h) alternate between d_out and
    // a spare array, the last one writing d_out; each launch's output starts freshly poisoned (the
    // caller's `out`: NaN inside, the input on the boundary), as the CPU backend's do.
    void execute(const LaunchRequest& req, const StencilWeights& weights, const void* in, void* out) override {
        prepare(req, weights);
        const std::vector<LaunchRequest> list = launches(req);
        const std::size_t bytes = array_bytes(req);
        DeviceBuffer d_in(bytes, "input"), d_out(bytes, "output"), d_spare(list.size() > 1 ? bytes : 1, "spare");
        check(cudaMemcpy(d_in.get(), in, bytes, cudaMemcpyHostToDevice), "cudaMemcpy (input to the GPU)");
        const void* src = d_in.get();
        for (std::size_t i = 0; i < list.size(); ++i) {
            void* dst = (list.size() - 1 - i) % 2 == 0 ? d_out.get() : d_spare.get();
            check(cudaMemcpy(dst, out, bytes, cudaMemcpyHostToDevice), "cudaMemcpy (poisoned output to the GPU)");
            launch(function_for(list[i]), list[i], src, dst);
            cuda_detail::check_launch(request_text(list[i]).c_str(), true);
            src = dst;
        }
        check(cudaMemcpy(out, d_out.get(), bytes, cudaMemcpyDeviceToHost), "cudaMemcpy (output to the host)");
    }

    // One sample is all S steps of the request, launched back to back as a simulation's steps
    // follow each other (the L2 flushed before the first, not between them), alternating between
    // d_out and a spare so that the input stays the same for every sample.
    std::vector<double> time_ms(const LaunchRequest& req, const StencilWeights& weights, int warmup,
                                int reps) override {
        prepare(req, weights);
        const std::vector<LaunchRequest> list = launches(req);
        std::vector<const void*> fns;
        for (const auto& l : list) fns.push_back(function_for(l));
        const std::size_t bytes = array_bytes(req);
        DeviceBuffer d_in(bytes, "input"), d_out(bytes, "output"), d_spare(list.size() > 1 ? bytes : 1, "spare");
        cuda_detail::fill_random(d_in.get(), req.dims.cells(), req.precision, 0x5eedull, nullptr);
        check(cudaMemset(d_out.get(), 0, bytes), "cudaMemset (output)");
        if (list.size() > 1) check(cudaMemset(d_spare.get(), 0, bytes), "cudaMemset (spare)");
        auto all_steps = [&] {
            const void* src = d_in.get();
            for (std::size_t l = 0; l < list.size(); ++l) {
                void* dst = l % 2 == 0 ? d_out.get() : d_spare.get();
                launch(fns[l], list[l], src, dst);
                src = dst;
            }
        };
        const std::string what = request_text(req);
        for (int i = 0; i < warmup; ++i) all_steps();
        cuda_detail::check_launch(what.c_str(), true);

        std::vector<EventPair> events(static_cast<std::size_t>(std::max(reps, 0)));
        for (auto& ev : events) {
            flush_l2();
            ev.start(nullptr);
            all_steps();
            ev.stop(nullptr);
        }
        cuda_detail::check_launch(what.c_str(), true);
        std::vector<double> ms;
        ms.reserve(events.size());
        for (const auto& ev : events) ms.push_back(ev.ms());
        return ms;
    }

    std::vector<double> copy_gbps(long long bytes, int reps) override {
        if (bytes <= 0) throw UserError("copy_gbps: the array size must be positive");
        DeviceBuffer a(static_cast<std::size_t>(bytes), "copy source"), b(static_cast<std::size_t>(bytes), "copy target");
        check(cudaMemset(a.get(), 1, a.bytes()), "cudaMemset (copy source)");
        check(cudaMemcpy(b.get(), a.get(), a.bytes(), cudaMemcpyDeviceToDevice), "cudaMemcpy (warm-up copy)");
        std::vector<EventPair> events(static_cast<std::size_t>(std::max(reps, 0)));
        for (auto& ev : events) {
            flush_l2();
            ev.start(nullptr);
            check(cudaMemcpyAsync(b.get(), a.get(), a.bytes(), cudaMemcpyDeviceToDevice, nullptr),
                  "cudaMemcpyAsync (device to device)");
            ev.stop(nullptr);
        }
        check(cudaDeviceSynchronize(), "cudaDeviceSynchronize (after the copies)");
        std::vector<double> gbps;
        for (const auto& ev : events) gbps.push_back(2.0 * static_cast<double>(bytes) / (std::max(ev.ms(), 1e-6) * 1e6));
        return gbps;
    }

    KernelAttributes attributes(const LaunchRequest& req) override {
        const void* fn = function_for(req);
        cudaFuncAttributes fa{};
        check(cudaFuncGetAttributes(&fa, fn), "cudaFuncGetAttributes");
        KernelAttributes a;
        a.registers_per_thread = fa.numRegs;
        a.max_threads_per_block = fa.maxThreadsPerBlock;
        const LaunchGeometry g = launch_geometry(req);
        // The compiler's static bytes, plus the launch's dynamic bytes for a version that has them.
        const std::size_t dynamic = cuda_detail::opt_in_dynamic_smem(fn, req);
        a.static_smem_bytes = static_cast<long long>(fa.sharedSizeBytes + dynamic);
        const int threads = static_cast<int>(g.block.count());
        int blocks = 0;
        check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fn, threads, dynamic),
              "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
        a.active_blocks_per_sm = blocks;
        const int warp = std::max(prop_.warpSize, 1);
        const int warps_per_block = (threads + warp - 1) / warp;
        const int max_warps = prop_.maxThreadsPerMultiProcessor / warp;
        a.occupancy = max_warps > 0 ? static_cast<double>(blocks * warps_per_block) / max_warps : -1;
        return a;
    }

    Counters* counters() override { return &counters_; }
    BlockTimelines* block_timelines() override { return &timelines_; }

private:
    static std::size_t array_bytes(const LaunchRequest& req) {
        return static_cast<std::size_t>(req.dims.cells()) * bytes_of(req.precision);
    }

    // Twice the L2, so that whatever the timed launch reads was evicted by the flush.
    long long flush_bytes() const { return static_cast<long long>(cuda_detail::l2_flush_bytes()); }
    void flush_l2() { flush_.flush(nullptr); }

    // The instantiation of the request's (first) launch: for a version that fuses steps, the one
    // of the steps that launch fuses.
    const void* function_for(const LaunchRequest& req) const {
        if (auto e = request_error(req, limits())) throw UserError(*e);
        const void* fn = cuda_detail::kernel_function(req);
        if (!fn) throw UserError(fmt::format("{} is not compiled into this build", request_text(req)));
        return fn;
    }

    // Validates the request, uploads the weights into the kernel TU's constant memory, and
    // returns the instantiation of its first launch.
    const void* prepare(const LaunchRequest& req, const StencilWeights& weights) {
        if (auto e = cannot_run(req)) throw UserError(*e);
        if (weights.radius != req.radius)
            throw UserError(fmt::format("weights of radius {} given for a radius-{} launch", weights.radius, req.radius));
        const void* fn = function_for(req);
        cuda_detail::kernel_table(req.kernel).upload_weights(weights, req.precision);
        return fn;
    }

    void launch(const void* fn, const LaunchRequest& req, const void* in, void* out) {
        cuda_detail::launch_kernel(fn, req, in, out);
    }

    cudaDeviceProp prop_{};
    cuda_detail::L2Flush flush_;
    CuptiCounters counters_;
    InstrumentedTimelines timelines_;
};

}  // namespace

std::optional<std::string> cuda_unavailable_reason() { return probe_once(); }

std::unique_ptr<Backend> make_cuda_backend(std::string* why) {
    if (const auto& reason = probe_once()) {
        if (why) *why = *reason;
        return nullptr;
    }
    try {
        return std::make_unique<CudaBackend>();
    } catch (const UserError& e) {
        if (why) *why = e.what();
        return nullptr;
    }
}

}  // namespace stencil
