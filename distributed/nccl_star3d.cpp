#include "distributed/nccl_star3d.h"

#include <cuda_runtime_api.h>

#include <utility>

#include "backends/cuda/cuda_util.h"
#include "backends/cuda/lab_kernel.h"
#include "core/error.h"
#include "core/weights.h"
#include "distributed/nccl_run.h"
#include "distributed/seconds_since.h"

namespace stencil::distributed {

namespace {

using cuda_detail::check;
using cuda_detail::DeviceBuffer;

class Star3dPieceOnGpu : public GpuPieceSteps {
public:
    Star3dPieceOnGpu(std::vector<LaunchRequest> passes, int halo, bool overlap)
        : passes_(std::move(passes)), halo_(halo), overlap_(overlap) {
        // CUDA loads a kernel at its first launch: loaded now, so the timed steps do not pay it.
        for (const LaunchRequest& pass : passes_) {
            cudaFuncAttributes attributes{};
            check(cudaFuncGetAttributes(&attributes, lab_kernel_function(pass)), "cudaFuncGetAttributes");
        }
    }

    void pass(int k, DevicePiece& piece) override {
        const LaunchRequest& launch = passes_[k];
        const int r = launch.radius, nz = piece.local_dims().nz;
        // The slab [2r, nz - 2r) reads z in [r, nz - r): no z halo when the halo is r wide. Only for
        // runs of one step a pass: a fused launch on a slab writes levels that are wrong within r K
        // of the slab's faces, which lie in the neighbouring slab, and the last, shorter pass of a
        // fused run still has halos r K wide.
        // The two thin slabs that read the z halos go on the exchange's stream, where they run as
        // soon as the halos land, beside the inner slab (device_piece.h, "Overlap").
        if (overlap_ && piece.late_axis() == 2 && piece.late_halos() && halo_ == r && nz - 2 * r > 2 * r) {
            const cudaStream_t faces = piece.late_halo_stream();
            compute_slab(piece, launch, 2 * r, nz - 2 * r, nullptr);
            compute_slab(piece, launch, r, 2 * r, faces);
            compute_slab(piece, launch, nz - 2 * r, nz - r, faces);
        } else {
            piece.wait_for_late_halos();
            compute_slab(piece, launch, r, nz - r, nullptr);
        }
    }

private:
    // Computes the cells with local z in [lo, hi) on `stream`: the kernel sees the planes
    // [lo - r, hi + r) as a grid of its own (planes are contiguous), whose r outer planes it
    // leaves alone.
    static void compute_slab(const DevicePiece& piece, const LaunchRequest& launch, int lo, int hi,
                             cudaStream_t stream) {
        if (hi <= lo) return;
        const int r = launch.radius;
        const GridDims dims = piece.local_dims();
        LaunchRequest slab = launch;
        slab.dims.nz = hi - lo + 2 * r;
        const std::size_t offset = std::size_t(lo - r) * dims.nx * dims.ny * piece.value_bytes();
        launch_lab_kernel(slab, static_cast<const unsigned char*>(piece.in()) + offset,
                          static_cast<unsigned char*>(piece.out()) + offset, stream);
    }

    std::vector<LaunchRequest> passes_;
    int halo_;
    bool overlap_;
};

class Star3dOnGpu : public GpuSteps {
public:
    // The options have passed star3d_run_error: the radius is one the weights can have.
    explicit Star3dOnGpu(const Star3dRunOptions& o) : o_(o), weights_(random_weights(o.request.radius, o.seed)) {}
    std::optional<std::string> unavailable() const override { return lab_kernel_unavailable(o_.request); }
    void on_device() const override { upload_lab_kernel_weights(o_.request, weights_); }
    std::unique_ptr<GpuPieceSteps> on_piece(const analysis::SubBox& box) const override {
        return std::make_unique<Star3dPieceOnGpu>(pass_launches(o_, box.local_dims()), pass_halo(o_), o_.overlap);
    }
    // The single domain on the current GPU: the same kernel on the whole grid, the same launches.
    Fields single_domain(const Fields& start, double* seconds_per_step) const override {
        const std::vector<unsigned char>& input = start.at(0);
        DeviceBuffer a(input.size(), "the single domain (in)"), b(input.size(), "the single domain (out)");
        check(cudaMemcpy(a.get(), input.data(), input.size(), cudaMemcpyHostToDevice), "cudaMemcpy of the input");
        check(cudaMemcpy(b.get(), input.data(), input.size(), cudaMemcpyHostToDevice), "cudaMemcpy of the input");
        void* in = a.get();
        void* out = b.get();
        check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
        const auto t0 = Clock::now();
        for (const LaunchRequest& launch : pass_launches(o_, o_.request.dims)) {
            launch_lab_kernel(launch, in, out);
            std::swap(in, out);
        }
        check(cudaDeviceSynchronize(), "the single domain's steps (cudaDeviceSynchronize)");
        *seconds_per_step = seconds_since(t0) / o_.steps;
        std::vector<unsigned char> result(input.size());
        check(cudaMemcpy(result.data(), in, result.size(), cudaMemcpyDeviceToHost), "cudaMemcpy of the single domain");
        return {std::move(result)};
    }

private:
    Star3dRunOptions o_;
    StencilWeights weights_;
};

}  // namespace

Star3dRunResult run_star3d_gpus(int gpus, const Star3dRunOptions& o) {
    const Star3dProblem problem(o);
    if (auto e = problem.run_error(gpus)) throw UserError(*e);  // before the weights are drawn
    const Star3dOnGpu steps(o);
    return {run_on_gpus(gpus, problem, steps), o};
}

#if STENCIL_LAB_HAVE_MPI
Star3dRunResult run_star3d_nccl(const MpiWorld& world, const Star3dRunOptions& o) {
    const Star3dProblem problem(o);
    if (auto e = problem.run_error(world.size())) throw UserError(*e);
    const Star3dOnGpu steps(o);
    return {run_nccl(world, problem, steps), o};
}
#endif

}  // namespace stencil::distributed
