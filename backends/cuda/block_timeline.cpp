// The host side of the GPU's block timeline (block_timeline.h): buffers, the instrumented launch
// of tiled or coarsened (block_timeline.cu), the stamps read back and the outputs checked against
// the fp64 reference.
#include "backends/cuda/block_timeline.h"

#include <fmt/format.h>

#include "backends/cuda/block_timeline_launch.h"
#include "backends/cuda/cuda_util.h"
#include "core/compare.h"
#include "core/error.h"
#include "core/field.h"
#include "core/reference.h"
#include "core/weights.h"

namespace stencil {

namespace {

template <class real>
RecordedTimeline record_as(const LaunchRequest& req, int bx, int by, int bz) {
    using namespace cuda_detail;
    const LaunchGeometry g = launch_geometry(req.kernel, req.tile, req.radius, req.precision, req.dims);
    const int warps = (int)((g.block.count() + 31) / 32);
    const int planes = req.kernel == KernelId::coarsened ? g.out_planes : 1;
    const Field<real> in = random_field<real>(req.dims, 7);
    Field<real> out = poisoned_output(in, req.radius);
    const StencilWeights w = laplacian_weights(req.radius);
    const std::size_t bytes = in.data.size() * sizeof(real);
    DeviceBuffer d_in(bytes, "input"), d_out(bytes, "output");
    const std::size_t stamps = (std::size_t)warps * planes * kTimelineMarks;
    const std::size_t stamp_bytes = stamps * sizeof(unsigned long long);
    DeviceBuffer d_cycles(stamp_bytes, "clock64 stamps"), d_ns(stamp_bytes, "globaltimer stamps");
    check(cudaMemcpy(d_in.get(), in.data.data(), bytes, cudaMemcpyHostToDevice), "cudaMemcpy (input)");
    check(cudaMemcpy(d_out.get(), out.data.data(), bytes, cudaMemcpyHostToDevice), "cudaMemcpy (output)");
    check(cudaMemset(d_cycles.get(), 0, stamp_bytes), "cudaMemset (stamps)");
    check(cudaMemset(d_ns.get(), 0, stamp_bytes), "cudaMemset (stamps)");
    TimelineLaunch l;
    l.precision = req.precision;
    l.tile = req.tile;
    l.radius = req.radius;
    l.dims = req.dims;
    l.grid = g.grid;
    l.block = g.block;
    l.chosen[0] = bx, l.chosen[1] = by, l.chosen[2] = bz;
    l.in = d_in.get();
    l.out = d_out.get();
    l.cycles = static_cast<unsigned long long*>(d_cycles.get());
    l.ns = static_cast<unsigned long long*>(d_ns.get());
    l.weights = &w;
    const bool launched = req.kernel == KernelId::coarsened ? launch_coarsened_timeline(l) : launch_tiled_timeline(l);
    if (!launched)
        throw UserError(fmt::format("{} T={} r={} {} is not built for the GPU", version(req.kernel).name, req.tile,
                                    req.radius, to_string(req.precision)));
    RecordedTimeline t;
    t.warps = warps;
    t.planes = planes;
    t.cycles.resize(stamps);
    t.ns.resize(t.cycles.size());
    check(cudaMemcpy(t.cycles.data(), d_cycles.get(), stamp_bytes, cudaMemcpyDeviceToHost), "cudaMemcpy (stamps)");
    check(cudaMemcpy(t.ns.data(), d_ns.get(), stamp_bytes, cudaMemcpyDeviceToHost), "cudaMemcpy (stamps)");
    check(cudaMemcpy(out.data.data(), d_out.get(), bytes, cudaMemcpyDeviceToHost), "cudaMemcpy (output)");
    // A mark no lane of the warp reached holds the one before it (a phase of length 0), across
    // planes too: a warp's marks are one sequence, plane after plane.
    const std::size_t per_warp = (std::size_t)planes * kTimelineMarks;
    for (int wp = 0; wp < warps; ++wp)
        for (std::size_t m = 1; m < per_warp; ++m)
            for (auto* v : {&t.cycles, &t.ns}) {
                auto& x = (*v)[wp * per_warp + m];
                if (x == 0) x = (*v)[wp * per_warp + m - 1];
            }
    const CompareResult cmp = compare_with_reference(out, reference_stencil(in, w), req.precision);
    t.output_ok = cmp.ok;
    t.check = cmp.summary();
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess) t.device = prop.name;
    return t;
}

}  // namespace

RecordedTimeline record_block_timeline(const LaunchRequest& req, int bx, int by, int bz) {
    if (!has_block_timeline(req.kernel))
        throw UserError(fmt::format("the GPU timeline instruments the tiled and coarsened kernels (their barriers "
                                    "between load and compute), not {}",
                                    version(req.kernel).name));
    if (auto e = tile_error(req.kernel, req.tile, req.radius, req.precision)) throw UserError(*e);
    const LaunchGeometry g = launch_geometry(req.kernel, req.tile, req.radius, req.precision, req.dims);
    if (bx < 0 || by < 0 || bz < 0 || bx >= g.grid.x || by >= g.grid.y || bz >= g.grid.z)
        throw UserError(fmt::format("block ({}, {}, {}) is outside the launch grid of {} x {} x {} blocks", bx, by, bz,
                                    g.grid.x, g.grid.y, g.grid.z));
    return req.precision == Precision::f32 ? record_as<float>(req, bx, by, bz) : record_as<double>(req, bx, by, bz);
}

}  // namespace stencil
