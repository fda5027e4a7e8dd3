// What a backend (the GPU through the CUDA runtime, or the CPU through the PTX engine) offers the rest of
// the lab. Both run the same kernel sources; front ends pick one with make_backend().
#pragma once
#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/weights.h"
#include "kernels/versions.h"

namespace stencil {

// A backend's capabilities beyond running and timing, each an interface of its own.
class EngineRuns;  // core/engine_runs.h: the PTX engine's runs with schedules, checks and traces
class Counters;    // core/counters.h: hardware counters and the FMA peak
class BlockTimelines;  // core/block_timelines.h: the GPU's own timeline of one block's warps

enum class BackendKind { cuda, cpu };
constexpr std::string_view to_string(BackendKind k) { return k == BackendKind::cuda ? "cuda" : "cpu"; }

struct LaunchRequest {
    KernelId kernel = KernelId::naive;
    int tile = 8;
    int radius = 1;
    Precision precision = Precision::f32;
    GridDims dims{64, 64, 64};
    // A block shape of the user's (`run --block`) instead of the row's T^3, for a version that
    // takes one (KernelVersion::takes_block; block_error says which shapes may run).
    std::optional<Dim3> block = std::nullopt;
    // Time steps (`run --steps S`): the stencil applied S times, each output the next step's input
    // (the backends alternate two buffers). A launch applies one step, or, for a version that
    // fuses steps (temporal), min(K, steps left) with K = `fuse` (0: the row's fused_steps).
    int steps = 1;
    int fuse = 0;
    // Planes a block marches (`run --z-chunk Z`), for a version with a z-chunk (streaming,
    // temporal): 0 = the row's. The kernel reads it back from gridDim.z (z_chunk_error).
    int z_chunk = 0;
};

// K: the steps a launch of this request fuses at most (1 for the rows of one step per launch).
inline int fuse_of(const LaunchRequest& r) {
    return r.fuse > 0 ? r.fuse : version(r.kernel).fused_steps;
}
// The steps the first launch of the request applies: min(K, S).
inline int steps_per_launch(const LaunchRequest& r) {
    return steps_per_launch(r.kernel, std::min(fuse_of(r), std::max(r.steps, 1)));
}
// The launches that apply the request's S steps, in order: each a request of its own steps
// (S = 5, K = 2: 2, 2, 1). One launch for a one-step request.
inline std::vector<LaunchRequest> launches(const LaunchRequest& r) {
    std::vector<LaunchRequest> out;
    for (int left = std::max(r.steps, 1); left > 0;) {
        LaunchRequest one = r;
        one.steps = one.fuse = steps_per_launch(r.kernel, std::min(fuse_of(r), left));
        left -= one.steps;
        out.push_back(one);
    }
    return out;
}

// The launch shape of a request: launch_geometry() with the request's own block, if any, and the
// steps its (first) launch fuses. Every launch and every report takes its shape from here.
inline LaunchGeometry launch_geometry(const LaunchRequest& r) {
    return launch_geometry(r.kernel, r.tile, r.radius, r.precision, r.dims, r.block, steps_per_launch(r),
                           r.z_chunk);
}
// tile_error, then block_error when the request has a block, then the steps and what fusing them
// needs: the version table's rules.
inline std::optional<std::string> request_error(const LaunchRequest& r, DeviceLimits lim = {}) {
    if (auto e = tile_error(r.kernel, r.tile, r.radius, r.precision, lim)) return e;
    if (r.block)
        if (auto e = block_error(r.kernel, *r.block, lim)) return e;
    if (r.z_chunk != 0)
        if (auto e = z_chunk_error(r.kernel, r.z_chunk)) return e;
    if (r.steps < 1) return "--steps must be at least 1 (got " + std::to_string(r.steps) + ")";
    if (r.fuse != 0 || version(r.kernel).max_fused_steps > 1)
        if (auto e = fuse_error(r.kernel, r.tile, r.radius, r.fuse != 0 ? r.fuse : steps_per_launch(r))) return e;
    // A fused launch's shared memory grows with K (temporal's edges): within the device's dynamic limit.
    if (const long long s = dynamic_smem_bytes(r.kernel, launch_geometry(r)); s > lim.max_dynamic_smem_per_block)
        return std::string(version(r.kernel).name) + ": T=" + std::to_string(r.tile) + ", r=" +
               std::to_string(r.radius) + ", K=" + std::to_string(steps_per_launch(r)) + " needs " + std::to_string(s) +
               " B of shared memory per block, more than the " + std::to_string(lim.max_dynamic_smem_per_block) +
               " B of dynamic shared memory this GPU gives a block: fuse fewer steps or use a smaller tile";
    return std::nullopt;
}

// What the compiler and the occupancy calculator say of one instantiation; -1 = not known.
struct KernelAttributes {
    int registers_per_thread = -1;
    long long static_smem_bytes = -1;  // plus the launch's dynamic bytes where smem_is_dynamic
    int max_threads_per_block = -1;
    int active_blocks_per_sm = -1;
    double occupancy = -1;  // active warps / maximum warps per SM
};

struct DeviceInfo {
    std::string name;  // "NVIDIA H100 80GB HBM3", or the CPU's model name
    int multiprocessors = 0;       // SMs, or CPU cores
    long long l2_bytes = 0;
    long long smem_per_block = 0;  // bytes a block may use (static)
    long long smem_per_sm = 0;
    int cc_major = 0, cc_minor = 0;  // 0.0 on the CPU
    long long global_mem_bytes = 0;
    int warp_size = 32;
};

class Backend {
public:
    virtual ~Backend() = default;
    virtual BackendKind kind() const = 0;
    virtual DeviceInfo device() const = 0;
    virtual DeviceLimits limits() const = 0;

    // Why this request cannot run here (grid too large for memory, tile too large for this
    // device, ...), in one sentence; nullopt when it can.
    virtual std::optional<std::string> cannot_run(const LaunchRequest& req) const = 0;

    // One launch on host data, for checking. `in` and `out` point to dims.cells() values of the
    // request's precision; `out` arrives poisoned (NaN inside, the input on the boundary) and
    // returns as the kernel left it. Throws UserError on a launch or runtime failure.
    virtual void execute(const LaunchRequest& req, const StencilWeights& weights, const void* in,
                         void* out) = 0;

    // Milliseconds per launch for `reps` launches after `warmup` ones, on data of the request's
    // size, with the caches flushed between launches (so nothing is served from L2).
    virtual std::vector<double> time_ms(const LaunchRequest& req, const StencilWeights& weights,
                                        int warmup, int reps) = 0;

    // Copy bandwidth in GB/s (bytes read + bytes written, per second) for an array of `bytes`:
    // cudaMemcpy device to device on the GPU, memcpy on the CPU. One sample per rep.
    virtual std::vector<double> copy_gbps(long long bytes, int reps) = 0;

    virtual KernelAttributes attributes(const LaunchRequest& req) = 0;

    // The capabilities this backend offers, or nullptr: a front end asks and, where one is
    // absent, says so in one line. Owned by the backend, valid while it lives.
    virtual EngineRuns* engine() { return nullptr; }
    virtual Counters* counters() { return nullptr; }
    virtual BlockTimelines* block_timelines() { return nullptr; }
};

// "auto" takes the GPU when one is usable, else the CPU. On failure returns nullptr and says why.
std::unique_ptr<Backend> make_backend(std::string_view choice, std::string* why);
// Each backend's own factory, and why the CUDA one is not usable here (no driver, no GPU, or not
// built), as a sentence; nullopt when it is.
std::unique_ptr<Backend> make_cpu_backend();
std::unique_ptr<Backend> make_cuda_backend(std::string* why);
std::optional<std::string> cuda_unavailable_reason();

}  // namespace stencil
