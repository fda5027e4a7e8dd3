// ---------------------------------------------------------------------------------------------
// `stencil-lab baseline`: the textbook's listings against the lab's kernels, checked, then timed
// interleaved in one run (see baseline.h for the protocol).
//
// Why our own launches rather than Backend::time_ms: time_ms times `reps` launches of ONE kernel
// on its own buffers, so a textbook/lab comparison through it would compare two blocks of time
// (clocks, temperature and neighbours drift between them). Here both kernels read the same input
// buffer and write the same output buffer, alternate launch by launch (textbook, lab, textbook,
// lab, ...), each after the same L2 flush and between its own events: whatever drifts, drifts for
// both. The lab's kernels are the CUDA backend's own instantiations (backends/cuda/lab_kernel.h)
// on launch_geometry()'s shape, so only the caller differs.
// ---------------------------------------------------------------------------------------------
#include "experiments/baseline.h"

#include <cuda_runtime_api.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <array>

#include "backends/cuda/cuda_util.h"
#include "backends/cuda/lab_kernel.h"
#include "bench/textbook/textbook.h"
#include "core/backend.h"
#include "core/error.h"
#include "core/field.h"
#include "core/reference.h"
#include "core/run.h"
#include "core/weights.h"

namespace stencil::experiments {

using cuda_detail::check;
using cuda_detail::DeviceBuffer;
using cuda_detail::EventPair;

// ---- the textbook's table -----------------------------------------------------------------------

namespace {
constexpr std::array kConfigs{
    BaselineConfig{"naive 8x8x8", KernelId::naive, 8, {8, 8, 8}, true},
    BaselineConfig{"naive 32x4x2", KernelId::naive, 8, {32, 4, 2}, true},
    BaselineConfig{"tiled T=4", KernelId::tiled, 4, {}, true},
    BaselineConfig{"tiled T=6", KernelId::tiled, 6, {}, true},
    BaselineConfig{"tiled T=8", KernelId::tiled, 8, {}, true},
    BaselineConfig{"tiled T=10", KernelId::tiled, 10, {}, true},
    BaselineConfig{"coarsened T=16", KernelId::coarsened, 16, {}, true},
    BaselineConfig{"coarsened T=32", KernelId::coarsened, 32, {}, true},
    BaselineConfig{"register-tiled T=16", KernelId::register_tiled, 16, {}, true},
    BaselineConfig{"register-tiled T=32", KernelId::register_tiled, 32, {}, true},
};
}  // namespace

std::span<const BaselineConfig> baseline_configs() { return kConfigs; }

// ---- validation and the GPU -------------------------------------------------------------------

std::optional<std::string> options_error(const BaselineOptions& o) {
    if (o.size < 3)
        return fmt::format("--size {}: the grid needs at least 3 cells per side (a boundary on each face "
                           "and one interior cell)",
                           o.size);
    if (o.size > static_cast<int>(textbook::kMaxN))
        return fmt::format("--size {}: the textbook's listings index with 32-bit unsigned i*N*N + j*N + k, "
                           "so N^3 must stay below 2^32 (N <= {})",
                           o.size, textbook::kMaxN);
    if (o.reps < 1) return fmt::format("--reps {}: at least one timed launch is needed", o.reps);
    if (o.reps > 10000) return fmt::format("--reps {}: at most 10000", o.reps);
    if (o.warmup < 0 || o.warmup > 1000) return fmt::format("--warmup {}: must be 0..1000", o.warmup);
    // Host side: input, poisoned output, one output read back (fp32) and the fp64 reference (value
    // and magnitude): 28 B per cell.
    const double cells = double(o.size) * o.size * o.size;
    const double host_need = 28.0 * cells;
    const double host_have = double(::sysconf(_SC_PHYS_PAGES)) * double(::sysconf(_SC_PAGE_SIZE));
    if (host_have > 0 && host_need > 0.8 * host_have)
        return fmt::format("--size {}: the check keeps the input, an output and the fp64 reference on the "
                           "host ({} MiB), more than this machine's {} MiB allow",
                           o.size, (long long)(host_need / (1 << 20)), (long long)(host_have / (1 << 20)));
    return std::nullopt;
}

namespace {

// The lab's side of a configuration as the CUDA backend knows it: fp32, r = 1, the table's tile,
// and for naive the textbook's block (the lab's naive takes any block: `run --block`), so both
// sides launch the same shape.
LaunchRequest lab_request(const BaselineConfig& c, GridDims dims) {
    LaunchRequest r;
    r.kernel = c.kernel;
    r.tile = c.tile;
    r.dims = dims;  // radius 1, fp32: the textbook's
    if (c.kernel == KernelId::naive) r.block = c.naive_block;
    return r;
}

// Where there is no usable GPU, one sentence starting "no GPU: ". The backend's probe says why
// (no driver, no device, wrong architecture); then our own kernels must be loadable too.
void require_gpu() {
    if (const auto why = cuda_unavailable_reason()) throw UserError("no GPU: " + *why);
    cudaFuncAttributes a{};
    const cudaError_t e = cudaFuncGetAttributes(&a, textbook::function(KernelId::naive, 0));
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        throw UserError(fmt::format("the textbook's kernels cannot run on this GPU: {} [{}]", cudaGetErrorString(e),
                                    cudaGetErrorName(e)));
    }
}

int registers_of(const void* f) {
    cudaFuncAttributes a{};
    if (!f || cudaFuncGetAttributes(&a, f) != cudaSuccess) {
        (void)cudaGetLastError();
        return -1;
    }
    return a.numRegs;
}

// The GPU side of a run: one input, one output (both kernels read and write the same buffers, so
// neither gets luckier placement), the L2 flush buffer, the weights uploaded to both.
class Bench {
public:
    Bench(const Field<float>& in, const StencilWeights& weights)
        : n_(in.dims.nx),
          dims_(in.dims),
          bytes_(static_cast<std::size_t>(in.dims.cells()) * sizeof(float)) {
        flush_bytes_ = cuda_detail::l2_flush_bytes();
        std::size_t free_b = 0, total_b = 0;
        check(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo");
        const std::size_t need = 2 * bytes_ + flush_bytes_;
        if (need > free_b)
            throw UserError(fmt::format("grid {}^3 needs {} MiB on the GPU (input, output, L2 flush buffer), but "
                                        "only {} MiB of its {} MiB are free",
                                        n_, need >> 20, free_b >> 20, total_b >> 20));
        in_ = DeviceBuffer(bytes_, "input");
        out_ = DeviceBuffer(bytes_, "output");
        check(cudaMemcpy(in_.get(), in.data.data(), bytes_, cudaMemcpyHostToDevice), "cudaMemcpy (input to the GPU)");
        textbook::upload_weights(weights);
        // Each version's kernels read their own TU's constant memory: upload to every one used.
        for (const BaselineConfig& c : kConfigs)
            if (c.has_lab) upload_lab_kernel_weights(lab_request(c, dims_), weights);
    }

    // One launch of `side` on the poisoned output, read back.
    Field<float> execute(Side side, const BaselineConfig& c, const Field<float>& poisoned) {
        check(cudaMemcpy(out_.get(), poisoned.data.data(), bytes_, cudaMemcpyHostToDevice),
              "cudaMemcpy (poisoned output to the GPU)");
        launch(side, c);
        cuda_detail::check_launch(what(side, c).c_str(), true);
        Field<float> got(dims_);
        check(cudaMemcpy(got.data.data(), out_.get(), bytes_, cudaMemcpyDeviceToHost), "cudaMemcpy (output to the host)");
        return got;
    }

    void launch(Side side, const BaselineConfig& c) {
        const auto* in = static_cast<const float*>(in_.get());
        auto* out = static_cast<float*>(out_.get());
        if (side == Side::textbook)
            textbook::launch(c.kernel, c.tile, c.naive_block, in, out, static_cast<unsigned int>(n_));
        else
            launch_lab_kernel(lab_request(c, dims_), in, out);
    }

    // Untimed: overwrites the whole flush buffer, so nothing the next launch reads is in L2.
    void flush_l2() { flush_.flush(nullptr); }

    // Device-to-device copies of one array (in -> out), flushed and timed like the kernels; GB/s
    // counting the read and the write.
    std::vector<double> copy_gbps(int warmup, int reps) {
        for (int i = 0; i < std::max(warmup, 1); ++i)
            check(cudaMemcpyAsync(out_.get(), in_.get(), bytes_, cudaMemcpyDeviceToDevice, nullptr), "cudaMemcpyAsync");
        std::vector<EventPair> ev(static_cast<std::size_t>(reps));
        for (auto& e : ev) {
            flush_l2();
            e.start();
            check(cudaMemcpyAsync(out_.get(), in_.get(), bytes_, cudaMemcpyDeviceToDevice, nullptr),
                  "cudaMemcpyAsync (device to device)");
            e.stop();
        }
        check(cudaDeviceSynchronize(), "cudaDeviceSynchronize (after the copies)");
        std::vector<double> gbps;
        for (const auto& e : ev) gbps.push_back(2.0 * double(bytes_) / (std::max(e.ms(), 1e-6) * 1e6));
        return gbps;
    }

    // Warm-up launches of each side, then `reps` rounds of (flush, textbook, flush, lab).
    void time_interleaved(const BaselineConfig& c, bool with_lab, int warmup, int reps, std::vector<double>& tb_ms,
                          std::vector<double>& lab_ms) {
        for (int i = 0; i < warmup; ++i) {
            launch(Side::textbook, c);
            if (with_lab) launch(Side::lab, c);
        }
        cuda_detail::check_launch(c.label, true);
        std::vector<EventPair> tb(static_cast<std::size_t>(reps)), lab(with_lab ? static_cast<std::size_t>(reps) : 0);
        for (int r = 0; r < reps; ++r) {
            flush_l2();
            tb[r].start();
            launch(Side::textbook, c);
            tb[r].stop();
            if (!with_lab) continue;
            flush_l2();
            lab[r].start();
            launch(Side::lab, c);
            lab[r].stop();
        }
        cuda_detail::check_launch(c.label, true);
        tb_ms.clear();
        lab_ms.clear();
        for (const auto& e : tb) tb_ms.push_back(e.ms());
        for (const auto& e : lab) lab_ms.push_back(e.ms());
    }

    static std::string what(Side side, const BaselineConfig& c) {
        return fmt::format("{} {}", side == Side::textbook ? "the textbook's" : "the lab's", c.label);
    }

private:
    int n_;
    GridDims dims_;
    std::size_t bytes_, flush_bytes_ = 0;
    DeviceBuffer in_, out_;
    cuda_detail::L2Flush flush_;
};

}  // namespace

LaunchGeometry lab_launch_geometry(const BaselineConfig& c, int n) {
    return launch_geometry(lab_request(c, GridDims{n, n, n}));
}

namespace {

const void* function_of(Side side, const BaselineConfig& c) {
    return side == Side::textbook ? textbook::function(c.kernel, c.tile) : lab_kernel_function(lab_request(c, GridDims{8, 8, 8}));
}

void fill_launch(SideResult& s, Side side, const BaselineConfig& c, int n) {
    if (side == Side::textbook) {
        const auto l = textbook::launch_shape(c.kernel, c.tile, c.naive_block, static_cast<unsigned int>(n));
        s.grid = l.grid;
        s.block = l.block;
    } else {
        const auto g = lab_launch_geometry(c, n);
        s.grid = g.grid;
        s.block = g.block;
    }
    s.registers = registers_of(function_of(side, c));
}

StencilWeights baseline_weights(std::uint64_t seed) { return random_weights(1, seed).rounded_to(Precision::f32); }

}  // namespace

// ---- the run ----------------------------------------------------------------------------------

BaselineReport run_baseline(const BaselineOptions& o) {
    if (auto e = options_error(o)) throw UserError(*e);
    require_gpu();

    BaselineReport rep;
    rep.options = o;
    {
        cudaDeviceProp p{};
        check(cudaGetDeviceProperties(&p, 0), "cudaGetDeviceProperties");
        rep.device = p.name;
        rep.cc_major = p.major;
        rep.cc_minor = p.minor;
    }
    const GridDims dims{o.size, o.size, o.size};
    rep.bytes = minimum_bytes(dims, Precision::f32);

    // One input and one set of weights (random, asymmetric, rounded to fp32) for every kernel.
    const Field<float> in = random_field<float>(dims, o.seed);
    const StencilWeights weights = baseline_weights(o.seed);
    const Reference ref = reference_stencil(in, weights);
    const Field<float> poisoned = poisoned_output(in, 1);

    Bench bench(in, weights);
    if (o.time) rep.copy_gbps = summarize(bench.copy_gbps(o.warmup, o.reps));

    const int total = static_cast<int>(kConfigs.size());
    for (int i = 0; i < total; ++i) {
        const BaselineConfig& c = kConfigs[i];
        if (o.progress) o.progress(i, total, c.label);
        BaselineRow row;
        row.config = c;
        row.textbook.ran = true;
        fill_launch(row.textbook, Side::textbook, c, o.size);
        row.textbook.check = compare_with_reference(bench.execute(Side::textbook, c, poisoned), ref, Precision::f32);
        if (c.has_lab) {
            row.lab.ran = true;
            fill_launch(row.lab, Side::lab, c, o.size);
            row.lab.check = compare_with_reference(bench.execute(Side::lab, c, poisoned), ref, Precision::f32);
        }
        if (o.time && row.checks_ok()) {
            bench.time_interleaved(c, row.lab.ran, o.warmup, o.reps, row.textbook.samples_ms, row.lab.samples_ms);
            row.timed = true;
            for (SideResult* s : {&row.textbook, &row.lab}) {
                if (!s->ran) continue;
                s->ms = summarize(s->samples_ms);
                s->gbps = rep.bytes / (std::max(s->ms.median, 1e-9) * 1e6);
                s->copy_ratio = rep.copy_gbps.median > 0 ? s->gbps / rep.copy_gbps.median : 0;
            }
            if (row.lab.ran) {
                row.lab_over_textbook = row.textbook.ms.median / std::max(row.lab.ms.median, 1e-9);
                std::vector<double> paired;
                for (std::size_t i = 0; i < row.lab.samples_ms.size(); ++i)
                    paired.push_back(row.textbook.samples_ms[i] / std::max(row.lab.samples_ms[i], 1e-9));
                row.paired = summarize(std::move(paired));
            }
        }
        rep.rows.push_back(std::move(row));
    }
    if (o.progress) o.progress(total, total, "done");
    return rep;
}

CompareResult check_one(Side side, const BaselineConfig& c, int n, std::uint64_t seed) {
    BaselineOptions o;
    o.size = n;
    if (auto e = options_error(o)) throw UserError(*e);
    if (side == Side::lab && !c.has_lab) throw UserError(fmt::format("{} has no lab counterpart", c.label));
    require_gpu();
    const GridDims dims{n, n, n};
    const Field<float> in = random_field<float>(dims, seed);
    const StencilWeights weights = baseline_weights(seed);
    const Reference ref = reference_stencil(in, weights);
    Bench bench(in, weights);
    return compare_with_reference(bench.execute(side, c, poisoned_output(in, 1)), ref, Precision::f32);
}

}  // namespace stencil::experiments
